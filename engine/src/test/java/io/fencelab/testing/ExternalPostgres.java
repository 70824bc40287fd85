package io.fencelab.testing;

import io.fencelab.engine.db.Database;
import io.fencelab.engine.db.DatabaseConfig;
import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.GroupPrincipal;
import java.nio.file.attribute.PosixFileAttributeView;
import java.nio.file.attribute.UserPrincipal;
import java.nio.file.attribute.UserPrincipalLookupService;
import java.nio.file.attribute.UserPrincipalNotFoundException;
import java.security.SecureRandom;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HexFormat;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

/**
 * A PostgreSQL 15 server of the machine's own binaries ({@value #BIN}, the {@code postgresql-15}
 * package), started for a test in a temporary directory: its own data directory, its own socket
 * directory, a free port on 127.0.0.1 and a superuser with a password, the way a user's own server
 * is reached. It stands in for "the user's server" beside the embedded one, which is another major
 * version built another way. Close it to stop the server and delete its directory.
 *
 * <p>PostgreSQL refuses to run as root, so when the test runs as root the server runs as the
 * {@code postgres} user ({@code runuser -u postgres --}) and its directory belongs to that user.
 * When the binaries are absent this fails, naming the package to install: a test that should prove
 * something on a second server must not pass by skipping.
 */
public final class ExternalPostgres implements AutoCloseable {

    /** Where Debian and Ubuntu's {@code postgresql-15} package puts the server's programs. */
    public static final String BIN = "/usr/lib/postgresql/15/bin";
    /** The superuser made by initdb. */
    public static final String SUPERUSER = "postgres";
    private static final long STEP_TIMEOUT_SECONDS = 120;

    private final Path dir;
    private final Path data;
    private final int port;
    private final String password;
    private final boolean asPostgresUser;
    private boolean stopped;

    private ExternalPostgres(Path dir, int port, String password, boolean asPostgresUser) {
        this.dir = dir;
        this.data = dir.resolve("data");
        this.port = port;
        this.password = password;
        this.asPostgresUser = asPostgresUser;
    }

    /**
     * Initialises and starts a new server; the caller closes it.
     *
     * @throws IllegalStateException when the binaries are missing (naming the package) or the server
     *                               does not start (with the end of its log)
     */
    public static ExternalPostgres start() {
        Path initdb = Path.of(BIN, "initdb");
        if (!Files.isExecutable(initdb) || !Files.isExecutable(Path.of(BIN, "pg_ctl"))) {
            throw new IllegalStateException(initdb + " is missing: install the postgresql-15 package "
                    + "(apt-get install postgresql-15; .ci/run does this when it runs as root)");
        }
        boolean root = "root".equals(System.getProperty("user.name"));
        ExternalPostgres server;
        try {
            Path dir = Files.createTempDirectory("fencelab-pg15-");
            Files.createDirectories(dir.resolve("sock"));
            if (root) {
                giveToPostgres(dir);
            }
            server = new ExternalPostgres(dir, freePort(), HexFormat.of().formatHex(new SecureRandom().generateSeed(12)),
                    root);
        } catch (IOException e) {
            throw new IllegalStateException("cannot prepare a directory for PostgreSQL 15: " + e.getMessage(), e);
        }
        try {
            server.initAndStart();
            return server;
        } catch (RuntimeException e) {
            server.close();
            throw e;
        }
    }

    private void initAndStart() {
        Path pwfile = dir.resolve("pwfile");
        try {
            Files.writeString(pwfile, password + "\n", StandardCharsets.UTF_8);
            if (asPostgresUser) {
                giveToPostgres(pwfile);
            }
        } catch (IOException e) {
            throw new IllegalStateException("cannot write the password file: " + e.getMessage(), e);
        }
        // Local socket connections are trusted (only the test's own directory has the socket); TCP
        // wants the password, as a user's server would.
        run("initdb", List.of(BIN + "/initdb", "-D", data.toString(), "-U", SUPERUSER, "--pwfile=" + pwfile,
                "--auth-local=trust", "--auth-host=scram-sha-256", "--encoding=UTF8", "--locale=C", "--no-sync"));
        // Durability is not what a test of statements needs; these make the server quick to use.
        String options = "-p " + port + " -k " + dir.resolve("sock") + " -c listen_addresses=127.0.0.1"
                + " -c fsync=off -c synchronous_commit=off -c full_page_writes=off -c max_connections=120";
        run("pg_ctl start", List.of(BIN + "/pg_ctl", "-D", data.toString(), "-l", dir.resolve("server.log").toString(),
                "-o", options, "-w", "-t", "60", "start"));
    }

