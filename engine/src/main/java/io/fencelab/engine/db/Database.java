package io.fencelab.engine.db;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import java.util.List;
import javax.sql.DataSource;
import org.flywaydb.core.Flyway;
import org.flywaydb.core.api.FlywayException;
import org.jdbi.v3.core.Jdbi;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The engine's PostgreSQL: an embedded server (the default) or an external one, a connection pool,
 * and the migrated schema. Every run, lease and fenced target shares one {@code Database}.
 */
public final class Database implements AutoCloseable {

    private static final Logger log = LoggerFactory.getLogger(Database.class);
    private static final String EMBEDDED_DB = "postgres";

    private final DatabaseConfig config;
    private final int poolSize;
    /** An agent's connection ({@link #join}): one idle connection, since every login costs a SCRAM hash. */
    private final boolean joined;
    /** How an external server is restarted for a fault; null if it cannot be (always null for embedded). */
    private final RestartCommand restartCommand;
    /** The embedded server this process uses (shared with other Fencelab processes on the same directory). */
    private EmbeddedServer embedded;
    private HikariDataSource pool;
    private Jdbi jdbi;
    private String serverVersion;

    private Database(DatabaseConfig config, int poolSize, RestartCommand restartCommand) {
        this(config, poolSize, restartCommand, true);
    }

    private Database(DatabaseConfig config, int poolSize, RestartCommand restartCommand, boolean migrate) {
        this.joined = !migrate;
        this.config = config;
        this.poolSize = poolSize;
        this.restartCommand = config.isEmbedded() ? null : restartCommand;
        if (config.isEmbedded()) {
            this.embedded = EmbeddedServer.open(config.dataDirectory(), config.port());
            this.lastPort = embedded.port();
        }
        try {
            this.pool = new HikariDataSource(hikariConfig());
        } catch (RuntimeException e) {
            closeQuietly();
            throw new DatabaseException("could not connect to " + describeLocation() + ": " + scrub(rootMessage(e)), e);
        }
        try {
            if (migrate) {
                migrate(pool);
            }
            this.jdbi = Jdbi.create(pool);
            this.serverVersion = jdbi.withHandle(h -> h.createQuery("SHOW server_version").mapTo(String.class).one());
        } catch (RuntimeException e) {
            closeQuietly();
            throw e;
        }
        log.info("database ready: {} (PostgreSQL {})", describeLocation(), serverVersion);
    }

    /** Opens (and for embedded, starts) the database and migrates its schema. */
    public static Database open(DatabaseConfig config) {
        return open(config, 40);
    }

    /** As {@link #open(DatabaseConfig)} with a pool of at most {@code poolSize} connections. */
    public static Database open(DatabaseConfig config, int poolSize) {
        return new Database(config, poolSize, null);
    }

    /**
     * As {@link #open(DatabaseConfig, int)}; an external server is restarted for a
     * {@code DATABASE_RESTART} fault with {@code restartCommand} (ignored for the embedded server,
     * which Fencelab restarts itself; null for none).
     */
    public static Database open(DatabaseConfig config, int poolSize, RestartCommand restartCommand) {
        return new Database(config, poolSize, restartCommand);
    }

    public Jdbi jdbi() {
        return jdbi;
    }

    public DataSource dataSource() {
        return pool;
    }

    public DatabaseConfig config() {
        return config;
    }

    public boolean isEmbedded() {
        return config.isEmbedded();
    }

    /** The server's {@code server_version}, for example {@code 17.6}. */
    public String serverVersion() {
        return serverVersion;
    }

    /**
     * A JDBC URL that connects to this database by itself: for the embedded server it carries the
     * server's secret ({@code password=}), so never print it ({@link #describe()} is for showing).
     * For tests and baselines that connect on their own, such as raw JDBC.
     */
    public String jdbcUrl() {
        return isEmbedded() ? embeddedUrl() + "&password=" + embedded.secret() : config.jdbcUrl().orElseThrow();
    }

    /**
     * A JDBC URL for this database with no secret in it, to connect with {@link #user()} and
     * {@link #password()} given apart (as pgbench takes them from its environment).
     */
    public String jdbcUrlWithoutSecret() {
        return isEmbedded() ? embeddedUrl() : config.jdbcUrl().orElseThrow();
    }

    /** The user name to connect as, if not in the URL. */
    public java.util.Optional<String> user() {
        return isEmbedded() ? java.util.Optional.of(EmbeddedServer.SUPERUSER) : config.user();
    }

    /** The password to connect with, if not in the URL (the embedded server's secret); never print it. */
    public java.util.Optional<String> password() {
        EmbeddedServer server = embedded;
        return server != null ? java.util.Optional.of(server.secret()) : config.password();
    }

