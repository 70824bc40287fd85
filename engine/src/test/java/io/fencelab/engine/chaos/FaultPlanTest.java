package io.fencelab.engine.chaos;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

/** When the occurrences of a fault spec added to a running run happen. */
class FaultPlanTest {

    private static final Duration RUN = Duration.ofSeconds(60);

    private static FaultSpec at(FaultKind kind, int atSeconds, int forSeconds) {
        return new FaultSpec(kind, FaultSpec.ALL, new FaultStart.At(Duration.ofSeconds(atSeconds)),
                new Distribution.Fixed(Duration.ofSeconds(forSeconds)), Duration.ZERO);
    }

    @Test
    void aScriptedFaultAddedLaterKeepsItsTimes() {
        List<FaultOccurrence> plan = FaultPlan.expandFrom(at(FaultKind.PAUSE, 30, 5), List.of("A", "B"),
                Duration.ofSeconds(10), RUN, 1);

        assertThat(plan).containsExactly(
                new FaultOccurrence(FaultKind.PAUSE, "A", Duration.ofSeconds(30), Duration.ofSeconds(5), Duration.ZERO),
                new FaultOccurrence(FaultKind.PAUSE, "B", Duration.ofSeconds(30), Duration.ofSeconds(5), Duration.ZERO));
    }

    @Test
    void aScriptedFaultAddedWhileItWouldBeActiveStartsNowAndEndsWhenItWould() {
        List<FaultOccurrence> plan = FaultPlan.expandFrom(at(FaultKind.REQUEST_DELAY, 0, 8), List.of("A"),
                Duration.ofSeconds(2), RUN, 1);

        assertThat(plan).singleElement().satisfies(o -> {
            assertThat(o.start()).as("clipped to now").isEqualTo(Duration.ofSeconds(2));
            assertThat(o.end()).as("its scripted end").isEqualTo(Duration.ofSeconds(8));
        });
    }

    @Test
    void aScriptedFaultWhoseTimeHasPassedIsLeftOut() {
        assertThat(FaultPlan.expandFrom(at(FaultKind.PAUSE, 1, 3), List.of("A"), Duration.ofSeconds(10), RUN, 1))
                .as("a pause over by 4 s, added at 10 s").isEmpty();
    }

    @Test
    void aConnectionKillScriptedForNowStillHappens() {
        assertThat(FaultPlan.expandFrom(at(FaultKind.CONNECTION_KILL, 10, 0), List.of("A"), Duration.ofSeconds(10),
                RUN, 1)).as("a kill has no length, so it ends as it starts").singleElement()
                .satisfies(o -> assertThat(o.start()).isEqualTo(Duration.ofSeconds(10)));
    }

    @Test
    void aRepeatingFaultAddedLaterIsDrawnFromThenToTheEndOfTheRun() {
        FaultSpec every = new FaultSpec(FaultKind.PAUSE, "A", new FaultStart.Every(new Distribution.Fixed(
                Duration.ofSeconds(4))), new Distribution.Fixed(Duration.ofSeconds(1)), Duration.ZERO);

        List<FaultOccurrence> plan = FaultPlan.expandFrom(every, List.of("A"), Duration.ofSeconds(45), RUN, 1);

        // From 45 s: a gap of 4 s, a pause of 1 s, again; a fourth would start at 64 s, after the end.
        assertThat(plan).extracting(FaultOccurrence::start).containsExactly(Duration.ofSeconds(49),
                Duration.ofSeconds(54), Duration.ofSeconds(59));
    }
}
