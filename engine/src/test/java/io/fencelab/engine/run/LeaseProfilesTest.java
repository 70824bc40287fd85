package io.fencelab.engine.run;

import static org.assertj.core.api.Assertions.assertThat;

import io.fencelab.engine.chaos.Distribution;
import io.fencelab.engine.chaos.FaultKind;
import io.fencelab.engine.chaos.FaultSpec;
import io.fencelab.engine.chaos.FaultStart;
import io.fencelab.engine.db.Database;
import io.fencelab.engine.event.Event;
import io.fencelab.engine.fence.FencingMode;
import io.fencelab.engine.fence.FirstWritePolicy;
import io.fencelab.engine.fence.TokenScheme;
import io.fencelab.engine.lease.LeaseProfile;
import io.fencelab.engine.resource.TargetKind;
import io.fencelab.engine.worker.StalePolicy;
import io.fencelab.engine.worker.TargetWrite;
import io.fencelab.engine.worker.WorkerRole;
import io.fencelab.engine.worker.WorkerSpec;
import io.fencelab.testing.EmbeddedDatabase;
import io.fencelab.testing.RecordingSink;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Each lease profile's behaviour as a sequence of events, on the simulated executor against the real
 * database: a profile changes when the holder renews, gives up and retries, never the fence.
 */
@ExtendWith(EmbeddedDatabase.class)
class LeaseProfilesTest {

    static final String SCOPE = "lead";

    /** A worker writing row {@code state} each job: 1 s of work, 1 s of rest. */
    static WorkerSpec worker(String name, WorkerRole role, Duration startAt, Duration workTime, int jobs) {
        return new WorkerSpec(name, SCOPE, startAt, workTime, List.of(new TargetWrite(TargetKind.ROW, "state")), jobs,
                Duration.ofSeconds(1), StalePolicy.ABANDON, false, false, false, role);
    }

    static WorkerSpec leader(String name, Duration startAt) {
        return worker(name, WorkerRole.LEADER, startAt, Duration.ofSeconds(1), 0);
    }

    static RunSpec spec(LeaseProfile lease, Duration length, List<WorkerSpec> workers, FaultSpec... faults) {
        return new RunSpec("profiles", workers, Map.of(), lease, FencingMode.FENCED, TokenScheme.MONOTONIC,
                FirstWritePolicy.CREATE, List.of(faults), 7L, length, ExecutorKind.SIMULATED, 1.0);
    }

    static List<Event> run(Database db, RunSpec spec) {
        RecordingSink sink = new RecordingSink();
        try (SimulatedExecutor run = new SimulatedExecutor(db, spec, sink)) {
            run.runToEnd();
        }
        return sink.events();
    }

    static <T extends Event> List<T> of(List<Event> events, Class<T> type) {
        return events.stream().filter(type::isInstance).map(type::cast).toList();
    }

    static <T extends Event> List<T> of(List<Event> events, Class<T> type, String holder) {
        return of(events, type).stream().filter(e -> holder.equals(e.holder())).toList();
    }

    static FaultSpec fault(FaultKind kind, String target, int atSeconds, int forSeconds, Duration amount) {
        return new FaultSpec(kind, target, new FaultStart.At(Duration.ofSeconds(atSeconds)),
                new Distribution.Fixed(Duration.ofSeconds(forSeconds)), amount);
    }

    static long seconds(int s) {
        return s * 1_000_000L;
    }

    @Test
    void aKubernetesLeaderWhoseRenewalsAreLostStopsLeadingAtItsRenewDeadlineAndACandidateTakesOverAfterTheLeaseDuration(
            Database db) {
        LeaseProfile.Kubernetes k8s = LeaseProfile.Kubernetes.DEFAULT;
        List<Event> events = run(db, spec(k8s, Duration.ofSeconds(60),
                List.of(leader("L", Duration.ZERO), leader("C", Duration.ofSeconds(1))),
                fault(FaultKind.RENEWAL_LOSS, "L", 5, 55, Duration.ZERO)));

        List<Event.LeaseRenewed> renewed = of(events, Event.LeaseRenewed.class, "L");
        assertThat(renewed).as("L renews every retryPeriod (2 s) until its renewals are dropped at 5 s")
                .extracting(Event::atMicros).containsExactly(seconds(2), seconds(4));
        long lastRenewal = renewed.getLast().atMicros();
        Event.BeliefEnded stopped = of(events, Event.BeliefEnded.class, "L").getFirst();
        assertThat(stopped.atMicros()).as("the renew loop starts retryPeriod after the last success and gives up "
                + "renewDeadline later: 4 s + 2 s + 10 s").isEqualTo(lastRenewal + seconds(12));
        assertThat(stopped.reason()).contains("renew deadline");
        Event.LeaseExpired expired = of(events, Event.LeaseExpired.class, "L").getFirst();
        assertThat(expired.atMicros()).as("the lease runs leaseDuration from the last renewal")
                .isEqualTo(lastRenewal + seconds(15));
        Event.LeaseAcquired next = of(events, Event.LeaseAcquired.class).stream()
                .filter(a -> a.fencingToken() == 2).findFirst().orElseThrow();
        assertThat(next.atMicros()).as("a candidate retrying every 2 s to 4.4 s (jitter 1.2) takes over once it expired")
                .isBetween(expired.atMicros(), expired.atMicros() + 4_400_000);
        assertThat(stopped.atMicros()).as("the old leader stopped before anyone else could lead")
                .isLessThan(next.atMicros());
    }

