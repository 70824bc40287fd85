package io.fencelab.engine.chaos;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.List;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.LongRange;
import org.junit.jupiter.api.Test;

/**
 * A run's fault plan drawn one occurrence at a time ({@link FaultPlan.Sequence}): what a run holds is
 * one pending occurrence per spec and target, and the executors rely on each next one starting after
 * the one before it started.
 */
class FaultSequenceTest {

    private static FaultSpec every(Distribution gap, Distribution length) {
        return new FaultSpec(FaultKind.REQUEST_DELAY, FaultSpec.ALL, new FaultStart.Every(gap), length,
                Duration.ofMillis(1));
    }

    @Test
    void aPlanOfBillionsOfOccurrencesIsOneSequencePerTargetUntilDrawn() {
        // A fault every millisecond on two holders for a year: the whole plan would not fit in memory.
        List<FaultPlan.Sequence> plan = FaultPlan.sequences(List.of(every(new Distribution.Fixed(Duration.ofMillis(1)),
                new Distribution.Fixed(Duration.ZERO))), List.of("A", "B"), Duration.ofDays(365), 1);

        assertThat(plan).as("one sequence per target, nothing drawn yet").hasSize(2)
                .allSatisfy(s -> assertThat(s.hasNext()).as("its first occurrence is due").isTrue());
        FaultPlan.Sequence a = plan.getFirst();
        assertThat(List.of(a.next(), a.next(), a.next())).as("each occurrence as it is asked for")
                .extracting(p -> p.occurrence().start())
                .containsExactly(Duration.ofMillis(1), Duration.ofMillis(2), Duration.ofMillis(3));
    }

    @Property(tries = 200)
    void eachNextOccurrenceStartsAfterThePreviousEnded(@ForAll @LongRange(min = 1, max = 5_000) long gapMicros,
                                                      @ForAll @LongRange(min = 0, max = 5_000) long lengthMicros,
                                                      @ForAll long seed) {
        FaultSpec spec = every(new Distribution.Uniform(Duration.ZERO, Duration.ofNanos(gapMicros * 1_000)),
                new Distribution.Exponential(Duration.ofNanos(Math.max(1, lengthMicros) * 1_000)));
        FaultPlan.Sequence s = FaultPlan.sequences(List.of(spec), List.of("A"), Duration.ofSeconds(2), seed)
                .getFirst();

        FaultOccurrence previous = null;
        while (s.hasNext()) {
            FaultOccurrence o = s.next().occurrence();
            if (previous != null) {
                assertThat(o.start()).as("drawn when the one before starts, so it must start later")
                        .isGreaterThan(previous.start()).isGreaterThanOrEqualTo(previous.end());
            }
            previous = o;
        }
    }

    @Test
    void thePlanDrawnWholeIsTheSequencesInPlaceOrder() {
        List<FaultSpec> specs = List.of(every(new Distribution.Exponential(Duration.ofSeconds(2)),
                        new Distribution.Fixed(Duration.ofMillis(300))),
                new FaultSpec(FaultKind.PAUSE, "B", new FaultStart.At(Duration.ofSeconds(5)),
                        new Distribution.Fixed(Duration.ofSeconds(1)), Duration.ZERO));

        List<FaultPlan.Planned> whole = FaultPlan.expandTagged(specs, List.of("A", "B"), Duration.ofSeconds(30), 7);

        assertThat(whole).as("in plan order: by start, then target and kind").isSortedAccordingTo(
                java.util.Comparator.comparing(FaultPlan.Planned::place));
        assertThat(whole).as("every occurrence of both holders and the scripted pause")
                .filteredOn(p -> p.occurrence().kind() == FaultKind.PAUSE).hasSize(1);
    }
}
