package io.fencelab.engine.fence;

import io.fencelab.engine.db.Database;
import io.fencelab.engine.db.DatabaseException;
import io.fencelab.engine.resource.ResourceState;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * The schema a run's user fences live in: {@code fencelab_<label>}, made for the run, filled from the
 * fences' DDL or copies of the user's objects, set up, and dropped when the run is over unless kept.
 * Fencelab writes nowhere else: every user statement runs with {@code search_path} set to this schema
 * alone (a statement that names another schema explicitly is the user's to answer for).
 *
 * <p>{@link #create} does all of it in one transaction, so a fence that fails a check leaves no
 * half-made schema behind: the rollback takes the schema with it.
 */
public final class ScratchSchema implements AutoCloseable {

    /** PostgreSQL's longest identifier, in bytes; our names are ASCII. */
    private static final int MAX_IDENTIFIER = 63;

    private final Database database;
    private final String name;
    private final boolean keep;
    private final Map<String, SqlTarget> targets;
    private final AtomicBoolean closed = new AtomicBoolean();

    private ScratchSchema(Database database, String name, boolean keep, Map<String, SqlTarget> targets) {
        this.database = database;
        this.name = name;
        this.keep = keep;
        this.targets = targets;
    }

    /**
     * Creates the schema and everything in it, and checks every statement (syntax with its located
     * error, parameters, the shape of the answer against the outcome rule) before any worker starts.
     *
     * @throws SqlFenceException with a located one-line message when a fence cannot be used
     * @throws DatabaseException when the database itself fails (not the user's SQL)
     */
    public static ScratchSchema create(Database database, String label, List<SqlFence> fences, boolean keep) {
        String name = nameFor(label);
        String quoted = quote(name);
        Map<String, List<NamedSql>> writes = new LinkedHashMap<>();
        Map<String, NamedSql> reads = new LinkedHashMap<>();
        for (SqlFence fence : fences) {
            if (fence.write().isEmpty()) {
                throw new SqlFenceException(fence.read().file() + ": target " + fence.name() + ": no write statement");
            }
            List<NamedSql> parsed = fence.write().stream().map(w -> NamedSql.parse(w, fence.name(), "write")).toList();
            NamedSql read = NamedSql.parse(fence.read(), fence.name(), "read");
            SqlChecks.checkParameters(fence, parsed, read);
            writes.put(fence.name(), parsed);
            reads.put(fence.name(), read);
        }
        try (Connection c = database.dataSource().getConnection()) {
            List<CopiedObjects> copies = new ArrayList<>();
            for (SqlFence fence : fences) {
                copies.add(CopiedObjects.find(c, fence)); // before the transaction: a bad name fails alone
            }
            c.setAutoCommit(false);
            try {
                build(c, name, quoted, fences, copies, writes, reads);
                c.commit();
            } catch (SQLException | RuntimeException e) {
                rollbackQuietly(c);
                throw e;
            } finally {
                c.setAutoCommit(true);
            }
        } catch (SQLException e) {
            throw DatabaseException.from(e);
        }
        Map<String, SqlTarget> targets = new LinkedHashMap<>();
        for (SqlFence fence : fences) {
            targets.put(fence.name(), new SqlTarget(fence, name, quoted, database, writes.get(fence.name()),
                    reads.get(fence.name())));
        }
        return new ScratchSchema(database, name, keep, targets);
    }

    /**
     * The scratch schema another process of the run created ({@link #create}): an agent of a process run
     * writes through it and never drops it (its run does, once every agent is gone).
     */
    public static ScratchSchema attach(Database database, String label, List<SqlFence> fences) {
        String name = nameFor(label);
        Map<String, SqlTarget> targets = new LinkedHashMap<>();
        for (SqlFence fence : fences) {
            List<NamedSql> parsed = fence.write().stream().map(w -> NamedSql.parse(w, fence.name(), "write")).toList();
            targets.put(fence.name(), new SqlTarget(fence, name, quote(name), database, parsed,
                    NamedSql.parse(fence.read(), fence.name(), "read")));
        }
        return new ScratchSchema(database, name, true, targets);
    }

    private static void build(Connection c, String name, String quoted, List<SqlFence> fences,
                              List<CopiedObjects> copies, Map<String, List<NamedSql>> writes,
                              Map<String, NamedSql> reads) throws SQLException {
        try (Statement st = c.createStatement()) {
            try {
                st.execute("CREATE SCHEMA " + quoted);
            } catch (SQLException e) {
                throw refused(e, name);
            }
            st.execute("SET LOCAL search_path TO " + quoted);
        }
        Map<String, Long> before = SqlChecks.changesOutside(c, name);
        for (int i = 0; i < fences.size(); i++) {
            SqlFence fence = fences.get(i);
            if (fence.schema() != null) {
                SqlChecks.runScript(c, fence.schema(), fence.name(), "schema");
                keptInside(c, name, before, fence, fence.schema(), "schema");
            }
            copies.get(i).create(c, quoted);
            if (fence.setup() != null) {
                SqlChecks.runScript(c, fence.setup(), fence.name(), "setup");
                keptInside(c, name, before, fence, fence.setup(), "setup");
            }
        }
        try (Statement st = c.createStatement()) {
            st.execute(SqlTarget.WRITE_ORDER_TABLE.formatted(quoted));
        }
        // Every fence's objects exist before any statement is checked: one fence may read another's table.
        for (SqlFence fence : fences) {
            SqlChecks.checkStatements(c, fence, writes.get(fence.name()), reads.get(fence.name()));
        }
    }

    /** A script that named another schema ({@code CREATE TABLE public.t}, {@code INSERT INTO public.t}) is refused. */
    private static void keptInside(Connection c, String name, Map<String, Long> before, SqlFence fence,
                                   SqlText script, String role) throws SQLException {
        List<String> outside = SqlChecks.changedSince(c, name, before);
        if (!outside.isEmpty()) {
            throw new SqlFenceException(script.where() + ": target " + fence.name() + ": " + role + " changes "
                    + String.join(", ", outside) + ", outside the scratch schema; Fencelab writes nowhere else, "
                    + "so name objects without a schema (they are made in " + name + ")");
        }
    }

    /** Why the scratch schema could not be made, in one line; the connection's own failures stay database errors. */
    private static RuntimeException refused(SQLException e, String name) throws SQLException {
        String state = e.getSQLState() == null ? "" : e.getSQLState();
        return switch (state) {
            case "42501" -> new SqlFenceException("permission denied: CREATE SCHEMA " + name + " was refused ("
                    + SqlChecks.serverMessage(e) + "); Fencelab works only in a schema of its own, so its role needs "
                    + "CREATE on the database (GRANT CREATE ON DATABASE ... TO the role)");
            case "42P06" -> new SqlFenceException("schema " + name + " already exists (kept from an earlier run?): "
                    + "drop it (DROP SCHEMA " + name + " CASCADE) or run under another label");
            default -> {
                if (SqlChecks.isConnectionLoss(e)) {
                    throw e;
                }
                yield new SqlFenceException("could not create schema " + name + ": " + SqlChecks.serverMessage(e));
            }
        };
    }

    /** {@code fencelab_<label>}, the label reduced to {@code [a-z0-9_]} and the whole to PostgreSQL's 63 characters. */
    public static String nameFor(String label) {
        String reduced = (label == null ? "" : label).toLowerCase(Locale.ROOT).replaceAll("[^a-z0-9_]", "_");
        String name = "fencelab_" + reduced;
        return name.length() > MAX_IDENTIFIER ? name.substring(0, MAX_IDENTIFIER) : name;
    }

    /** Quoted anyway, though only our own characters are in it. */
    private static String quote(String identifier) {
        return "\"" + identifier.replace("\"", "\"\"") + "\"";
    }

    private static void rollbackQuietly(Connection c) {
        try {
            c.rollback();
        } catch (SQLException ignored) {
            // the connection is gone; the server rolls the transaction back itself
        }
    }

    /** {@code fencelab_<label>}. */
    public String name() {
        return name;
    }

    /** Whether {@link #close()} leaves the schema in place. */
    public boolean kept() {
        return keep;
    }

    /** The target for the fence named {@code name}. */
    public SqlTarget target(String name) {
        SqlTarget target = targets.get(name);
        if (target == null) {
            throw new IllegalArgumentException("no SQL target " + name + " in " + this.name + "; there are "
                    + String.join(", ", targets.keySet()));
        }
        return target;
    }

    /** Every target, in the order the fences were given. */
    public List<SqlTarget> targets() {
        return List.copyOf(targets.values());
    }

    /** Every target's final state, ordered by fence, scope and key. */
    public List<ResourceState> finalState() {
        List<ResourceState> states = new ArrayList<>();
        for (SqlTarget target : targets.values()) {
            states.addAll(target.finalState());
        }
        states.sort(Comparator.comparing((ResourceState s) -> io.fencelab.engine.resource.SqlKey.fence(s.key()))
                .thenComparing(ResourceState::scope)
                .thenComparing(s -> io.fencelab.engine.resource.SqlKey.key(s.key())));
        return List.copyOf(states);
    }

    /** Drops the schema (unless kept). Safe to call twice. */
    @Override
    public void close() {
        if (keep || !closed.compareAndSet(false, true)) {
            return;
        }
        try (Connection c = database.dataSource().getConnection(); Statement st = c.createStatement()) {
            st.execute("DROP SCHEMA IF EXISTS " + quote(name) + " CASCADE");
        } catch (SQLException e) {
            closed.set(false); // not dropped: a second close may try again
            throw DatabaseException.from(e);
        }
    }
}
