package io.fencelab.engine.run;

import static io.fencelab.engine.run.LeaseProfilesTest.leader;
import static io.fencelab.engine.run.LeaseProfilesTest.of;
import static io.fencelab.engine.run.LeaseProfilesTest.run;
import static io.fencelab.engine.run.LeaseProfilesTest.seconds;
import static io.fencelab.engine.run.LeaseProfilesTest.spec;
import static org.assertj.core.api.Assertions.assertThat;

import io.fencelab.engine.chaos.Distribution;
import io.fencelab.engine.chaos.FaultKind;
import io.fencelab.engine.chaos.FaultSpec;
import io.fencelab.engine.chaos.FaultStart;
import io.fencelab.engine.check.Verdict;
import io.fencelab.engine.db.Database;
import io.fencelab.engine.event.Event;
import io.fencelab.engine.lease.LeaseProfile;
import io.fencelab.testing.EmbeddedDatabase;
import io.fencelab.testing.RecordingSink;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/** The CRASH fault: a holder dies without releasing, and perhaps comes back as a fresh process. */
@ExtendWith(EmbeddedDatabase.class)
class CrashTest {

    /** Leases of 10 s renewed every 2 s; leader A from 0 s, candidate B from 1 s. */
    private static RunSpec twoLeaders(Duration length, FaultSpec... faults) {
        return spec(new LeaseProfile.Generic(Duration.ofSeconds(10), Duration.ofSeconds(2)), length,
                List.of(leader("A", Duration.ZERO), leader("B", Duration.ofSeconds(1))), faults);
    }

    private static FaultSpec crashA(int atSeconds, int restartAfterSeconds, FaultSpec.Identity identity) {
        return FaultSpec.crash("A", Duration.ofSeconds(atSeconds), Duration.ofSeconds(restartAfterSeconds), identity);
    }

    @Test
    void aCrashedHolderEndsItsBeliefAtOnceAndOnlyItsLeaseExpiryFollows(Database db) {
        List<Event> events = run(db, twoLeaders(Duration.ofSeconds(30), crashA(5, 0, FaultSpec.Identity.SAME)));

        Event.FaultInjected crash = of(events, Event.FaultInjected.class).getFirst();
        assertThat(crash.fault()).isEqualTo("CRASH");
        assertThat(crash.appliesTo()).isEqualTo("A");
        assertThat(crash.durationMicros()).as("0: never restarts").isZero();
        int at = events.indexOf(crash);
        assertThat(events.get(at + 1)).as("the belief ends at the crash instant, right after it")
                .isInstanceOfSatisfying(Event.BeliefEnded.class, b -> {
                    assertThat(b.holder()).isEqualTo("A");
                    assertThat(b.reason()).isEqualTo("crashed");
                    assertThat(b.atMicros()).isEqualTo(seconds(5));
                });
        List<Event> fromA = events.subList(at + 2, events.size()).stream()
                .filter(e -> "A".equals(e.holder())).toList();
        assertThat(fromA).as("after the crash only the service speaks of A: its lease runs out, no release")
                .singleElement().isInstanceOfSatisfying(Event.LeaseExpired.class,
                        e -> assertThat(e.atMicros()).isEqualTo(seconds(14)));
        assertThat(of(events, Event.LeaseAcquired.class, "B")).as("B takes over once the lease expired")
                .first().satisfies(a -> assertThat(a.atMicros()).isGreaterThanOrEqualTo(seconds(14)));
        assertThat(of(events, Event.FaultHealed.class)).as("no restart, no heal").isEmpty();
    }

    @Test
    void aHolderRestartingUnderTheSameNameIsAFreshProcessThatWaitsForItsOldLease(Database db) {
        List<Event> events = run(db, twoLeaders(Duration.ofSeconds(30), crashA(5, 3, FaultSpec.Identity.SAME)));

        assertThat(of(events, Event.FaultHealed.class)).singleElement()
                .satisfies(h -> assertThat(h.atMicros()).isEqualTo(seconds(8)))
                .satisfies(h -> assertThat(h.appliesTo()).isEqualTo("A"));
        assertThat(of(events, Event.LeaseBusy.class, "A")).as("the new process is told its old lease is busy")
                .first().satisfies(b -> {
                    assertThat(b.atMicros()).isEqualTo(seconds(8));
                    assertThat(b.currentHolder()).isEqualTo("A");
                });
        assertThat(of(events, Event.BeliefStarted.class, "A")).as("one belief before the crash, maybe one after")
                .first().satisfies(b -> assertThat(b.atMicros()).isZero());
        assertThat(of(events, Event.LeaseAcquired.class).stream().filter(a -> a.token() == 2).findFirst())
                .as("whoever leads next does so after the old lease expired at 14 s")
                .hasValueSatisfying(a -> assertThat(a.atMicros()).isGreaterThanOrEqualTo(seconds(14)));
    }