    @Test
    void aKubernetesLeaderStopsAtItsRenewDeadlineWhenTheLeaseServiceIsTooSlowToAnswer(Database db) {
        List<Event> events = run(db, spec(LeaseProfile.Kubernetes.DEFAULT, Duration.ofSeconds(40),
                List.of(leader("L", Duration.ZERO)),
                fault(FaultKind.SLOW_LEASE_SERVICE, "L", 5, 30, Duration.ofSeconds(20))));

        Event.BeliefEnded stopped = of(events, Event.BeliefEnded.class, "L").getFirst();
        assertThat(stopped.atMicros()).as("last renewal at 4 s, deadline 12 s later, the slow answer still on its way")
                .isEqualTo(seconds(16));
        assertThat(of(events, Event.LeaseRenewalFailed.class, "L")).as("the renewal sent at 6 s lands at 26 s, "
                + "after the lease expired at 19 s").first().satisfies(f -> assertThat(f.atMicros()).isEqualTo(seconds(26)));
    }

    @Test
    void consulRefusesEveryGrantDuringTheLockDelayAfterACrashedHoldersSessionIsInvalidated(Database db) {
        LeaseProfile.Consul consul = new LeaseProfile.Consul(Duration.ofSeconds(10), Duration.ofSeconds(15));
        List<Event> events = run(db, spec(consul, Duration.ofSeconds(60),
                List.of(leader("L", Duration.ZERO), leader("C", Duration.ofSeconds(1))),
                FaultSpec.crash("L", Duration.ofSeconds(3), Duration.ZERO, FaultSpec.Identity.SAME)));

        Event.LeaseExpired expired = of(events, Event.LeaseExpired.class, "L").getFirst();
        assertThat(expired.atMicros()).as("the servers invalidate a session after up to twice its ttl")
                .isEqualTo(seconds(20));
        assertThat(of(events, Event.LeaseBusy.class, "C")).as("C's watch wakes it at the expiry; lock-delay refuses it")
                .anySatisfy(b -> {
                    assertThat(b.atMicros()).isEqualTo(seconds(20));
                    assertThat(b.currentHolder()).isEqualTo("L");
                });
        Event.LeaseAcquired taken = of(events, Event.LeaseAcquired.class, "C").getFirst();
        assertThat(taken.atMicros()).as("granted when the 15 s lock-delay ends").isEqualTo(seconds(35));
        assertThat(of(events, Event.LeaseAcquired.class)).as("nothing is granted during the lock-delay")
                .noneMatch(a -> a.atMicros() > seconds(20) && a.atMicros() < seconds(35));
    }

    @Test
    void consulStartsNoLockDelayAfterARelease(Database db) {
        LeaseProfile.Consul consul = new LeaseProfile.Consul(Duration.ofSeconds(10), Duration.ofSeconds(15));
        List<Event> events = run(db, spec(consul, Duration.ofSeconds(20),
                List.of(worker("A", WorkerRole.JOBS, Duration.ZERO, Duration.ofSeconds(1), 1),
                        worker("B", WorkerRole.JOBS, Duration.ofSeconds(1), Duration.ofSeconds(1), 1))));

        assertThat(of(events, Event.LeaseReleased.class, "A")).singleElement()
                .satisfies(r -> assertThat(r.atMicros()).isEqualTo(seconds(1)));
        assertThat(of(events, Event.LeaseAcquired.class, "B")).as("B, busy at 1 s, gets it at its next poll: "
                + "a release starts no lock-delay").singleElement()
                .satisfies(a -> assertThat(a.atMicros()).isEqualTo(seconds(2)));
    }

    @Test
    void etcdKeepsItsLeaseAliveAtItsFirstLookAfterAThirdOfItsTtl(Database db) {
        List<Event> events = run(db, spec(new LeaseProfile.Etcd(Duration.ofSeconds(9)), Duration.ofSeconds(20),
                List.of(leader("L", Duration.ZERO))));

        assertThat(of(events, Event.LeaseRenewed.class, "L")).as("3 s, at the client's next 500 ms look")
                .extracting(Event::atMicros)
                .containsExactly(3_500_000L, 7_000_000L, 10_500_000L, 14_000_000L, 17_500_000L);
        assertThat(of(events, Event.LeaseRenewed.class, "L")).as("each keep-alive extends the lease by the full ttl")
                .allSatisfy(r -> assertThat(r.expiresAtMicros()).isEqualTo(r.atMicros() + seconds(9)));
    }