    /** {@code jdbc:postgresql://127.0.0.1:PORT/postgres}, with no credentials in it. */
    public String jdbcUrl() {
        return "jdbc:postgresql://127.0.0.1:" + port + "/postgres";
    }

    public String user() {
        return SUPERUSER;
    }

    /** The superuser's password (random per server). */
    public String password() {
        return password;
    }

    public int port() {
        return port;
    }

    /** The server's temporary directory (data, socket, logs), deleted on close. */
    public Path directory() {
        return dir;
    }

    /** How Fencelab connects to it: an external server, as {@code --jdbc-url} with a user and password gives. */
    public DatabaseConfig config() {
        return DatabaseConfig.external(jdbcUrl(), SUPERUSER, password);
    }

    /** Opens Fencelab's {@link Database} on this server (which migrates Fencelab's own schema there); the caller closes it. */
    public Database open(int poolSize) {
        return Database.open(config(), poolSize);
    }

    /** Stops the server (fast shutdown) and deletes its directory. Safe to call twice. */
    @Override
    public synchronized void close() {
        if (stopped) {
            return;
        }
        stopped = true;
        try {
            if (Files.exists(data.resolve("postmaster.pid"))) {
                run("pg_ctl stop", List.of(BIN + "/pg_ctl", "-D", data.toString(), "-m", "fast", "-w", "-t", "60", "stop"));
            }
        } finally {
            deleteTree(dir);
        }
    }

    private void run(String what, List<String> command) {
        List<String> full = new ArrayList<>();
        if (asPostgresUser) {
            full.addAll(List.of("runuser", "-u", SUPERUSER, "--"));
        }
        full.addAll(command);
        Path output = dir.resolve(what.replace(' ', '-') + ".out");
        try {
            Process p = new ProcessBuilder(full).directory(dir.toFile()).redirectErrorStream(true)
                    .redirectOutput(output.toFile()).start();
            if (!p.waitFor(STEP_TIMEOUT_SECONDS, TimeUnit.SECONDS)) {
                p.destroyForcibly();
                throw new IllegalStateException("PostgreSQL 15: " + what + " did not finish in "
                        + STEP_TIMEOUT_SECONDS + " s" + tail(output));
            }
            if (p.exitValue() != 0) {
                throw new IllegalStateException("PostgreSQL 15: " + what + " failed with exit code " + p.exitValue()
                        + tail(output) + tail(dir.resolve("server.log")));
            }
        } catch (IOException e) {
            throw new IllegalStateException("PostgreSQL 15: cannot run " + what + ": " + e.getMessage(), e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("PostgreSQL 15: interrupted during " + what, e);
        }
    }

    private static String tail(Path file) {
        try {
            if (!Files.exists(file)) {
                return "";
            }
            List<String> lines = Files.readAllLines(file, StandardCharsets.UTF_8);
            return "\n--- " + file.getFileName() + " (end) ---\n"
                    + String.join("\n", lines.subList(Math.max(0, lines.size() - 15), lines.size()));
        } catch (IOException e) {
            return "";
        }
    }

    private static int freePort() throws IOException {
        try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            return socket.getLocalPort();
        }
    }

    /** Makes {@code path} (and everything under it) the {@code postgres} user's, which initdb requires of its directory. */
    private static void giveToPostgres(Path path) throws IOException {
        UserPrincipalLookupService lookup = path.getFileSystem().getUserPrincipalLookupService();
        UserPrincipal user;
        GroupPrincipal group;
        try {
            user = lookup.lookupPrincipalByName(SUPERUSER);
            group = lookup.lookupPrincipalByGroupName(SUPERUSER);
        } catch (UserPrincipalNotFoundException e) {
            throw new IOException("there is no postgres user to run the server as (the postgresql-15 package makes it)", e);
        }
        try (Stream<Path> all = Files.walk(path)) {
            for (Path p : all.toList()) {
                PosixFileAttributeView view = Files.getFileAttributeView(p, PosixFileAttributeView.class);
                view.setOwner(user);
                view.setGroup(group);
            }
        }
    }

    private static void deleteTree(Path root) {
        if (!Files.exists(root)) {
            return;
        }
        try (Stream<Path> all = Files.walk(root)) {
            for (Path p : all.sorted(Comparator.reverseOrder()).toList()) {
                Files.deleteIfExists(p);
            }
        } catch (IOException e) {
            // A directory left in the temp area is harmless; the server is already stopped.
        }
    }
}
