package io.fencelab.app.services;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.fencelab.engine.check.Verdict;
import io.fencelab.engine.db.Database;
import io.fencelab.engine.event.Event;
import io.fencelab.engine.event.EventLogReader;
import io.fencelab.engine.run.Run;
import io.fencelab.engine.run.RunResult;
import io.fencelab.engine.run.RunSpec;
import io.fencelab.scenarios.ScenarioException;
import io.fencelab.scenarios.ScenarioLoader;
import io.fencelab.testing.EmbeddedDatabase;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * SERVICE_PAUSE, SERVICE_RESTART and SERVICE_LEADER_STOP on the server Fencelab started for a run, and
 * their refusals elsewhere.
 */
class ServiceFaultRunTest {

    static String scenario(String lease, String faults) {
        return """
                title: Faults on the lease service
                summary: Two holders take turns while the service is frozen and then restarted.
                story: [They take turns.]
                duration: 12s
                executor: live
                lease: %s
                workers:
                  - {name: w, count: 2, scope: report, workTime: 600ms, idleTime: 300ms, writes: [{key: report-1}]}
                faults: %s
                expect: {verdict: SAFE}
                """.formatted(lease, faults);
    }

    /**
     * Redis frozen for 4 s (longer than the 3 s lock) and then down for 1 s: the holders' calls fail
     * while it is frozen or down, the lock taken before the freeze has expired by its end (Redis's clock
     * ran on), and after the restart the counter goes on from where it was: tokens still only rise.
     */
    @Test
    void aFrozenAndThenRestartedRedisEndsNoLeaseTwiceAndItsCounterGoesOn(@TempDir Path dir) throws Exception {
        RunSpec spec = ScenarioLoader.load("faults.yaml", scenario(
                "{profile: redisson, lockWatchdogTimeout: 3s, service: redis, token: lua}",
                "[{kind: SERVICE_PAUSE, target: service, at: 2s, duration: 4s},"
                        + " {kind: SERVICE_RESTART, target: service, at: 8s, duration: 1s}]")).spec();
        List<Event> events = completedSafe(spec, dir);
        assertThat(events).filteredOn(e -> e instanceof Event.FaultInjected f && f.appliesTo().equals("service"))
                .extracting(e -> ((Event.FaultInjected) e).fault()).containsExactly("SERVICE_PAUSE", "SERVICE_RESTART");
        assertThat(events).filteredOn(e -> e instanceof Event.FaultHealed f && f.appliesTo().equals("service"))
                .hasSize(2);
        assertThat(events).as("grants after the restart (9 s)")
                .anyMatch(e -> e instanceof Event.LeaseAcquired && e.atMicros() > 9_500_000);
        RealServiceRunTest.assertTokensRisePerScope(events);
    }

    /** Runs {@code spec} to its end, which must be a completed, safe run; its events. */
    private static List<Event> completedSafe(RunSpec spec, Path dir) throws Exception {
        try (Database db = EmbeddedDatabase.startThrowaway(16); Run run = Run.prepare(db, spec, dir.resolve("e.jsonl"))) {
            RunResult result = run.runToEnd();
            assertThat(result.endReason()).isEqualTo("completed");
            assertThat(result.verdict().kind()).as(result.verdict().witnesses().toString()).isEqualTo(Verdict.Kind.SAFE);
            return EventLogReader.read(result.eventLog());
        }
    }

    @Test
    void aFaultOnTheServiceIsRefusedOnPostgresLeasesAndOnTheUsersOwnServer(@TempDir Path dir) throws Exception {
        assertThatThrownBy(() -> ScenarioLoader.load("faults.yaml", scenario("{ttl: 3s}",
                "[{kind: SERVICE_PAUSE, target: service, at: 2s, duration: 1s}]")))
                .isInstanceOf(ScenarioException.class).hasMessageContaining("set lease.service to etcd, zookeeper or redis");
        assertThatThrownBy(() -> ScenarioLoader.load("faults.yaml", scenario("{profile: redisson, service: redis}",
                "[{kind: SERVICE_PAUSE, target: w-1, at: 2s, duration: 1s}]")))
                .isInstanceOf(ScenarioException.class)
                .hasMessageContaining("faults.yaml:9:").hasMessageContaining("'service' is the target of SERVICE_PAUSE");

        RunSpec onYours = ScenarioLoader.load("faults.yaml", scenario("{profile: redisson, service: redis}",
                "[{kind: SERVICE_RESTART, target: service, at: 2s, duration: 1s}]")).spec();
        RunSpec withAddress = onYours.withService(onYours.service().withEndpoints("redis://127.0.0.1:1"));
        try (Database db = EmbeddedDatabase.startThrowaway(4)) {
            assertThatThrownBy(() -> Run.prepare(db, withAddress, dir.resolve("e.jsonl")))
                    .isInstanceOf(IllegalArgumentException.class)
                    .hasMessageContaining("only a server Fencelab starts for the run, never your own redis");
        }
    }

