package io.fencelab.engine.db;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.ServerSocket;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.charset.StandardCharsets;
import java.nio.file.AccessDeniedException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.security.SecureRandom;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.ReentrantLock;
import java.util.stream.Stream;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One embedded PostgreSQL data directory and its server, shared by every Fencelab process that
 * opens the same directory.
 *
 * <p><b>Who can reach it.</b> The server admits only password (SCRAM) logins as {@code postgres},
 * with a random secret made when the directory is created and kept in {@code fencelab-secret}
 * (0600) inside the data directory (0700). It listens on 127.0.0.1 only and has no Unix socket.
 * A directory made by an older Fencelab (trust logins) is converted on first open, with the server
 * stopped, before anything listens.
 *
 * <p><b>Who keeps it running.</b> Each process that opens the directory holds an exclusive lock on a
 * file of its own under {@code fencelab-users/}. Opening reuses a server that is already running
 * (found through {@code postmaster.pid}: its process alive and a postgres), else starts one;
 * closing stops it when no other live user is left. The operating system drops a killed process's
 * lock, so a server left behind by a crash is recognised at once and reused, and its next last user
 * stops it. Opening and closing are serialised by {@code fencelab.lock}.
 */
final class EmbeddedServer {

    private static final Logger log = LoggerFactory.getLogger(EmbeddedServer.class);

    static final String SUPERUSER = "postgres";
    static final String SECRET_FILE = "fencelab-secret";
    static final String USERS_DIR = "fencelab-users";
    static final String CONTROL_LOCK = "fencelab.lock";
    static final String SERVER_LOG = "fencelab-server.log";
    private static final Duration CONTROL_WAIT = Duration.ofSeconds(60);
    private static final Duration START_WAIT = Duration.ofSeconds(60);

    /** Within one JVM the file lock cannot serialise (it is per process), so this does. */
    private static final Map<Path, ReentrantLock> IN_PROCESS = new ConcurrentHashMap<>();
    private static final AtomicInteger USER_NUMBERS = new AtomicInteger();

    private final Path dataDir;
    private final String secret;
    private final Path userFile;
    private final FileChannel userChannel;
    private final FileLock userLock;
    private final Thread shutdownHook;
    private volatile int port;
    private volatile boolean stopped;
    private boolean closed;

    private EmbeddedServer(Path dataDir, String secret, Path userFile, FileChannel userChannel, FileLock userLock) {
        this.dataDir = dataDir;
        this.secret = secret;
        this.userFile = userFile;
        this.userChannel = userChannel;
        this.userLock = userLock;
        this.shutdownHook = new Thread(this::close, "fencelab-embedded-postgres-close");
    }

    /** Opens {@code dataDirectory} (creating it if need be) and joins or starts its server. */
    static EmbeddedServer open(Path dataDirectory, int wantedPort) {
        Path dir = dataDirectory.toAbsolutePath().normalize();
        try {
            initialise(dir);
            EmbeddedServer server = withControl(dir, () -> join(dir, wantedPort));
            Runtime.getRuntime().addShutdownHook(server.shutdownHook);
            return server;
        } catch (IOException e) {
            throw new DatabaseException("could not open the embedded PostgreSQL in " + dir + ": "
                    + io.fencelab.engine.files.FileProblem.of(e), e);
        }
    }

    int port() {
        return port;
    }

    /** The {@code postgres} role's password; never print it. */
    String secret() {
        return secret;
    }

    Path dataDirectory() {
        return dataDir;
    }