    /** The embedded server's port, or -1 for an external server. */
    public int embeddedPort() {
        return isEmbedded() ? lastPort : -1;
    }

    /**
     * {@code message} with every credential this database knows removed: the password of the
     * configuration and the embedded secret wherever they appear, and any URL's password.
     */
    public String scrub(String message) {
        return Scrub.forPerson(message, password().orElse(null),
                config.jdbcUrl().flatMap(Scrub::passwordIn).orElse(null));
    }

    /** One line for status bars and reports: never contains a password. */
    public String describe() {
        return describeLocation() + ", PostgreSQL " + serverVersion;
    }

    private String describeLocation() {
        return isEmbedded()
                ? "embedded on port " + lastPort
                : DatabaseConfig.shown(config.jdbcUrl().orElseThrow());
    }

    /**
     * Connects to a server whose schema a run has already migrated, without migrating (an agent of a
     * process run, which must start fast and may lack the rights to change the schema).
     *
     * @throws IllegalArgumentException for the embedded configuration: an agent joins a running server
     */
    public static Database join(DatabaseConfig config, int poolSize) {
        if (config.isEmbedded()) {
            throw new IllegalArgumentException("an agent joins the run's server by its JDBC URL, not a data directory");
        }
        return new Database(config, poolSize, null, false);
    }

    /**
     * Creates a run: an isolated namespace for leases, tokens and resources.
     *
     * @throws DatabaseException if the schema cannot serve a run ({@link #checkSchema()})
     */
    public RunContext newRun(String label) {
        checkSchema();
        long id = jdbi.withHandle(h -> h.createQuery("INSERT INTO run (label) VALUES (:label) RETURNING run_id")
                .bind("label", label)
                .mapTo(Long.class)
                .one());
        return new RunContext(this, id, label);
    }

    /** What a run does with each table of the schema; every function it calls it executes. */
    private static final java.util.Map<String, List<String>> TABLE_RIGHTS = tableRights();

    private static java.util.Map<String, List<String>> tableRights() {
        java.util.Map<String, List<String>> rights = new java.util.LinkedHashMap<>();
        rights.put("run", List.of("SELECT", "INSERT"));
        rights.put("lease", List.of("SELECT", "INSERT", "UPDATE"));
        for (io.fencelab.engine.resource.TargetKind kind : io.fencelab.engine.resource.TargetKind.BUILT_IN) {
            rights.put(kind.table(), List.of("SELECT", "INSERT", "UPDATE"));
        }
        rights.put("fence_audit", List.of("SELECT", "INSERT")); // written by the targets' trigger as the writer
        // A process run's tables (V4): the run, its agents and the agent hosts write and read them.
        rights.put("agent_run", List.of("SELECT", "INSERT", "UPDATE"));
        rights.put("agent", List.of("SELECT", "INSERT", "UPDATE"));
        rights.put("agent_event", List.of("SELECT", "INSERT", "DELETE")); // the run drains it
        rights.put("agent_order", List.of("SELECT", "INSERT", "UPDATE"));
        rights.put("agent_host", List.of("SELECT", "INSERT", "UPDATE"));
        return java.util.Collections.unmodifiableMap(rights);
    }

    private static List<String> functions() {
        return io.fencelab.engine.resource.TargetKind.BUILT_IN.stream()
                .flatMap(k -> java.util.stream.Stream.of(k.writeFunction(), k.blindWriteFunction())).toList();
    }

