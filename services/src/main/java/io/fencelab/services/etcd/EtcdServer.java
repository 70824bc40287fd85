package io.fencelab.services.etcd;

import io.fencelab.services.ServerProcess;
import io.fencelab.services.ProcessServer;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;

/**
 * A single-member etcd that Fencelab starts for a run from the machine's {@code /usr/bin/etcd}
 * (Debian's {@code etcd-server}, 3.4): in a new private directory (its data in {@code data/} there),
 * on two free ports of 127.0.0.1 (client and peer), with etcd's own defaults for every timing
 * (heartbeat 100 ms, election timeout 1 s, hence a shortest lease TTL of 2 s). It is ready once
 * {@code /health} answers true, that is once the member has elected itself and serves reads.
 *
 * <p>A member is a name and its two ports; a three-member ensemble would start three of them with one
 * {@code --initial-cluster} naming all, and list every client URL in {@link #endpoints()}.
 */
public final class EtcdServer extends ProcessServer {

    private static final Path ETCD = Path.of("/usr/bin/etcd");
    private static final Duration HEALTH_LIMIT = Duration.ofSeconds(30);

    /** One member of the cluster: its name and where it listens. */
    record Member(String name, int clientPort, int peerPort) {
        String clientUrl() {
            return "http://127.0.0.1:" + clientPort;
        }

        String peerUrl() {
            return "http://127.0.0.1:" + peerPort;
        }
    }

    private final Member member;

    private EtcdServer(Member member, ServerProcess process) {
        super(process);
        this.member = member;
    }

    /**
     * Starts one etcd member in a new directory and returns once it answers {@code /health}.
     *
     * @throws IllegalStateException if etcd is not installed (naming the apt command), exits, or does not become
     *                               healthy in time
     */
    public static EtcdServer start() {
        Path etcd = ServerProcess.binary(ETCD, "etcd", "etcd-server");
        Path dir = ServerProcess.newDirectory("etcd");
        Member m = new Member("fencelab0", ServerProcess.freePort(), ServerProcess.freePort());
        ServerProcess p = ServerProcess.start(dir, command(etcd, dir, m, List.of(m)), m.clientPort());
        EtcdServer server = new EtcdServer(m, p);
        try {
            server.awaitHealthy();
        } catch (RuntimeException e) {
            p.close();
            throw e;
        }
        return server;
    }

    /** The command line of {@code member} in a cluster of {@code all}, its data under {@code dir/data}. */
    static List<String> command(Path etcd, Path dir, Member member, List<Member> all) {
        String cluster = String.join(",", all.stream().map(m -> m.name() + "=" + m.peerUrl()).toList());
        return List.of(etcd.toString(),
                "--name", member.name(),
                "--data-dir", dir.resolve("data-" + member.name()).toString(),
                "--listen-client-urls", member.clientUrl(),
                "--advertise-client-urls", member.clientUrl(),
                "--listen-peer-urls", member.peerUrl(),
                "--initial-advertise-peer-urls", member.peerUrl(),
                "--initial-cluster", cluster,
                "--initial-cluster-state", "new", // ignored once the data directory exists (a restart)
                // 3.4's default logger (capnslog) is deprecated and says so at every start; zap logs the same events
                "--logger", "zap", "--log-outputs", "stderr");
    }

    /** Polls {@code /health} until it says true: the member has a leader and serves a linearizable read. */
    private void awaitHealthy() {
        HttpClient http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1)
                .connectTimeout(Duration.ofSeconds(1)).build();
        HttpRequest health = HttpRequest.newBuilder(URI.create(member.clientUrl() + "/health"))
                .timeout(Duration.ofSeconds(2)).build();
        long deadline = System.nanoTime() + HEALTH_LIMIT.toNanos();
        String last = "no answer";
        while (System.nanoTime() - deadline < 0) {
            try {
                HttpResponse<String> r = http.send(health, HttpResponse.BodyHandlers.ofString());
                if (r.statusCode() == 200 && r.body().contains("\"health\":\"true\"")) {
                    return;
                }
                last = "HTTP " + r.statusCode() + " " + r.body().strip();
            } catch (IOException e) {
                last = e.toString();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException("interrupted while etcd started", e);
            }
            try {
                Thread.sleep(100);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException("interrupted while etcd started", e);
            }
        }
        throw new IllegalStateException("etcd on " + member.clientUrl() + " was not healthy within "
                + HEALTH_LIMIT.toSeconds() + " s (" + last + "): " + process.logTail());
    }

    @Override
    public String endpoints() {
        return member.clientUrl();
    }

    /** Stops etcd and starts it again on the same ports and data directory; returns once it is healthy again. */
    @Override
    public void restart() {
        process.restart();
        awaitHealthy();
    }

    @Override
    public void startAgain() {
        process.start();
        awaitHealthy();
    }

    @Override
    public String toString() {
        return "etcd " + member.name() + " on " + member.clientUrl() + " (pid " + process.pid() + ")";
    }
}
