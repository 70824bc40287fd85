package io.fencelab.engine.tune;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import org.junit.jupiter.api.Test;

class SweepPlanTest {

    private static Axis axis(String path, double... values) {
        return new Axis(path, AxisKind.DURATION, java.util.Arrays.stream(values)
                .mapToObj(v -> new AxisValue(v, (long) v + "s")).toList());
    }

    @Test
    void linearStepsIncludeBothEndsEquallyApart() {
        assertThat(Spacing.linear(10, 40, 4)).containsExactly(10, 20, 30, 40);
        assertThat(Spacing.linear(5, 5, 1)).containsExactly(5);
    }

    @Test
    void logStepsAreTheSameFactorApart() {
        double[] v = Spacing.log(1, 100, 5);
        assertThat(v[0]).isEqualTo(1);
        assertThat(v[4]).isEqualTo(100);
        for (int i = 1; i < v.length; i++) {
            assertThat(v[i] / v[i - 1]).as("factor between step %d and %d", i - 1, i).isCloseTo(Math.sqrt(10),
                    org.assertj.core.data.Offset.offset(1e-9));
        }
        assertThatThrownBy(() -> Spacing.log(0, 10, 3)).hasMessageContaining("above 0");
    }

    @Test
    void twoAxesMakeEveryCombinationWithTheFirstVaryingSlowest() {
        SweepPlan plan = new SweepPlan("s", "d", List.of(axis("lease.ttl", 10, 20, 30), axis("lease.renewEvery", 1, 2)),
                SweepPlan.seeds(7, 3));

        List<Point> points = plan.points();

        assertThat(points).hasSize(6);
        assertThat(points.stream().map(p -> p.label(plan.axes())).toList()).containsExactly(
                "lease.ttl=10s lease.renewEvery=1s", "lease.ttl=10s lease.renewEvery=2s",
                "lease.ttl=20s lease.renewEvery=1s", "lease.ttl=20s lease.renewEvery=2s",
                "lease.ttl=30s lease.renewEvery=1s", "lease.ttl=30s lease.renewEvery=2s");
        assertThat(points.get(3).id()).isEqualTo("p003");
        assertThat(plan.seeds()).containsExactly(7L, 8L, 9L);
        assertThat(plan.runCount()).isEqualTo(18);
    }

    @Test
    void theIdentityLeavesOutWhatDoesNotChangeResults() {
        SweepPlan a = new SweepPlan("s", "d", List.of(axis("lease.ttl", 10, 20)), SweepPlan.seeds(1, 2));
        SweepPlan b = new SweepPlan("s", "d", List.of(axis("lease.ttl", 10, 20)), SweepPlan.seeds(1, 2));
        SweepPlan moreSeeds = new SweepPlan("s", "d", List.of(axis("lease.ttl", 10, 20)), SweepPlan.seeds(1, 3));

        assertThat(a.identity()).isEqualTo(b.identity());
        assertThat(a.identity()).isNotEqualTo(moreSeeds.identity());
    }

    @Test
    void aParameterVariedTwiceIsRefused() {
        assertThatThrownBy(() -> new SweepPlan("s", "d", List.of(axis("lease.ttl", 1), axis("lease.ttl", 2)),
                SweepPlan.seeds(1, 1))).hasMessageContaining("varied twice");
    }
}
