package io.fencelab.report;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** The one tick rule, used by the HTML report's axis and the console's timeline. */
class TimeAxisTest {

    private static final long S = 1_000_000;

    @Test
    void theStepIsOneTwoOrFiveTimesAPowerOfTenAndTheSmallestThatFits() {
        assertThat(TimeAxis.tickStep(60 * S, 10)).as("a minute in at most ten steps").isEqualTo(10 * S);
        assertThat(TimeAxis.tickStep(30 * S, 10)).as("3 s would be no round step: 5 s").isEqualTo(5 * S);
        assertThat(TimeAxis.tickStep(100 * S, 10)).as("exactly ten steps fit").isEqualTo(10 * S);
        assertThat(TimeAxis.tickStep(101 * S, 10)).as("just over ten steps: the next round step")
                .isEqualTo(20 * S);
        assertThat(TimeAxis.tickStep(1_500, 3)).as("deep zoom: microseconds").isEqualTo(500);
        assertThat(TimeAxis.tickStep(1, 10)).as("never below a microsecond").isEqualTo(1);
        assertThat(TimeAxis.tickStep(0, 10)).isEqualTo(1);
        assertThat(TimeAxis.tickStep(60 * S, 0.2)).as("at least one step, even on a very narrow axis")
                .isEqualTo(100 * S);
    }

    @Test
    void ticksAreTheStepsMultiplesInsideTheRangeEndsIncluded() {
        assertThat(TimeAxis.ticks(0, 60 * S, 10)).containsExactly(0, 10 * S, 20 * S, 30 * S, 40 * S, 50 * S, 60 * S);
        assertThat(TimeAxis.ticks(12.5 * S, 31 * S, 4)).as("a zoomed window starts at the first multiple in it")
                .containsExactly(15 * S, 20 * S, 25 * S, 30 * S);
        assertThat(TimeAxis.ticks(-0.6 * S, 4 * S, 5)).as("a window reaching before the start")
                .containsExactly(0, S, 2 * S, 3 * S, 4 * S);
    }

    @Test
    void neverMoreTicksThanTheStepsAllowed() {
        for (double maxSteps : new double[] {0.5, 1, 2.5, 7, 10, 17.3}) {
            for (long span = 1; span < 10_000 * S; span = span * 3 + 7) {
                long[] ticks = TimeAxis.ticks(span / 3.0, span / 3.0 + span, maxSteps);
                assertThat(ticks.length).as("span %d µs, at most %s steps", span, maxSteps)
                        .isLessThanOrEqualTo((int) Math.max(1, maxSteps) + 1);
            }
        }
    }

    @Test
    void theReportsAxisUsesTheSameRuleOverTheWholeRun() {
        assertThat(new TimeAxis(60 * S).ticks()).containsExactly(TimeAxis.ticks(0, 60 * S, 10));
        assertThat(new TimeAxis(105 * S).ticks()).as("105 s in at most ten steps of 20 s")
                .containsExactly(0, 20 * S, 40 * S, 60 * S, 80 * S, 100 * S);
    }
}
