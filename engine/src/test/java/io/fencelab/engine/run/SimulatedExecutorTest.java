package io.fencelab.engine.run;

import static org.assertj.core.api.Assertions.assertThat;

import io.fencelab.engine.chaos.Distribution;
import io.fencelab.engine.chaos.FaultKind;
import io.fencelab.engine.chaos.FaultSpec;
import io.fencelab.engine.chaos.FaultStart;
import io.fencelab.engine.db.Database;
import io.fencelab.engine.event.Event;
import io.fencelab.engine.fence.FenceAudit;
import io.fencelab.engine.fence.FencedTarget;
import io.fencelab.engine.fence.FencingMode;
import io.fencelab.engine.fence.FirstWritePolicy;
import io.fencelab.testing.EmbeddedDatabase;
import io.fencelab.testing.RecordingSink;
import io.fencelab.testing.Specs;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

@ExtendWith(EmbeddedDatabase.class)
class SimulatedExecutorTest {

    @Test
    void aHolderPausedPastItsLeaseHasItsLateWriteRejected(Database db) {
        RecordingSink sink = new RecordingSink();
        try (SimulatedExecutor run = new SimulatedExecutor(db, Specs.staleHolder(FencingMode.FENCED), sink)) {
            run.runToEnd();

            assertThat(story(sink.events())).containsExactly(
                    "0s LeaseAcquired A 1", "0s BeliefStarted A 1",
                    "2s PauseStarted A",
                    "20s LeaseExpired A 1",
                    "21s LeaseAcquired B 2", "21s BeliefStarted B 2",
                    "23s WriteAttempted B 2", "23s WriteAccepted B 2",
                    "23s LeaseReleased B 2", "23s BeliefEnded B 2",
                    "27s PauseEnded A",
                    "27s WriteAttempted A 1", "27s WriteRejectedStale A 1",
                    "27s BeliefEnded A 1");
            assertThat(FencedTarget.row(run.runContext(), FencingMode.FENCED, FirstWritePolicy.CREATE)
                    .read(Specs.SCOPE, Specs.KEY).orElseThrow().value())
                    .as("the report holds B's body").isEqualTo("report by B, job 1");
            assertThat(sink.events().getLast()).isInstanceOf(Event.RunEnded.class);
        }
    }

    @Test
    void withoutFencingThePausedHolderOverwritesTheNewerHolder(Database db) {
        RecordingSink sink = new RecordingSink();
        try (SimulatedExecutor run = new SimulatedExecutor(db, Specs.staleHolder(FencingMode.UNFENCED), sink)) {
            run.runToEnd();

            assertThat(story(sink.events())).contains("27s WriteAccepted A 1");
            assertThat(new FenceAudit(run.runContext()).regressions()).hasSize(1);
            assertThat(FencedTarget.row(run.runContext(), FencingMode.UNFENCED, FirstWritePolicy.CREATE)
                    .read(Specs.SCOPE, Specs.KEY).orElseThrow().value()).isEqualTo("report by A, job 1");
        }
    }

    @Test
    void theSameSpecAndSeedGiveTheSameEvents(Database db) {
        List<Event> first = runStorm(db, 11);
        List<Event> second = runStorm(db, 11);

        assertThat(first).as("a storm with faults, %d events", first.size()).hasSizeGreaterThan(200);
        assertThat(second).isEqualTo(first);
        assertThat(runStorm(db, 12)).as("another seed, another run").isNotEqualTo(first);
    }

    @Test
    void fencedStormsNeverApplyAStaleWrite(Database db) {
        RecordingSink sink = new RecordingSink();
        try (SimulatedExecutor run = new SimulatedExecutor(db,
                Specs.storm(8, 2, FencingMode.FENCED, 5, Duration.ofSeconds(30)), sink)) {
            run.runToEnd();

            assertThat(sink.ofType(Event.WriteRejectedStale.class)).as("the storm produces stale holders").isNotEmpty();
            assertThat(new FenceAudit(run.runContext()).regressions()).isEmpty();
        }
    }

    @Test
    void stepAndRunUntilAdvanceVirtualTimeOnlyAsAsked(Database db) {
        RecordingSink sink = new RecordingSink();
        try (SimulatedExecutor run = new SimulatedExecutor(db, Specs.staleHolder(FencingMode.FENCED), sink)) {
            run.step();
            assertThat(run.now()).isEqualTo(Duration.ZERO);

            run.runUntil(Duration.ofSeconds(22));
            assertThat(run.now()).isEqualTo(Duration.ofSeconds(22));
            assertThat(story(sink.events())).contains("21s LeaseAcquired B 2").doesNotContain("23s WriteAccepted B 2");

            run.stop();
            assertThat(sink.events().getLast()).isEqualTo(
                    new Event.RunEnded(sink.events().size(), 22_000_000, Event.RunEnded.Reason.STOPPED));
        }
    }