    @Test
    void eachProfileRenewsOnItsClientsSchedule(Database db) {
        Map<LeaseProfile, Long> every = Map.of(
                new LeaseProfile.Redisson(Duration.ofSeconds(30)), seconds(10),
                new LeaseProfile.Consul(Duration.ofSeconds(8), Duration.ZERO), seconds(4),
                new LeaseProfile.ZooKeeper(Duration.ofSeconds(12)), seconds(4),
                new LeaseProfile.ShedLock(Duration.ofSeconds(30), true), seconds(15),
                new LeaseProfile.Generic(Duration.ofSeconds(10), Duration.ofSeconds(3)), seconds(3));
        every.forEach((profile, gap) -> {
            List<Event> events = run(db, spec(profile, Duration.ofSeconds(40), List.of(leader("L", Duration.ZERO))));
            List<Long> times = of(events, Event.LeaseRenewed.class, "L").stream().map(Event::atMicros).toList();
            assertThat(times).as("%s renews every %d µs", profile.describe(), gap).isNotEmpty()
                    .allSatisfy(t -> assertThat(t % gap).isZero());
            assertThat(times.getFirst()).as(profile.describe()).isEqualTo(gap);
            assertThat(of(events, Event.BeliefEnded.class)).as("%s: the leader keeps leading", profile.describe())
                    .isEmpty();
        });
    }

    @Test
    void shedLockWithoutRenewalLosesTheLockAtLockAtMostForAndItsLateWriteIsRefused(Database db) {
        List<Event> events = run(db, spec(new LeaseProfile.ShedLock(Duration.ofSeconds(10), false),
                Duration.ofSeconds(30),
                List.of(worker("A", WorkerRole.JOBS, Duration.ZERO, Duration.ofSeconds(15), 1),
                        worker("B", WorkerRole.JOBS, Duration.ofSeconds(1), Duration.ofSeconds(1), 1))));

        assertThat(of(events, Event.LeaseRenewed.class)).as("ShedLock never renews").isEmpty();
        assertThat(of(events, Event.LeaseExpired.class, "A")).singleElement()
                .satisfies(e -> assertThat(e.atMicros()).isEqualTo(seconds(10)));
        assertThat(of(events, Event.LeaseAcquired.class, "B")).singleElement()
                .satisfies(a -> assertThat(a.atMicros()).isEqualTo(seconds(10)));
        assertThat(of(events, Event.WriteRejectedStale.class, "A")).as("A's job outlived its lock")
                .singleElement().satisfies(w -> assertThat(w.atMicros()).isEqualTo(seconds(15)));
    }

    @Test
    void aRedissonHolderIsNotToldThatItsWatchdogFoundTheLockGone(Database db) {
        // Renewals dropped from 1 s: the lock (30 s) expires at 30 s; the watchdog's next extension is refused.
        List<Event> events = run(db, spec(new LeaseProfile.Redisson(Duration.ofSeconds(30)), Duration.ofSeconds(45),
                List.of(leader("L", Duration.ZERO)), fault(FaultKind.RENEWAL_LOSS, "L", 1, 29, Duration.ZERO)));

        assertThat(of(events, Event.LeaseExpired.class, "L")).isNotEmpty();
        assertThat(of(events, Event.LeaseRenewalFailed.class, "L")).anySatisfy(f ->
                assertThat(f.reason()).startsWith("not held"));
        assertThat(of(events, Event.BeliefEnded.class, "L")).as("the application goes on believing it holds the lock")
                .isEmpty();
    }

    @Test
    void aLeaderWorksSeveralJobsUnderOneTokenAndReleasesOnlyAfterItsLastJob(Database db) {
        List<Event> events = run(db, spec(new LeaseProfile.Generic(Duration.ofSeconds(5), Duration.ofSeconds(1)),
                Duration.ofSeconds(20), List.of(worker("L", WorkerRole.LEADER, Duration.ZERO, Duration.ofSeconds(1), 4))));

        assertThat(of(events, Event.LeaseAcquired.class)).as("one grant for all its jobs").hasSize(1);
        assertThat(of(events, Event.WriteAccepted.class)).as("four jobs, every write with token 1").hasSize(4)
                .allSatisfy(w -> assertThat(w.token()).isEqualTo(1));
        assertThat(of(events, Event.LeaseReleased.class)).as("released after the fourth job").singleElement()
                .satisfies(r -> assertThat(r.atMicros()).isEqualTo(seconds(7)));
        assertThat(of(events, Event.LeaseRenewed.class)).as("renewing all along").hasSizeGreaterThanOrEqualTo(6);
    }

    @Test
    void aJobsWorkerStillTakesOneLeasePerJob(Database db) {
        List<Event> events = run(db, spec(new LeaseProfile.Generic(Duration.ofSeconds(5), Duration.ZERO),
                Duration.ofSeconds(20), List.of(worker("W", WorkerRole.JOBS, Duration.ZERO, Duration.ofSeconds(1), 3))));

        assertThat(of(events, Event.LeaseAcquired.class)).extracting(Event.LeaseAcquired::fencingToken)
                .containsExactly(1L, 2L, 3L);
    }
}
