package io.fencelab.services.zookeeper;

import io.fencelab.services.ServerProcess;
import io.fencelab.services.ProcessServer;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/**
 * A standalone ZooKeeper server from the machine's Debian {@code zookeeper} package (3.8), run as its own
 * JVM ({@code ZooKeeperServerMain}) in a new private directory with a generated {@code zoo.cfg}: the
 * client port a free one on 127.0.0.1, the admin server off, the data directory under the server's
 * directory (so a restart keeps every node, session and zxid).
 *
 * <p>The tick is {@link #TICK} (100 ms) and the session limits are set explicitly, 200 ms to 10 min: by
 * default ZooKeeper bounds a session to 2 to 20 ticks, which with the usual 2 s tick would refuse the
 * one-second sessions Fencelab's scenarios use. The server expires sessions on tick boundaries, so a
 * session ends between its timeout and one tick after it.
 *
 * <p>A three-member ensemble would be three of these processes with {@code server.N} lines and a
 * {@code myid} each ({@link #config} is where they would go); only the standalone server is built.
 */
public final class ZooKeeperServer extends ProcessServer {

    /** The server's tick: the grain of session expiry. */
    public static final Duration TICK = Duration.ofMillis(100);
    static final Duration MIN_SESSION = Duration.ofMillis(200);
    static final Duration MAX_SESSION = Duration.ofMinutes(10);

    private static final Path SCRIPT = Path.of("/usr/share/zookeeper/bin/zkServer.sh");
    private static final Path JAR = Path.of("/usr/share/java/zookeeper.jar");
    /** A logger binding, so that the server's log says something; optional. */
    private static final Path SLF4J_SIMPLE = Path.of("/usr/share/java/slf4j-simple.jar");
    private static final Path PREFERRED_JAVA = Path.of("/usr/lib/jvm/temurin-25-jdk-amd64/bin/java");


    private ZooKeeperServer(ServerProcess process) {
        super(process);
    }

    /**
     * Starts a server and returns once its client port answers.
     *
     * @throws IllegalStateException if the package is not installed (one line naming the apt command) or the server does not start
     */
    public static ZooKeeperServer start() {
        return start(Duration.ofSeconds(60));
    }

    /**
     * Starts a server whose container nodes (Curator's default parents) are reaped every
     * {@code containerCheck} once empty; ZooKeeper's own default is 60 s.
     */
    public static ZooKeeperServer start(Duration containerCheck) {
        ServerProcess.binary(SCRIPT, "ZooKeeper", "zookeeper");
        if (!Files.isRegularFile(JAR)) {
            throw new IllegalStateException("ZooKeeper is not installed (no " + JAR + "): sudo apt-get install zookeeper");
        }
        Path dir = ServerProcess.newDirectory("zookeeper");
        int port = ServerProcess.freePort();
        try {
            Files.writeString(dir.resolve("zoo.cfg"), config(dir.resolve("data"), port));
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write zoo.cfg in " + dir + ": " + e.getMessage(), e);
        }
        return new ZooKeeperServer(ServerProcess.start(dir, command(dir, containerCheck), port));
    }

    /** The configuration of one standalone member. */
    static String config(Path dataDir, int port) {
        return String.join("\n",
                "tickTime=" + TICK.toMillis(),
                "minSessionTimeout=" + MIN_SESSION.toMillis(),
                "maxSessionTimeout=" + MAX_SESSION.toMillis(),
                // for an ensemble later: 10 s to join, 5 s to stay in sync, in ticks
                "initLimit=100",
                "syncLimit=50",
                "dataDir=" + dataDir,
                "clientPort=" + port,
                "clientPortAddress=127.0.0.1",
                "admin.enableServer=false",
                // srvr: describe() reads the server's version with it
                "4lw.commands.whitelist=srvr,ruok",
                "");
    }

    private static List<String> command(Path dir, Duration containerCheck) {
        String classPath = JAR + (Files.isRegularFile(SLF4J_SIMPLE) ? ":" + SLF4J_SIMPLE : "");
        List<String> command = new ArrayList<>(List.of(java().toString(), "-Xms32m", "-Xmx256m", "-XX:+UseSerialGC",
                "-Dzookeeper.jmx.log4j.disable=true", "-Dznode.container.checkIntervalMs=" + containerCheck.toMillis(),
                "-cp", classPath, "org.apache.zookeeper.server.ZooKeeperServerMain", dir.resolve("zoo.cfg").toString()));
        return command;
    }

    /** Temurin 25 where the machine has it, else the JVM running Fencelab (21 or later; ZooKeeper needs 11). */
    private static Path java() {
        return Files.isExecutable(PREFERRED_JAVA) ? PREFERRED_JAVA
                : Path.of(System.getProperty("java.home"), "bin", "java");
    }

    @Override
    public String endpoints() {
        return "127.0.0.1:" + process.port();
    }

    @Override
    public String toString() {
        return "ZooKeeper " + process;
    }
}
