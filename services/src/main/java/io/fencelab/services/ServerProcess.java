package io.fencelab.services;

import io.fencelab.engine.agent.ProcessSignals;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import java.util.stream.Stream;

/**
 * One server process a {@link ServiceServer} runs: started from a fixed command in its own directory,
 * its output in {@code server.log} there, ready once its client port accepts a connection; frozen and
 * thawed with signals, stopped with SIGTERM (SIGKILL after a grace period). The three servers differ
 * only in their command and configuration.
 */
public final class ServerProcess implements AutoCloseable {

    /** How long a server may take to accept its first connection. */
    static final Duration READY_LIMIT = Duration.ofSeconds(30);
    private static final Duration STOP_GRACE = Duration.ofSeconds(5);

    private final Path dir;
    private final List<String> command;
    private final int port;
    private Process process;

    private ServerProcess(Path dir, List<String> command, int port) {
        this.dir = dir;
        this.command = List.copyOf(command);
        this.port = port;
    }

    /**
     * Starts {@code command} in {@code dir} and waits until {@code port} on 127.0.0.1 accepts.
     *
     * @throws IllegalStateException if it exits or does not answer in time, with the end of its log
     */
    public static ServerProcess start(Path dir, List<String> command, int port) {
        ServerProcess p = new ServerProcess(dir, command, port);
        p.launch();
        return p;
    }

    /**
     * The executable {@code path} of the machine's package {@code aptPackage}, or a one-line error naming the apt command that
     * installs it.
     *
     * @throws IllegalStateException if no such executable is there
     */
    public static Path binary(Path path, String what, String aptPackage) {
        if (!Files.isExecutable(path)) {
            throw new IllegalStateException(what + " is not installed (no " + path + "): sudo apt-get install "
                    + aptPackage);
        }
        return path;
    }

    /** A TCP port on 127.0.0.1 that nothing listens on now. */
    public static int freePort() {
        try (ServerSocket s = new ServerSocket(0, 1, java.net.InetAddress.getLoopbackAddress())) {
            return s.getLocalPort();
        } catch (IOException e) {
            throw new UncheckedIOException("no free port on 127.0.0.1: " + e.getMessage(), e);
        }
    }

    /** A new private directory for one server: {@code fencelab-<kind>-…} under the temporary directory. */
    public static Path newDirectory(String kind) {
        try {
            return Files.createTempDirectory("fencelab-" + kind + "-");
        } catch (IOException e) {
            throw new UncheckedIOException("cannot make a directory for " + kind + ": " + e.getMessage(), e);
        }
    }

    private synchronized void launch() {
        try {
            process = new ProcessBuilder(command).directory(dir.toFile()).redirectErrorStream(true)
                    .redirectOutput(ProcessBuilder.Redirect.appendTo(dir.resolve("server.log").toFile())).start();
        } catch (IOException e) {
            throw new UncheckedIOException("cannot start " + command.getFirst() + ": " + e.getMessage(), e);
        }
        long deadline = System.nanoTime() + READY_LIMIT.toNanos();
        while (!accepts()) {
            if (!process.isAlive()) {
                throw new IllegalStateException(command.getFirst() + " exited with code " + process.exitValue()
                        + " before it answered on port " + port + ": " + logTail());
            }
            if (System.nanoTime() - deadline > 0) {
                stop();
                throw new IllegalStateException(command.getFirst() + " did not answer on port " + port + " within "
                        + READY_LIMIT.toSeconds() + " s: " + logTail());
            }
            sleep(50);
        }
    }

    private boolean accepts() {
        try (Socket s = new Socket()) {
            s.connect(new InetSocketAddress(java.net.InetAddress.getLoopbackAddress(), port), 200);
            return true;
        } catch (IOException e) {
            return false;
        }
    }

    /** The last lines of the server's log, for an error. */
    public String logTail() {
        try (Stream<String> lines = Files.lines(dir.resolve("server.log"))) {
            List<String> all = lines.toList();
            return String.join(" | ", all.subList(Math.max(0, all.size() - 5), all.size()));
        } catch (IOException | UncheckedIOException e) {
            return "(no log)";
        }
    }

    public Path directory() {
        return dir;
    }

    public int port() {
        return port;
    }

    public synchronized long pid() {
        return process.pid();
    }

    public synchronized void pause() {
        ProcessSignals.freeze(process.pid(), Duration.ofSeconds(2));
    }

    public synchronized void resume() {
        ProcessSignals.thaw(process.pid());
    }

    /** Stops the process (a frozen one is thawed first, so that it can take SIGTERM) and starts it again. */
    public synchronized void restart() {
        stop();
        launch();
    }

    /** Starts the stopped process again with the same command, directory and port. */
    public synchronized void start() {
        Process p = process;
        if (p == null || !p.isAlive()) {
            launch();
        }
    }

    /** Stops the process (SIGTERM, then SIGKILL after a grace period); its directory stays. */
    public synchronized void stop() {
        Process p = process;
        if (p == null || !p.isAlive()) {
            return;
        }
        ProcessSignals.thaw(p.pid());
        p.destroy();
        try {
            if (!p.waitFor(STOP_GRACE.toMillis(), java.util.concurrent.TimeUnit.MILLISECONDS)) {
                p.destroyForcibly().waitFor();
            }
        } catch (InterruptedException e) {
            p.destroyForcibly();
            Thread.currentThread().interrupt();
        }
    }

    /** Stops the server and removes its directory. */
    @Override
    public synchronized void close() {
        stop();
        try (Stream<Path> files = Files.walk(dir)) {
            files.sorted(Comparator.reverseOrder()).forEach(f -> f.toFile().delete());
        } catch (IOException e) {
            // a leftover temporary directory is harmless
        }
    }

    private static void sleep(long ms) {
        try {
            Thread.sleep(ms);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while a server started", e);
        }
    }

    /** For a message: the server's kind and where it listens. */
    @Override
    public String toString() {
        return command.getFirst() + " on 127.0.0.1:" + port + Optional.ofNullable(process).map(p -> " (pid " + p.pid() + ")")
                .orElse("");
    }
}