    /** The pids of the other live processes using this server (for telling a restart it would hurt them). */
    List<Long> otherUsers() {
        try {
            return withControl(dataDir, () -> liveUsers(dataDir, userFile));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Stops the server whoever else uses it (the first half of a restart fault). */
    synchronized void stop() {
        if (!stopped) {
            pgCtlStop(dataDir);
            stopped = true;
        }
    }

    /** Starts it again on the same port (the second half of a restart fault). */
    synchronized void start() {
        if (stopped) {
            try {
                withControl(dataDir, () -> {
                    if (runningPort(dataDir).isEmpty()) {
                        startServer(dataDir, port);
                    }
                    return null;
                });
            } catch (IOException e) {
                throw new DatabaseException("could not start the embedded PostgreSQL in " + dataDir + ": "
                        + io.fencelab.engine.files.FileProblem.of(e), e);
            }
            stopped = false;
        }
    }

    /** Leaves the server: stops it if no other live process uses it. Safe to call twice. */
    synchronized void close() {
        if (closed) {
            return;
        }
        closed = true;
        try {
            Runtime.getRuntime().removeShutdownHook(shutdownHook);
        } catch (IllegalStateException alreadyShuttingDown) {
            // this is the hook running
        }
        try {
            withControl(dataDir, () -> {
                release();
                List<Long> others = liveUsers(dataDir, userFile);
                if (others.isEmpty() && runningPort(dataDir).isPresent()) {
                    pgCtlStop(dataDir);
                } else if (!others.isEmpty()) {
                    log.info("embedded PostgreSQL in {} left running for {} other Fencelab process(es)", dataDir,
                            others.size());
                }
                return null;
            });
        } catch (IOException | RuntimeException e) {
            log.warn("could not close the embedded PostgreSQL in {} cleanly: {}", dataDir, e.getMessage());
        }
    }

    private void release() {
        try {
            userLock.release();
            userChannel.close();
            Files.deleteIfExists(userFile);
        } catch (IOException e) {
            log.debug("could not remove {}", userFile, e);
        }
    }

    // --- creating the directory -------------------------------------------------------------

    /**
     * Makes a new data directory in a staging directory beside it and renames it into place, so two
     * processes creating it at once never share a half-made one (the loser uses the winner's).
     */
    private static void initialise(Path dir) throws IOException {
        if (Files.isRegularFile(dir.resolve("PG_VERSION"))) {
            return;
        }
        if (Files.isDirectory(dir)) {
            try (Stream<Path> entries = Files.list(dir)) {
                if (entries.findAny().isPresent()) {
                    throw new DatabaseException("the embedded PostgreSQL's data directory " + dir + " is neither empty "
                            + "nor a PostgreSQL data directory: give another one with --data-dir DIR");
                }
            }
        }
        Path parent = dir.getParent();
        PrivateFiles.createDirectories(parent);
        Path staging = Files.createTempDirectory(parent, "." + dir.getFileName() + ".initdb-");
        Path passwordFile = Files.createTempFile(parent, "." + dir.getFileName() + ".pw-", "",
                PrivateFiles.fileAttribute());
        try {
            String secret = newSecret();
            Files.writeString(passwordFile, secret + "\n");
            run(List.of(PostgresBinaries.bin("initdb").toString(), "-A", "scram-sha-256", "-U", SUPERUSER,
                    "--pwfile=" + passwordFile, "-E", "UTF-8", "-D", staging.toString()), "initdb");
            PrivateFiles.writeNew(staging.resolve(SECRET_FILE), secret);
            writeAccessRules(staging);
            PrivateFiles.moveIntoPlace(staging, dir, "PG_VERSION");
        } finally {
            Files.deleteIfExists(passwordFile);
            PrivateFiles.deleteTree(staging);
        }
    }

    /** Password logins over 127.0.0.1 only; there is no Unix socket to write a {@code local} line for. */
    private static void writeAccessRules(Path dir) throws IOException {
        Files.writeString(dir.resolve("pg_hba.conf"), """
                # Written by Fencelab: only password (SCRAM) logins, and only over 127.0.0.1. The Unix socket
                # is off (unix_socket_directories = ''), so no local line is needed. See docs/SECURITY.md.
                host    all             all             127.0.0.1/32            scram-sha-256
                host    replication     all             127.0.0.1/32            scram-sha-256
                """);
    }

    /**
     * A directory from before passwords (trust logins, no secret): the role gets a password in
     * single-user mode, with nothing listening, and the access rules are replaced.
     */
    private static String convertFromTrust(Path dir) throws IOException {
        log.info("giving the embedded PostgreSQL in {} a password (it was made by an older Fencelab)", dir);
        runningPort(dir).ifPresent(p -> pgCtlStop(dir));
        String secret = newSecret();
        Path pending = dir.resolve(SECRET_FILE + ".pending");
        Files.deleteIfExists(pending);
        PrivateFiles.writeNew(pending, secret);
        // A role's password cannot be a bind parameter; the secret is hex that we made, so it needs no quoting.
        String sql = "ALTER ROLE " + SUPERUSER + " PASSWORD '" + secret + "';\n";
        run(List.of(PostgresBinaries.bin("postgres").toString(), "--single", "-D", dir.toString(),
                "-c", "listen_addresses=", "-c", "unix_socket_directories=", "postgres"), "postgres --single", sql);
        writeAccessRules(dir);
        Files.move(pending, dir.resolve(SECRET_FILE), StandardCopyOption.ATOMIC_MOVE);
        return secret;
    }

    private static String newSecret() {
        byte[] bytes = new byte[24];
        new SecureRandom().nextBytes(bytes);
        return HexFormat.of().formatHex(bytes);
    }

    // --- joining, starting, stopping ----------------------------------------------------------

    private static EmbeddedServer join(Path dir, int wantedPort) throws IOException {
        Path secretFile = dir.resolve(SECRET_FILE);
        String secret = Files.isRegularFile(secretFile) ? Files.readString(secretFile).strip() : convertFromTrust(dir);
        Path users = dir.resolve(USERS_DIR);
        Files.createDirectories(users, PrivateFiles.dirAttribute());
        Path userFile = users.resolve(ProcessHandle.current().pid() + "-" + USER_NUMBERS.incrementAndGet());
        FileChannel channel = FileChannel.open(userFile, StandardOpenOption.CREATE, StandardOpenOption.WRITE);
        FileLock lock = channel.tryLock();
        if (lock == null) {
            channel.close();
            throw new IOException("could not lock " + userFile);
        }
        EmbeddedServer server = new EmbeddedServer(dir, secret, userFile, channel, lock);
        try {
            Optional<Integer> running = runningPort(dir);
            if (running.isPresent()) {
                log.info("joining the embedded PostgreSQL already running in {} on port {}", dir, running.get());
                server.port = running.get();
            } else {
                server.port = startServer(dir, wantedPort == 0 ? freePort() : wantedPort);
            }
            return server;
        } catch (IOException | RuntimeException e) {
            server.release();
            throw e;
        }
    }

    private static int startServer(Path dir, int port) throws IOException {
        Files.deleteIfExists(dir.resolve("postmaster.pid")); // only reached when its process is gone
        String options = String.join(" ",
                "-p", Integer.toString(port),
                "-c", "listen_addresses=127.0.0.1",
                "-c", "unix_socket_directories=''",
                "-c", "max_connections=300",
                "-c", "fsync=on", // the data directory is the user's history
                "-c", "synchronous_commit=off",
                "-c", "timezone=UTC");
        Path serverLog = dir.resolve(SERVER_LOG);
        try {
            run(List.of(PostgresBinaries.bin("pg_ctl").toString(), "-D", dir.toString(), "-l", serverLog.toString(),
                    "-o", options, "-w", "-t", Long.toString(START_WAIT.toSeconds()), "start"), "pg_ctl start");
        } catch (DatabaseException e) {
            throw new DatabaseException(e.getMessage() + lastLines(serverLog), e);
        }
        log.info("embedded PostgreSQL started in {} on port {}", dir, port);
        return port;
    }

    private static void pgCtlStop(Path dir) {
        try {
            run(List.of(PostgresBinaries.bin("pg_ctl").toString(), "-D", dir.toString(), "-m", "fast", "-w", "-t", "30",
                    "stop"), "pg_ctl stop");
            log.info("embedded PostgreSQL in {} stopped", dir);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /**
     * The port of the server running on {@code dir}, if one is: {@code postmaster.pid} names a live
     * process that is a postgres (a pid left by a crash may since belong to something else).
     */
    static Optional<Integer> runningPort(Path dir) throws IOException {
        Path pidFile = dir.resolve("postmaster.pid");
        List<String> lines;
        try {
            lines = Files.readAllLines(pidFile, StandardCharsets.UTF_8);
        } catch (NoSuchFileException e) {
            return Optional.empty();
        }
        if (lines.size() < 4) {
            return Optional.empty(); // being written by a postmaster that is starting: pg_ctl -w waits for that
        }
        long pid = Long.parseLong(lines.get(0).strip());
        Optional<ProcessHandle> process = ProcessHandle.of(pid).filter(ProcessHandle::isAlive);
        if (process.isEmpty() || !isPostgres(pid)) {
            return Optional.empty();
        }
        return Optional.of(Integer.parseInt(lines.get(3).strip()));
    }

    /** A running postgres: not some other program that has the pid now, and not a zombie waiting to be reaped. */
    private static boolean isPostgres(long pid) {
        Path stat = Path.of("/proc", Long.toString(pid), "stat");
        try {
            if (!Files.exists(stat)) {
                return true; // no /proc (not Linux): the pid was alive, let postgres itself judge its pid file
            }
            String line = Files.readString(stat);
            String name = line.substring(line.indexOf('(') + 1, line.lastIndexOf(')'));
            char state = line.charAt(line.lastIndexOf(')') + 2);
            return name.equals("postgres") && state != 'Z' && state != 'X';
        } catch (IOException | RuntimeException e) {
            return false; // gone while we looked
        }
    }

    /** Other processes still holding their user file's lock; files of dead ones are removed. */
    private static List<Long> liveUsers(Path dir, Path mine) throws IOException {
        List<Long> live = new ArrayList<>();
        List<Path> files;
        try (Stream<Path> s = Files.list(dir.resolve(USERS_DIR))) {
            files = s.filter(f -> !f.equals(mine)).toList();
        }
        for (Path f : files) {
            long pid = Long.parseLong(f.getFileName().toString().replaceFirst("-.*", ""));
            if (pid == ProcessHandle.current().pid()) {
                live.add(pid); // another Database of this JVM: its lock is ours too, so ask nothing
                continue;
            }
            try (FileChannel ch = FileChannel.open(f, StandardOpenOption.WRITE); FileLock probe = ch.tryLock()) {
                if (probe == null) {
                    live.add(pid);
                } else {
                    Files.deleteIfExists(f); // its process is gone (a kill -9 leaves the file, not the lock)
                }
            } catch (NoSuchFileException gone) {
                // removed meanwhile
            }
        }
        return live;
    }

    // --- the control lock -----------------------------------------------------------------------

    private interface Locked<T> {
        T run() throws IOException;
    }

    private static <T> T withControl(Path dir, Locked<T> action) throws IOException {
        ReentrantLock inProcess = IN_PROCESS.computeIfAbsent(dir, d -> new ReentrantLock());
        try {
            if (!inProcess.tryLock(CONTROL_WAIT.toSeconds(), TimeUnit.SECONDS)) {
                throw new DatabaseException("the embedded PostgreSQL in " + dir + " is still being started or stopped "
                        + "by this process after " + CONTROL_WAIT.toSeconds() + " s");
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new DatabaseException("interrupted while waiting for the embedded PostgreSQL in " + dir, e);
        }
        try (FileChannel control = openControl(dir)) {
            FileLock lock = waitForLock(dir, control);
            try {
                control.truncate(0);
                control.write(java.nio.ByteBuffer.wrap(Long.toString(ProcessHandle.current().pid())
                        .getBytes(StandardCharsets.US_ASCII)), 0);
                return action.run();
            } finally {
                lock.release();
            }
        } finally {
            inProcess.unlock();
        }
    }

    private static FileChannel openControl(Path dir) throws IOException {
        Path file = dir.resolve(CONTROL_LOCK);
        try {
            return FileChannel.open(file, java.util.Set.of(StandardOpenOption.CREATE, StandardOpenOption.READ,
                    StandardOpenOption.WRITE), PrivateFiles.fileAttribute());
        } catch (AccessDeniedException e) {
            throw new DatabaseException("the embedded PostgreSQL in " + dir + " belongs to another account ("
                    + owner(dir) + "): use a data directory of your own with --data-dir DIR, or a server with "
                    + "--jdbc-url URL", e);
        }
    }

    private static FileLock waitForLock(Path dir, FileChannel control) throws IOException {
        long deadline = System.nanoTime() + CONTROL_WAIT.toNanos();
        while (true) {
            FileLock lock = control.tryLock();
            if (lock != null) {
                return lock;
            }
            if (System.nanoTime() > deadline) {
                String holder = Files.readString(dir.resolve(CONTROL_LOCK)).strip();
                throw new DatabaseException("another Fencelab (pid " + (holder.isEmpty() ? "unknown" : holder)
                        + ") has been starting or stopping the embedded PostgreSQL in " + dir + " for "
                        + CONTROL_WAIT.toSeconds() + " s: wait for it, or use another data directory with --data-dir DIR, "
                        + "or a server with --jdbc-url URL");
            }
            try {
                Thread.sleep(50);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new DatabaseException("interrupted while waiting for the embedded PostgreSQL in " + dir, e);
            }
        }
    }

    private static String owner(Path dir) {
        try {
            return "owner " + Files.getOwner(dir).getName();
        } catch (IOException | UnsupportedOperationException e) {
            return "not this one";
        }
    }

    // --- processes ---------------------------------------------------------------------------------

    private static int freePort() throws IOException {
        try (ServerSocket socket = new ServerSocket(0, 1, java.net.InetAddress.getLoopbackAddress())) {
            return socket.getLocalPort();
        }
    }

    private static void run(List<String> command, String what) throws IOException {
        run(command, what, null);
    }

    /** Runs a PostgreSQL program (no shell) and fails with its last lines of output if it fails. */
    private static void run(List<String> command, String what, String input) throws IOException {
        ProcessBuilder pb = new ProcessBuilder(asNonRoot(command)).redirectErrorStream(true);
        Process p = pb.start();
        if (input != null) {
            try (var stdin = p.getOutputStream()) {
                stdin.write(input.getBytes(StandardCharsets.UTF_8));
            }
        } else {
            p.getOutputStream().close();
        }
        String output = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        try {
            if (!p.waitFor(2, TimeUnit.MINUTES)) {
                p.destroyForcibly();
                throw new DatabaseException(what + " did not finish in 2 minutes");
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new DatabaseException("interrupted while waiting for " + what, e);
        }
        if (p.exitValue() != 0) {
            throw new DatabaseException(what + " failed (exit " + p.exitValue() + ")" + tail(output));
        }
    }

    /**
     * PostgreSQL's programs refuse to run as root. As zonky does, root runs them in a user namespace
     * of their own ({@code unshare -U}), where they are not root; files they write stay root's.
     */
    private static List<String> asNonRoot(List<String> command) {
        if (!RUNS_AS_ROOT) {
            return command;
        }
        List<String> wrapped = new ArrayList<>(List.of("unshare", "-U"));
        wrapped.addAll(command);
        return wrapped;
    }

    private static final boolean RUNS_AS_ROOT = runsAsRoot();

    private static boolean runsAsRoot() {
        try {
            return Integer.valueOf(0).equals(Files.getAttribute(Path.of("/proc/self"), "unix:uid"));
        } catch (IOException | UnsupportedOperationException | IllegalArgumentException e) {
            return false; // not Linux: no root check to get around
        }
    }

    private static String lastLines(Path file) {
        try {
            return tail(Files.readString(file));
        } catch (IOException e) {
            return "";
        }
    }

    private static String tail(String output) {
        List<String> lines = output.lines().filter(l -> !l.isBlank()).toList();
        return lines.isEmpty() ? "" : ": " + String.join(" / ", lines.subList(Math.max(0, lines.size() - 3), lines.size()));
    }
}