    @Test
    void runningUntilPastTheEndStopsAtTheEnd(Database db) {
        RecordingSink sink = new RecordingSink();
        try (SimulatedExecutor run = new SimulatedExecutor(db, Specs.staleHolder(FencingMode.FENCED), sink)) {
            run.runUntil(Duration.ofSeconds(41));
            run.step();

            assertThat(run.isOver()).isTrue();
            assertThat(run.now()).isEqualTo(Duration.ofSeconds(40));
            assertThat(((Event.RunEnded) sink.events().getLast()).reason()).isEqualTo("completed");
        }
    }

    @Test
    void aDatabaseRestartMidLeaseReusesNoToken(Database db) {
        RunSpec spec = withFaults(Specs.storm(4, 1, FencingMode.FENCED, 3, Duration.ofSeconds(20)),
                new FaultSpec(FaultKind.DATABASE_RESTART, FaultSpec.DATABASE, new FaultStart.At(Duration.ofSeconds(5)),
                        new Distribution.Fixed(Duration.ofSeconds(2)), Duration.ZERO));
        RecordingSink sink = new RecordingSink();
        try (SimulatedExecutor run = new SimulatedExecutor(db, spec, sink)) {
            run.runToEnd();
        }

        assertThat(sink.ofType(Event.OperationFailed.class)).as("operations during the outage fail").isNotEmpty();
        assertThat(sink.ofType(Event.LeaseAcquired.class).stream().filter(e -> e.atMicros() > 7_000_000))
                .as("work resumes after the restart").isNotEmpty();
        assertThat(((Event.RunEnded) sink.events().getLast()).reason()).isEqualTo("completed");
        assertTokensStrictlyIncrease(sink.events());
    }

    @Test
    void aKilledConnectionFailsOneOperationAndTheWorkerCarriesOn(Database db) {
        RunSpec spec = withFaults(Specs.storm(2, 1, FencingMode.FENCED, 3, Duration.ofSeconds(10)),
                new FaultSpec(FaultKind.CONNECTION_KILL, "w0", new FaultStart.At(Duration.ofSeconds(2)),
                        new Distribution.Fixed(Duration.ZERO), Duration.ZERO));
        RecordingSink sink = new RecordingSink();
        try (SimulatedExecutor run = new SimulatedExecutor(db, spec, sink)) {
            run.runToEnd();
        }

        assertThat(sink.ofType(Event.OperationFailed.class)).extracting(Event::holder).contains("w0");
        assertThat(sink.ofType(Event.LeaseAcquired.class).stream().filter(e -> e.holder().equals("w0")
                && e.atMicros() > 2_000_000)).as("w0 works again with a new session").isNotEmpty();
        assertTokensStrictlyIncrease(sink.events());
    }

    static void assertTokensStrictlyIncrease(List<Event> events) {
        Map<String, Long> last = new HashMap<>();
        for (Event e : events) {
            if (e instanceof Event.LeaseAcquired a) {
                Long previous = last.put(a.scope(), a.token());
                assertThat(previous == null || a.token() > previous)
                        .as("token %d in %s after %s", a.token(), a.scope(), previous).isTrue();
            }
        }
    }

    private static RunSpec withFaults(RunSpec base, FaultSpec... faults) {
        List<FaultSpec> all = new ArrayList<>(base.faults());
        all.addAll(List.of(faults));
        return base.toBuilder().faults(all).build();
    }

    private static List<Event> runStorm(Database db, long seed) {
        RecordingSink sink = new RecordingSink();
        try (SimulatedExecutor run = new SimulatedExecutor(db,
                Specs.storm(6, 2, FencingMode.FENCED, seed, Duration.ofSeconds(20)), sink)) {
            run.runToEnd();
        }
        return sink.events();
    }

    /** "time type holder token" per event, for the story's events. */
    private static List<String> story(List<Event> events) {
        return events.stream()
                .filter(e -> !(e instanceof Event.RunStarted) && !(e instanceof Event.RunEnded))
                .map(e -> (e.atMicros() / 1_000_000) + "s " + e.getClass().getSimpleName()
                        + (e.holder() == null ? "" : " " + e.holder())
                        + (e.tokenOrNull() == null ? "" : " " + e.tokenOrNull()))
                .toList();
    }
}
