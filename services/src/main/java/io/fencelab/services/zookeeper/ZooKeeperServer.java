package io.fencelab.services.zookeeper;

import io.fencelab.services.ServerProcess;
import io.fencelab.services.ProcessServer;
import io.fencelab.services.Ensemble;
import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.IntStream;

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
 * <p>{@link #ensemble} starts several such processes ({@code QuorumPeerMain}), each with the same
 * {@code server.N} lines and its own {@code myid}.
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
        requireInstalled();
        Path dir = ServerProcess.newDirectory("zookeeper");
        int port = ServerProcess.freePort();
        write(dir.resolve("zoo.cfg"), config(dir.resolve("data"), port));
        return serving(new ZooKeeperServer(ServerProcess.start(dir, command(dir, STANDALONE, containerCheck), port)));
    }

    /**
     * Until {@code srvr} answers with a mode: the client port opens before the server has loaded its data and
     * serves, and a client connecting in between waited past its limit (seen in CI).
     */
    @Override
    protected String notServing() {
        return mode(endpoints()).isPresent() ? null : "srvr names no mode yet";
    }

    /**
     * Starts an ensemble of {@code size} members ({@code fencelab1}, …, {@code myid} 1, …) on 127.0.0.1,
     * each with a client, a peer and an election port, and returns once every member is a leader or a
     * follower (its {@code srvr} says so).
     *
     * @throws IllegalStateException as {@link #start()} does
     */
    public static Ensemble ensemble(int size) {
        requireInstalled();
        List<int[]> ports = IntStream.rangeClosed(1, size).mapToObj(i -> new int[] {ServerProcess.freePort(),
                ServerProcess.freePort(), ServerProcess.freePort()}).toList();
        StringBuilder servers = new StringBuilder();
        for (int i = 1; i <= size; i++) {
            int[] p = ports.get(i - 1);
            servers.append("server.").append(i).append("=127.0.0.1:").append(p[1]).append(':').append(p[2]).append('\n');
        }
        return Ensemble.start("ZooKeeper", ServerProcess.newDirectory("zookeeper"),
                IntStream.rangeClosed(1, size).mapToObj(i -> "fencelab" + i).toList(), (name, dir) -> {
                    int id = Integer.parseInt(name.substring("fencelab".length()));
                    int clientPort = ports.get(id - 1)[0];
                    write(dir.resolve("zoo.cfg"), config(dir.resolve("data"), clientPort) + servers);
                    write(dir.resolve("data").resolve("myid"), id + "\n");
                    return new Ensemble.Member(name, ServerProcess.start(dir, command(dir, QUORUM, Duration.ofSeconds(60)),
                            clientPort), "127.0.0.1:" + clientPort);
                },
                m -> mode(m.endpoint()).filter(x -> x.equals("leader") || x.equals("follower")).isPresent(),
                m -> mode(m.endpoint()).filter("leader"::equals).isPresent());
    }

    /** The {@code Mode:} a member's {@code srvr} answers (leader, follower, standalone), if it serves. */
    static Optional<String> mode(String hostPort) {
        try {
            Matcher m = Pattern.compile("Mode: (\\w+)").matcher(srvr(hostPort));
            return m.find() ? Optional.of(m.group(1)) : Optional.empty();
        } catch (IOException e) {
            return Optional.empty();
        }
    }

    /** What the server at {@code hostPort} answers to the {@code srvr} four-letter word (1 s limits). */
    static String srvr(String hostPort) throws IOException {
        int colon = hostPort.lastIndexOf(':');
        try (Socket s = new Socket()) {
            s.connect(new InetSocketAddress(hostPort.substring(0, colon), Integer.parseInt(hostPort.substring(colon + 1))),
                    1000);
            s.setSoTimeout(1000);
            OutputStream out = s.getOutputStream();
            out.write("srvr".getBytes(StandardCharsets.US_ASCII));
            out.flush();
            return new String(s.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        }
    }

    private static void requireInstalled() {
        ServerProcess.binary(SCRIPT, "ZooKeeper", "zookeeper");
        if (!Files.isRegularFile(JAR)) {
            throw new IllegalStateException("ZooKeeper is not installed (no " + JAR + "): sudo apt-get install zookeeper");
        }
    }

    private static void write(Path file, String text) {
        try {
            Files.createDirectories(file.getParent());
            Files.writeString(file, text);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write " + file + ": " + e.getMessage(), e);
        }
    }

    /** The configuration of one member; an ensemble's adds its {@code server.N} lines. */
    static String config(Path dataDir, int port) {
        return String.join("\n",
                "tickTime=" + TICK.toMillis(),
                "minSessionTimeout=" + MIN_SESSION.toMillis(),
                "maxSessionTimeout=" + MAX_SESSION.toMillis(),
                // an ensemble's: 10 s to join, 5 s to stay in sync, in ticks
                "initLimit=100",
                "syncLimit=50",
                "dataDir=" + dataDir,
                "clientPort=" + port,
                "clientPortAddress=127.0.0.1",
                "admin.enableServer=false",
                // srvr: describe() reads the server's version with it, an ensemble its members' modes
                "4lw.commands.whitelist=srvr,ruok",
                "");
    }

    private static final String STANDALONE = "org.apache.zookeeper.server.ZooKeeperServerMain";
    private static final String QUORUM = "org.apache.zookeeper.server.quorum.QuorumPeerMain";

    private static List<String> command(Path dir, String main, Duration containerCheck) {
        String classPath = JAR + (Files.isRegularFile(SLF4J_SIMPLE) ? ":" + SLF4J_SIMPLE : "");
        List<String> command = new ArrayList<>(List.of(java().toString(), "-Xms32m", "-Xmx256m", "-XX:+UseSerialGC",
                "-Dzookeeper.jmx.log4j.disable=true", "-Dznode.container.checkIntervalMs=" + containerCheck.toMillis(),
                "-cp", classPath, main, dir.resolve("zoo.cfg").toString()));
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