    @Test
    void aHolderRestartingUnderANewNameActsAsTheNextIncarnation(Database db) {
        List<Event> events = run(db, spec(new LeaseProfile.Generic(Duration.ofSeconds(10), Duration.ofSeconds(2)),
                Duration.ofSeconds(40), List.of(leader("A", Duration.ZERO)), crashA(5, 3, FaultSpec.Identity.NEW)));

        assertThat(of(events, Event.FaultInjected.class)).singleElement()
                .satisfies(f -> assertThat(f.detail()).isEqualTo("restarts after 3s as a new holder"));
        assertThat(of(events, Event.LeaseBusy.class, "A#2")).as("A#2 finds A's lease busy from 8 s")
                .first().satisfies(b -> assertThat(b.currentHolder()).isEqualTo("A"));
        assertThat(of(events, Event.LeaseAcquired.class, "A#2")).as("and leads once it expired at 14 s")
                .first().satisfies(a -> {
                    assertThat(a.atMicros()).isEqualTo(seconds(14));
                    assertThat(a.token()).isEqualTo(2);
                });
        assertThat(of(events, Event.WriteAccepted.class, "A#2")).isNotEmpty();
        assertThat(of(events, Event.LeaseAcquired.class, "A")).hasSize(1);
    }

    @Test
    void aWriteAlreadyOnTheWireWhenItsHolderCrashesStillLandsAndNobodyHearsTheAnswer(Database db) {
        // A's first write leaves at 1 s and is delayed 3 s on the network; A crashes at 2 s.
        List<Event> events = run(db, spec(new LeaseProfile.Generic(Duration.ofSeconds(10), Duration.ZERO),
                Duration.ofSeconds(20), List.of(leader("A", Duration.ZERO)),
                new FaultSpec(FaultKind.REQUEST_DELAY, "A", new FaultStart.At(Duration.ofMillis(500)),
                        new Distribution.Fixed(Duration.ofSeconds(5)), Duration.ofSeconds(3)),
                crashA(2, 0, FaultSpec.Identity.SAME)));

        assertThat(of(events, Event.WriteAccepted.class, "A")).as("the database applied it at 4 s").singleElement()
                .satisfies(w -> assertThat(w.atMicros()).isEqualTo(seconds(4)));
        assertThat(of(events, Event.WriteAttempted.class, "A")).as("the dead process sends nothing more").hasSize(1);
    }

    @Test
    void crashesFromADistributionAreReplayedExactlyForTheSameSeed(Database db, @TempDir Path dir) throws Exception {
        FaultSpec crashes = new FaultSpec(FaultKind.CRASH, FaultSpec.ALL,
                new FaultStart.Every(new Distribution.Exponential(Duration.ofSeconds(8))),
                new Distribution.Uniform(Duration.ofSeconds(1), Duration.ofSeconds(4)), Duration.ZERO,
                FaultSpec.Identity.NEW);
        RunSpec spec = spec(LeaseProfile.Kubernetes.DEFAULT, Duration.ofSeconds(60),
                List.of(leader("A", Duration.ZERO), leader("B", Duration.ZERO), leader("C", Duration.ofSeconds(1))),
                crashes);

        byte[] first = logBytes(db, spec, dir.resolve("first.jsonl"));
        byte[] second = logBytes(db, spec, dir.resolve("second.jsonl"));

        assertThat(new String(first)).contains("\"CRASH\"").contains("#2");
        assertThat(second).as("same spec, same seed, same log bytes").isEqualTo(first);
        assertThat(logBytes(db, spec.withSeed(8), dir.resolve("other.jsonl"))).isNotEqualTo(first);
    }

    private static byte[] logBytes(Database db, RunSpec spec, Path log) throws Exception {
        RunResult result;
        try (Run run = Run.prepare(db, spec, log)) {
            result = run.runToEnd();
        }
        assertThat(result.verdict().kind()).as("fenced: crashes never break safety").isEqualTo(Verdict.Kind.SAFE);
        return Files.readAllBytes(log);
    }

    @Test
    void aLiveHolderCrashesAndRestartsUnderANewName(Database db) throws Exception {
        RunSpec spec = twoLeaders(Duration.ofSeconds(30), crashA(5, 3, FaultSpec.Identity.NEW)).toBuilder()
                .executor(ExecutorKind.LIVE).timeScale(0.05).build();
        RecordingSink sink = new RecordingSink();
        try (LiveExecutor run = new LiveExecutor(db, spec, sink, 4)) {
            run.runToEnd();
        }
        List<Event> events = sink.events();

        assertThat(of(events, Event.BeliefEnded.class, "A")).anySatisfy(b -> assertThat(b.reason()).isEqualTo("crashed"));
        assertThat(of(events, Event.FaultHealed.class)).singleElement()
                .satisfies(h -> assertThat(h.appliesTo()).isEqualTo("A"));
        assertThat(events.stream().filter(e -> e instanceof Event.LeaseBusy || e instanceof Event.LeaseAcquired)
                .map(Event::holder)).as("the restarted process asks under its new name").contains("A#2");
        long crashedAt = of(events, Event.FaultInjected.class).getFirst().seq();
        assertThat(events.stream().filter(e -> e.seq() > crashedAt && "A".equals(e.holder()))
                .filter(e -> !(e instanceof Event.BeliefEnded) && !(e instanceof Event.LeaseExpired)
                        && !(e instanceof Event.LeaseRenewed) && !(e instanceof Event.LeaseRenewalFailed)
                        && !(e instanceof Event.WriteAccepted) && !(e instanceof Event.WriteRejectedStale)))
                .as("after the crash A starts nothing (a request already on the wire may still land)").isEmpty();
    }
}