    /**
     * Checks, before a run, that this connection's role can run Fencelab's statements: every table and
     * function of the schema is there and it holds the rights a run uses on them. A schema broken
     * since it was migrated (a table dropped, rights revoked) would otherwise fail every statement of
     * the run; this way the run is refused at once, in one line.
     *
     * @throws DatabaseException ({@link DatabaseFailure#SCHEMA_MISSING} or {@link DatabaseFailure#PERMISSION_DENIED})
     *                           naming what is missing
     */
    public void checkSchema() {
        List<String> names = new java.util.ArrayList<>();
        List<String> kinds = new java.util.ArrayList<>();
        List<String> rights = new java.util.ArrayList<>();
        TABLE_RIGHTS.forEach((table, needed) -> needed.forEach(right -> {
            names.add(table);
            kinds.add("table");
            rights.add(right);
        }));
        for (String function : functions()) {
            names.add(function);
            kinds.add("function");
            rights.add("EXECUTE");
        }
        List<String> missing = new java.util.ArrayList<>();
        List<String> denied = new java.util.ArrayList<>();
        try {
            jdbi.useHandle(h -> h.createQuery("""
                            SELECT n.name, n.kind, n.privilege,
                                   CASE n.kind WHEN 'table' THEN to_regclass(n.name)::oid ELSE to_regproc(n.name)::oid END IS NOT NULL AS present,
                                   CASE n.kind WHEN 'table' THEN has_table_privilege(to_regclass(n.name), n.privilege)
                                               ELSE has_function_privilege(to_regproc(n.name)::oid, n.privilege) END AS granted
                              FROM unnest(CAST(:names AS text[]), CAST(:kinds AS text[]), CAST(:rights AS text[]))
                                   AS n(name, kind, privilege)
                            """)
                    .bind("names", names.toArray(String[]::new))
                    .bind("kinds", kinds.toArray(String[]::new))
                    .bind("rights", rights.toArray(String[]::new))
                    .map((rs, ctx) -> {
                        String what = rs.getString("kind") + " " + rs.getString("name");
                        if (!rs.getBoolean("present")) {
                            if (!missing.contains(what)) {
                                missing.add(what);
                            }
                        } else if (!rs.getBoolean("granted")) {
                            denied.add(rs.getString("privilege") + " on " + what);
                        }
                        return what;
                    })
                    .list());
        } catch (org.jdbi.v3.core.JdbiException e) {
            throw e.getCause() instanceof java.sql.SQLException sql ? DatabaseException.from(sql)
                    : new DatabaseException("could not check the Fencelab schema in " + describeLocation() + ": "
                    + rootMessage(e), e);
        }
        if (!missing.isEmpty()) {
            String what = String.join(", ", missing) + (missing.size() == 1 ? " is" : " are") + " missing";
            throw new DatabaseException(DatabaseFailure.SCHEMA_MISSING, "Fencelab's schema is broken: " + what,
                    "the Fencelab schema in " + describeLocation() + " is broken: " + what
                            + "; repair it, or give Fencelab a database of its own (--data-dir DIR or --jdbc-url URL)", null);
        }
        if (!denied.isEmpty()) {
            String what = "no " + String.join(", no ", denied);
            throw new DatabaseException(DatabaseFailure.PERMISSION_DENIED, "permission denied: " + what,
                    "the role Fencelab connects as to " + describeLocation() + " cannot run Fencelab's statements: "
                            + what + "; grant it these rights on Fencelab's schema, or use another role", null);
        }
    }

    /** A session on its own pooled connection, for a worker to keep; close it to give the connection back. */
    public Session openSession() {
        try {
            return Session.open(pool.getConnection(), pool::evictConnection);
        } catch (java.sql.SQLException e) {
            // A run records the reason: it says what, never where (the message, for a user, says both).
            throw new DatabaseException(DatabaseFailure.of(e), "no connection to the database: " + scrub(rootMessage(e)),
                    "no connection to " + describeLocation() + ": " + scrub(rootMessage(e)), e);
        }
    }

    /**
     * Whether a fresh statement gets through now (used to tell a dead database from a failed
     * statement). A pooled connection whose statement fails may be one that died on its own; the
     * pool drops it on that failure, so the question is asked again on another before the answer is no.
     */
    public boolean isReachable() {
        for (int attempt = 0; attempt < 3; attempt++) {
            try (Session s = openSession(); java.sql.ResultSet rs = s.prepared("SELECT 1").executeQuery()) {
                return rs.next();
            } catch (DatabaseException e) {
                return false; // no connection within the pool's timeout: nothing more to try
            } catch (java.sql.SQLException e) {
                // that connection was dead: try another
            }
        }
        return false;
    }

    /** Re-attaches to a run created earlier (for example before a restart). */
    public RunContext existingRun(long runId) {
        String label = jdbi.withHandle(h -> h.createQuery("SELECT label FROM run WHERE run_id = :id")
                .bind("id", runId)
                .mapTo(String.class)
                .findOne())
                .orElseThrow(() -> new IllegalArgumentException("no run " + runId + " in " + describeLocation()));
        return new RunContext(this, runId, label);
    }

    /**
     * Whether Fencelab can restart this server for a {@code DATABASE_RESTART} fault: the embedded one
     * always, an external one only with a {@link RestartCommand}.
     */
    public boolean canRestart() {
        return isEmbedded() || restartCommand != null;
    }

