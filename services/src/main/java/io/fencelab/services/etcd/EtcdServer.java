package io.fencelab.services.etcd;

import io.fencelab.services.Ensemble;
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
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.IntStream;

/**
 * A single-member etcd that Fencelab starts for a run from the machine's {@code /usr/bin/etcd}
 * (Debian's {@code etcd-server}, 3.4): in a new private directory (its data in {@code data/} there),
 * on two free ports of 127.0.0.1 (client and peer), with etcd's own defaults for every timing
 * (heartbeat 100 ms, election timeout 1 s, hence a shortest lease TTL of 2 s). It is ready once
 * {@code /health} answers true, that is once the member has elected itself and serves reads.
 *
 * <p>A member is a name and its two ports; {@link #ensemble} starts several with one
 * {@code --initial-cluster} naming all, and lists every client URL in its endpoints.
 */
public final class EtcdServer extends ProcessServer {

    private static final Path ETCD = Path.of("/usr/bin/etcd");
    private static final HttpClient HTTP = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1)
            .connectTimeout(Duration.ofSeconds(1)).build();
    private static final Pattern MEMBER_ID = Pattern.compile("\"member_id\":\"(\\d+)\"");
    private static final Pattern LEADER = Pattern.compile("\"leader\":\"(\\d+)\"");

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
        return serving(new EtcdServer(m, ServerProcess.start(dir, command(etcd, dir, m, List.of(m)), m.clientPort())));
    }

    /**
     * Starts an ensemble of {@code size} members ({@code fencelab1}, …), each in its own directory under a
     * new one, and returns once every member is healthy.
     *
     * @throws IllegalStateException as {@link #start()} does
     */
    public static Ensemble ensemble(int size) {
        Path etcd = ServerProcess.binary(ETCD, "etcd", "etcd-server");
        List<Member> all = IntStream.rangeClosed(1, size)
                .mapToObj(i -> new Member("fencelab" + i, ServerProcess.freePort(), ServerProcess.freePort())).toList();
        return Ensemble.start("etcd", ServerProcess.newDirectory("etcd"), all.stream().map(Member::name).toList(),
                (name, dir) -> {
                    Member m = all.stream().filter(x -> x.name().equals(name)).findFirst().orElseThrow();
                    return new Ensemble.Member(name, ServerProcess.start(dir, command(etcd, dir, m, all), m.clientPort()),
                            m.clientUrl());
                },
                m -> unhealthy(m.endpoint()) == null, m -> leads(m.endpoint()));
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

    /** Until {@code /health} says true: the member has a leader and serves a linearizable read. */
    @Override
    protected String notServing() {
        return unhealthy(member.clientUrl());
    }

    /** Null if the member at {@code clientUrl} says it is healthy, else what it answered. */
    static String unhealthy(String clientUrl) {
        try {
            HttpResponse<String> r = HTTP.send(HttpRequest.newBuilder(URI.create(clientUrl + "/health"))
                    .timeout(Duration.ofSeconds(2)).build(), HttpResponse.BodyHandlers.ofString());
            if (r.statusCode() == 200 && r.body().contains("\"health\":\"true\"")) {
                return null;
            }
            return "HTTP " + r.statusCode() + " " + r.body().strip();
        } catch (IOException e) {
            return e.toString();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while asking etcd at " + clientUrl, e);
        }
    }

    /**
     * Whether the member at {@code clientUrl} leads: its HTTP gateway's {@code /v3/maintenance/status}
     * names the leader's id, which is then the member's own ({@code header.member_id}).
     */
    static boolean leads(String clientUrl) {
        try {
            HttpResponse<String> r = HTTP.send(HttpRequest.newBuilder(URI.create(clientUrl + "/v3/maintenance/status"))
                    .timeout(Duration.ofSeconds(2)).POST(HttpRequest.BodyPublishers.ofString("{}")).build(),
                    HttpResponse.BodyHandlers.ofString());
            Matcher self = MEMBER_ID.matcher(r.body());
            Matcher leader = LEADER.matcher(r.body());
            return r.statusCode() == 200 && self.find() && leader.find() && self.group(1).equals(leader.group(1));
        } catch (IOException e) {
            return false;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while asking etcd at " + clientUrl, e);
        }
    }

    @Override
    public String endpoints() {
        return member.clientUrl();
    }

    @Override
    public String toString() {
        return "etcd " + member.name() + " on " + member.clientUrl() + " (pid " + process.pid() + ")";
    }
}