    /**
     * The leader of a three-member ensemble stopped at 3 s for 4 s: the clients fail over to the other
     * two, grants go on after the election, tokens still only rise, and the old leader comes back.
     */
    @ParameterizedTest
    @ValueSource(strings = {"{profile: etcd, ttl: 5s, service: etcd, members: 3}",
            "{profile: zookeeper, sessionTimeout: 6s, service: zookeeper, members: 3}"})
    void aStoppedLeaderIsReplacedAndGrantsGoOn(String lease, @TempDir Path dir) throws Exception {
        RunSpec spec = ScenarioLoader.load("faults.yaml", scenario(lease,
                "[{kind: SERVICE_LEADER_STOP, target: service, at: 3s, duration: 4s}]")).spec();
        List<Event> events = completedSafe(spec, dir);
        Event.FaultInjected stop = events.stream().filter(e -> e instanceof Event.FaultInjected f
                && f.appliesTo().equals("service")).map(Event.FaultInjected.class::cast).findFirst().orElseThrow();
        assertThat(stop.fault()).isEqualTo("SERVICE_LEADER_STOP");
        assertThat(stop.detail()).as("names the member stopped").matches("stopped fencelab[123]");
        assertThat(events).filteredOn(e -> e instanceof Event.FaultHealed f && f.appliesTo().equals("service"))
                .hasSize(1);
        long nextGrant = events.stream().filter(e -> e instanceof Event.LeaseAcquired && e.atMicros() > stop.atMicros())
                .mapToLong(Event::atMicros).min().orElseThrow(() -> new AssertionError("no grant after the stop"));
        System.out.printf("%s: leader stop at %d ms, next grant %d ms later%n", spec.service().kind().key(),
                stop.atMicros() / 1000, (nextGrant - stop.atMicros()) / 1000);
        assertThat(events).as("grants after the old leader is back (7 s)")
                .anyMatch(e -> e instanceof Event.LeaseAcquired && e.atMicros() > 7_500_000);
        RealServiceRunTest.assertTokensRisePerScope(events);
    }

    @Test
    void anEnsembleIsRefusedOnRedisAndOnTheUsersOwnServerAndALeaderStopWithoutOne(@TempDir Path dir) throws Exception {
        assertThatThrownBy(() -> ScenarioLoader.load("faults.yaml", scenario("{profile: redisson, service: redis, members: 3}",
                "[]"))).isInstanceOf(ScenarioException.class)
                .hasMessageContaining("faults.yaml:6:").hasMessageContaining("3 members is for etcd and zookeeper, not redis");
        assertThatThrownBy(() -> ScenarioLoader.load("faults.yaml", scenario("{profile: etcd, service: etcd}",
                "[{kind: SERVICE_LEADER_STOP, target: service, at: 2s, duration: 1s}]")))
                .isInstanceOf(ScenarioException.class).hasMessageContaining("faults.yaml:9:")
                .hasMessageContaining("SERVICE_LEADER_STOP stops the leader of an ensemble");

        RunSpec ensemble = ScenarioLoader.load("faults.yaml", scenario("{profile: etcd, service: etcd, members: 3}",
                "[]")).spec();
        RunSpec leaderStop = ScenarioLoader.load("faults.yaml", scenario("{profile: etcd, service: etcd, members: 3}",
                "[{kind: SERVICE_LEADER_STOP, target: service, at: 2s, duration: 1s}]")).spec();
        try (Database db = EmbeddedDatabase.startThrowaway(4)) {
            assertThatThrownBy(() -> Run.prepare(db, ensemble.withService(ensemble.service()
                    .withEndpoints("http://127.0.0.1:1")), dir.resolve("e.jsonl")))
                    .isInstanceOf(IllegalArgumentException.class)
                    .hasMessageContaining("lease.members 3 is an ensemble Fencelab starts");
            assertThatThrownBy(() -> Run.prepare(db, leaderStop.withService(leaderStop.service()
                    .withEndpoints("http://127.0.0.1:1")), dir.resolve("e.jsonl")))
                    .isInstanceOf(IllegalArgumentException.class)
                    .hasMessageContaining("only a server Fencelab starts for the run, never your own etcd");
        }
    }
}
