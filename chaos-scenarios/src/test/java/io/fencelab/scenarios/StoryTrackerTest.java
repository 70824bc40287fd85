package io.fencelab.scenarios;

import static org.assertj.core.api.Assertions.assertThat;

import io.fencelab.engine.event.Event;
import io.fencelab.engine.resource.TargetKind;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class StoryTrackerTest {

    private static final long S = 1_000_000;

    /** The paused-holder log, as the catalog scenario writes it (fenced). */
    private static final List<Event> LOG = List.of(
            new Event.RunStarted(1, 0, "paused-holder", "simulated", "FENCED", "MONOTONIC", 1, "PostgreSQL 17"),
            new Event.LeaseAcquired(2, 0, "A", "report", 41, 41, 30 * S),
            new Event.PauseStarted(3, 10 * S, "A", 35 * S, "pause fault"),
            new Event.LeaseExpired(4, 30 * S, "A", "report", 41),
            new Event.LeaseAcquired(5, 31 * S, "B", "report", 42, 42, 61 * S),
            new Event.WriteAccepted(6, 35 * S, "B", "report", 42, TargetKind.ROW, "report-1", "d1"),
            new Event.PauseEnded(7, 45 * S, "A"),
            new Event.WriteAttempted(8, 45 * S, "A", "report", 41, TargetKind.ROW, "report-1", null),
            new Event.WriteRejectedStale(9, 45 * S, "A", "report", 41, TargetKind.ROW, "report-1", 42),
            new Event.RunEnded(10, 60 * S, Event.RunEnded.Reason.COMPLETED));

    private static StoryStep on(String type, String holder) {
        return new StoryStep(type + " " + holder, new Cue.On(type, Map.of("holder", holder)), null, "", 0);
    }

    private static StoryStep at(long seconds) {
        return new StoryStep("at " + seconds, new Cue.At(Duration.ofSeconds(seconds)), null, "", 0);
    }

    @Test
    void anEventStepIsReachedAtItsEventAndShowsNothingAfterIt() {
        List<StoryTracker.Reached> reached = StoryTracker.of(List.of(on("LeaseAcquired", "A"),
                on("WriteAttempted", "A"), on("WriteRejectedStale", "A")), LOG);

        assertThat(reached).extracting(StoryTracker.Reached::throughSeq)
                .as("the question before the refusal stops at the attempt, with the refusal still to come")
                .containsExactly(2L, 8L, 9L);
    }

    @Test
    void aTimeStepIsReachedWithEveryEventAtOrBeforeItsInstant() {
        List<StoryTracker.Reached> reached = StoryTracker.of(List.of(at(31), at(40)), LOG);

        assertThat(reached).containsExactly(new StoryTracker.Reached(0, 31 * S, 5),
                new StoryTracker.Reached(1, 40 * S, 6));
    }

    @Test
    void stepsAreReachedInOrderSoAnEarlierMatchingEventDoesNotCountForALaterStep() {
        // B's acquisition is the only one after A's expiry: the second LeaseAcquired step waits for it.
        List<StoryTracker.Reached> reached = StoryTracker.of(List.of(on("LeaseExpired", "A"),
                new StoryStep("someone acquires", new Cue.On("LeaseAcquired", Map.of()), null, "", 0)), LOG);

        assertThat(reached).extracting(StoryTracker.Reached::throughSeq).containsExactly(4L, 5L);
    }

    @Test
    void aStepWithoutACueGoesWithTheStepBefore() {
        List<StoryTracker.Reached> reached = StoryTracker.of(List.of(on("PauseStarted", "A"),
                StoryStep.plain("and nothing happens")), LOG);

        assertThat(reached).extracting(StoryTracker.Reached::throughSeq).containsExactly(3L, 3L);
    }

    @Test
    void aStepTheRunNeverReachesStopsTheStoryThere() {
        StoryTracker tracker = new StoryTracker(List.of(on("LeaseAcquired", "A"), on("LeaseAcquired", "C"),
                on("WriteRejectedStale", "A")));
        tracker.accept(LOG);
        tracker.end(60 * S);

        assertThat(tracker.count()).as("C never acquires, so the story stops after step 1").isEqualTo(1);
    }

    @Test
    void theCatalogPausedHolderIsReachedStepByStep() {
        Scenario scenario = Catalog.shipped().load("paused-holder");
        List<StoryStep> steps = scenario.notes().steps();

        assertThat(steps).allSatisfy(s -> assertThat(s.cue()).isInstanceOf(Cue.On.class));
        assertThat(steps).filteredOn(StoryStep::asks).hasSizeGreaterThanOrEqualTo(1);
        assertThat(StoryTracker.of(steps, LOG)).extracting(StoryTracker.Reached::throughSeq)
                .containsExactly(2L, 3L, 4L, 5L, 6L, 8L, 9L);
    }
}