    /**
     * Why a {@code DATABASE_RESTART} fault cannot run on this server, in one line; empty if it can.
     * The one wording for the command line and the console.
     */
    public java.util.Optional<String> restartRefusal() {
        if (isEmbedded()) {
            java.util.List<Long> others = embedded.otherUsers();
            return others.isEmpty() ? java.util.Optional.empty() : java.util.Optional.of("a DATABASE_RESTART fault "
                    + "would stop the embedded PostgreSQL in " + config.dataDirectory() + " under another Fencelab "
                    + "using it (pid " + others.get(0) + "): give this run a database of its own with --data-dir DIR");
        }
        return canRestart() ? java.util.Optional.empty() : java.util.Optional.of("a DATABASE_RESTART fault needs a "
                + "database Fencelab can restart, and the external PostgreSQL at " + describeLocation()
                + " is not one: give a restart command (--db-restart-command PROGRAM ARGS), or use the embedded database");
    }

    /**
     * The first half of a {@code DATABASE_RESTART} fault. The embedded server stops; connections fail
     * until {@link #startServer()}. An external server is restarted whole by its {@link RestartCommand},
     * and this returns once it answers again.
     *
     * @throws IllegalStateException if the server cannot be restarted ({@link #restartRefusal})
     * @throws DatabaseException     if the restart command fails or the server does not come back
     */
    public void stopServer() {
        if (isEmbedded()) {
            stopEmbedded();
            return;
        }
        if (restartCommand == null) {
            throw new IllegalStateException(restartRefusal().orElseThrow());
        }
        log.info("restarting {} with its restart command {}", describeLocation(), restartCommand.program());
        restartCommand.restart(this::isReachable, io.fencelab.engine.clock.Ticker.system());
        pool.getHikariPoolMXBean().softEvictConnections(); // connections from before the restart are dead
        log.info("{} answers again after its restart", describeLocation());
    }

    /** The second half of a {@code DATABASE_RESTART} fault: the embedded server starts again; an external one is already back. */
    public void startServer() {
        if (isEmbedded()) {
            startEmbedded();
        }
    }

    /** Stops the embedded server (a fault for chaos runs); connections fail until {@link #startEmbedded()}. */
    public synchronized void stopEmbedded() {
        requireEmbedded();
        lastPort = embedded.port();
        embedded.stop();
        pool.getHikariPoolMXBean().softEvictConnections();
    }

    /** Starts the embedded server again on the same port and data directory. */
    public synchronized void startEmbedded() {
        requireEmbedded();
        embedded.start();
    }

    /** Stops and starts the embedded PostgreSQL; data, and so every token counter, survives. */
    public synchronized void restartEmbedded() {
        stopEmbedded();
        startEmbedded();
    }

    private int lastPort;

    private void requireEmbedded() {
        if (!isEmbedded()) {
            throw new IllegalStateException("only the embedded PostgreSQL can be stopped or restarted by Fencelab");
        }
    }

    private String embeddedUrl() {
        return "jdbc:postgresql://127.0.0.1:" + lastPort + "/" + EMBEDDED_DB + "?user=" + EmbeddedServer.SUPERUSER;
    }

    private HikariConfig hikariConfig() {
        HikariConfig hc = new HikariConfig();
        hc.setPoolName("fencelab");
        hc.setMaximumPoolSize(poolSize);
        hc.setMinimumIdle(joined ? 1 : Math.min(4, poolSize));
        hc.setConnectionTimeout(5_000);
        hc.setInitializationFailTimeout(1); // one attempt: a wrong URL should fail fast and say so
        if (isEmbedded()) {
            hc.setJdbcUrl(embeddedUrl());
            hc.setPassword(embedded.secret());
        } else {
            hc.setJdbcUrl(config.jdbcUrl().orElseThrow());
            config.user().ifPresent(hc::setUsername);
            config.password().ifPresent(hc::setPassword);
        }
        return hc;
    }

    private void migrate(DataSource ds) {
        try {
            Flyway.configure()
                    .dataSource(ds)
                    .locations("classpath:io/fencelab/engine/postgres/migration")
                    .table("fencelab_schema_history")
                    .baselineOnMigrate(true)
                    .load()
                    .migrate();
        } catch (FlywayException e) {
            throw new DatabaseException("could not prepare the Fencelab schema in " + describeLocation()
                    + ": " + scrub(e.getMessage()), e);
        }
    }

    private static String rootMessage(Throwable e) {
        Throwable t = e;
        while (t.getCause() != null && t.getCause() != t) {
            t = t.getCause();
        }
        return t.getMessage() == null ? t.getClass().getSimpleName() : t.getMessage();
    }

    private void closeQuietly() {
        try {
            close();
        } catch (RuntimeException e) {
            log.warn("error while closing the database after a failed start", e);
        }
    }

    @Override
    public synchronized void close() {
        if (pool != null) {
            pool.close();
        }
        if (embedded != null) {
            embedded.close();
            embedded = null;
        }
    }

}
