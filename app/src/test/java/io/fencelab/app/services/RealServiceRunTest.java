package io.fencelab.app.services;

import static org.assertj.core.api.Assertions.assertThat;

import io.fencelab.engine.check.Invariant;
import io.fencelab.engine.check.Verdict;
import io.fencelab.engine.db.Database;
import io.fencelab.engine.event.Event;
import io.fencelab.engine.event.EventLogReader;
import io.fencelab.engine.fence.FencingMode;
import io.fencelab.engine.lease.ServiceKind;
import io.fencelab.engine.run.Run;
import io.fencelab.engine.run.RunResult;
import io.fencelab.engine.run.RunSpec;
import io.fencelab.scenarios.ScenarioLoader;
import io.fencelab.testing.EmbeddedDatabase;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * The paused-holder story on a real etcd, ZooKeeper and Redis, each holder its own JVM with the
 * service's real client: SIGSTOP freezes the holder's keep-alive threads too, its lease runs out at
 * the service's own timeout, a newer holder takes over with a larger token from the service's own
 * order, and the stale holder's late write is refused when fenced and gets through when not.
 */
class RealServiceRunTest {

    /**
     * A takes the lease at once and is frozen at 2 s, before its write (due 2.5 s after its grant) and
     * before its client's first renewal (a third of the 9 s lifetime after the grant); it stays frozen
     * until 14 s. Its keep-alive froze with it, so its lease runs out about 9 s after the grant and B,
     * waiting since 1 s, takes over and writes. At 14 s A goes on where it stopped: with its write.
     */
    static RunSpec story(String lease) {
        return ScenarioLoader.load("real-service.yaml", """
                title: The paused holder on a real lease service
                summary: A is frozen while it holds the lease; B takes over; A wakes and writes.
                story: [A is frozen, B takes over, A's late write meets the fence.]
                duration: 18s
                executor: process
                lease: %s
                workers:
                  - {name: A, scope: report, workTime: 2500ms, jobs: 1, writes: [{key: report-1}]}
                  - {name: B, scope: report, startAt: 1s, workTime: 1s, idleTime: 1s, jobs: 1, writes: [{key: report-1}]}
                faults:
                  - {kind: PAUSE, target: A, at: 2s, duration: 12s}
                expect: {verdict: SAFE}
                """.formatted(lease)).spec();
    }

    static RunResult run(Database db, RunSpec spec, Path log) throws Exception {
        try (Run run = Run.prepare(db, spec, log)) {
            return run.runToEnd();
        }
    }

    @ParameterizedTest(name = "{0}, token {2}")
    @CsvSource(delimiter = '|', value = {
            "etcd      | {profile: etcd, ttl: 9s, service: etcd}                                  | create-revision",
            "zookeeper | {profile: zookeeper, sessionTimeout: 9s, service: zookeeper}            | czxid",
            "redis     | {profile: redisson, lockWatchdogTimeout: 9s, service: redis}            | incr-after-lock",
            "redis     | {profile: redisson, lockWatchdogTimeout: 9s, service: redis, token: lua} | lua"})
    void aFrozenHoldersLeaseRunsOutOnTheRealServiceAndOnlyTheFenceStopsItsLateWrite(String service, String lease,
                                                                                     String token, @TempDir Path dir)
            throws Exception {
        RunSpec fenced = story(lease);
        assertThat(fenced.service().kind()).isEqualTo(ServiceKind.named(service).orElseThrow());
        assertThat(fenced.service().token().key()).isEqualTo(token);
        try (Database db = EmbeddedDatabase.startThrowaway(16)) {
            RunResult safe = run(db, fenced, dir.resolve("fenced.jsonl"));
            RunResult broken = run(db, fenced.withFencing(FencingMode.UNFENCED), dir.resolve("unfenced.jsonl"));

            assertThat(safe.endReason()).isEqualTo("completed");
            assertThat(safe.verdict().kind()).as(safe.verdict().witnesses().toString()).isEqualTo(Verdict.Kind.SAFE);
            List<Event> events = EventLogReader.read(safe.eventLog());
            assertThat(events).filteredOn(e -> e instanceof Event.WriteRejectedStale w && w.holder().equals("A"))
                    .as("A's late write is refused").hasSize(1);
            assertTokensRisePerScope(events);
            assertThat(safe.database()).contains(service.equals("redis") ? "Redis" : service.equals("etcd")
                    ? "etcd" : "ZooKeeper");

            // A's lease ran out at the service's timeout after its client's last word, which came between
            // its grant and its freeze (a keep-alive every third of the timeout), and B took over then:
            // the service's own slack (etcd checks expiry every 0.5 s, ZooKeeper on its tick) and B's
            // retry on a loaded machine are within the second allowed beyond the timeout.
            long grantedAt = events.stream().filter(e -> e instanceof Event.LeaseAcquired a && a.holder().equals("A"))
                    .findFirst().orElseThrow().atMicros();
            long frozenAt = events.stream().filter(e -> e instanceof Event.PauseStarted p && p.holder().equals("A"))
                    .findFirst().orElseThrow().atMicros();
            long takenOver = events.stream().filter(e -> e instanceof Event.LeaseAcquired a && a.holder().equals("B"))
                    .findFirst().orElseThrow().atMicros();
            assertThat(takenOver / 1_000).as("B's grant (ms), A granted at %d ms and frozen at %d ms, timeout 9000 ms",
                    grantedAt / 1_000, frozenAt / 1_000).isBetween(grantedAt / 1_000 + 9_000 - 100,
                    frozenAt / 1_000 + 9_000 + 1_500);

            assertThat(broken.verdict().kind()).isEqualTo(Verdict.Kind.VIOLATED);
            assertThat(broken.verdict().witnesses()).extracting(w -> w.invariant())
                    .contains(Invariant.STALE_OVERWRITE);
            assertTokensRisePerScope(EventLogReader.read(broken.eventLog()));
        }
    }

    /** Each scope's grants, in log order, carry strictly rising tokens from the service's own order. */
    static void assertTokensRisePerScope(List<Event> events) {
        Map<String, Long> last = new HashMap<>();
        for (Event e : events) {
            if (e instanceof Event.LeaseAcquired a) {
                Long before = last.put(a.scope(), a.token());
                if (before != null) {
                    assertThat(a.token()).as("grant to %s after token %d", a.holder(), before).isGreaterThan(before);
                }
            }
        }
        assertThat(last).isNotEmpty();
    }
}
