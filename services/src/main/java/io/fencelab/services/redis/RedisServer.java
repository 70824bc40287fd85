package io.fencelab.services.redis;

import io.fencelab.services.ServerProcess;
import io.fencelab.services.ProcessServer;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/**
 * A {@code redis-server} (Debian package {@code redis-server}) that Fencelab starts for a run: on a
 * free port bound to 127.0.0.1 only, in its own temporary directory, from a configuration written
 * there.
 *
 * <p>Persistence is the append-only file with {@code appendfsync always}: every write (a lock, its
 * expiry as an absolute time, the token counter) is on disk before the server answers, so a
 * {@link #restart} keeps the counter and does not hand out a token twice. An RDB snapshot on
 * shutdown would keep the data too, but only after a clean stop; a killed server would lose the
 * writes since its last snapshot. {@code protected-mode yes} with no password: the server answers
 * only on the loopback interface.
 */
public final class RedisServer extends ProcessServer {

    /** The Debian package's server. */
    static final Path BINARY = Path.of("/usr/bin/redis-server");


    private RedisServer(ServerProcess process) {
        super(process);
    }

    /**
     * Starts a server and returns once it answers.
     *
     * @throws IllegalStateException if redis-server is not installed, or did not start (with the end of its log)
     */
    public static RedisServer start() {
        Path binary = ServerProcess.binary(BINARY, "redis-server", "redis-server");
        Path dir = ServerProcess.newDirectory("redis");
        int port = ServerProcess.freePort();
        Path conf = dir.resolve("redis.conf");
        try {
            Files.writeString(conf, config(dir, port));
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write " + conf + ": " + e.getMessage(), e);
        }
        return new RedisServer(ServerProcess.start(dir, List.of(binary.toString(), conf.toString()), port));
    }

    /** The configuration: loopback only, the log on standard output (the process's server.log), every write synced. */
    static String config(Path dir, int port) {
        return String.join("\n",
                "port " + port,
                "bind 127.0.0.1",
                "protected-mode yes",
                "daemonize no",
                "logfile \"\"",
                "dir " + dir,
                "save \"\"",
                "appendonly yes",
                "appendfsync always",
                "");
    }

    @Override
    public String endpoints() {
        return "redis://127.0.0.1:" + process.port();
    }

    @Override
    public String toString() {
        return process.toString();
    }
}
