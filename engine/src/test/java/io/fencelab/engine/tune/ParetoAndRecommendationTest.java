package io.fencelab.engine.tune;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.fencelab.engine.metrics.TuningMetrics;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class ParetoAndRecommendationTest {

    @Test
    void theFrontierKeepsOnlyPointsNoOtherBeatsOnBoth() {
        double[] losses = {0, 1, 2, 3, 1.5, 5};
        double[] failover = {9, 5, 6, 2, 5, 2};

        // 0 (0,9), 1 (1,5), 3 (3,2) are not beaten; 2 (2,6) is beaten by 1; 4 (1.5,5) ties 1 on y with
        // more losses; 5 (5,2) ties 3 on y with more losses.
        assertThat(Pareto.frontier(losses, failover)).containsExactly(0, 1, 3);
    }

    @Test
    void pointsWithoutAFigureAreLeftOffTheFrontier() {
        assertThat(Pareto.frontier(new double[] {0, Double.NaN, 1}, new double[] {3, 0, 1})).containsExactly(0, 2);
    }

    @Test
    void theRecommendedSettingIsTheFeasibleOneWithTheWidestSmallestMargin() {
        List<Requirement> req = List.of(Requirement.parse("failoverP99Seconds<=20"),
                Requirement.parse("spuriousLossesPerHour<=10"));
        // margins: p0 (failover 25: broken), p1 (failover 10 -> 50 %, losses 9 -> 10 %): 10 %,
        // p2 (failover 15 -> 25 %, losses 5 -> 50 %): 25 %, p3 (failover 16 -> 20 %, losses 2 -> 80 %): 20 %
        PointSummary p0 = summary(0, 25, 0);
        PointSummary p1 = summary(1, 10, 9);
        PointSummary p2 = summary(2, 15, 5);
        PointSummary p3 = summary(3, 16, 2);

        Recommendation.Assessment best = Recommendation.recommend(List.of(p0, p1, p2, p3), req).orElseThrow();

        assertThat(best.point().point().index()).isEqualTo(2);
        assertThat(best.margin()).isCloseTo(0.25, org.assertj.core.data.Offset.offset(1e-9));
        assertThat(Recommendation.assess(p0, req).feasible()).isFalse();
    }

    @Test
    void aConstraintIsJudgedOnTheWorstSeed() {
        Requirement r = Requirement.parse("failoverP99Seconds<=20");
        PointSummary p = new PointSummary(new Point(0, List.of()), List.of(row(0, 1, 10, 0), row(0, 2, 30, 0)),
                new Bounds(1, 1, 1, 1));

        assertThat(p.mean("failoverP99Seconds")).isEqualTo(20);
        assertThat(r.met(p)).as("the mean meets it, seed 2 does not").isFalse();
    }

    @Test
    void aMissingFailoverCountsAsNone() {
        Requirement r = Requirement.parse("failoverP99Seconds <= 20");
        PointSummary p = new PointSummary(new Point(0, List.of()), List.of(row(0, 1, Double.NaN, 0)),
                new Bounds(1, 1, 1, 1));

        assertThat(r.margin(p)).isEqualTo(1.0);
    }

    @Test
    void aPointPastABoundForAReasonTheBoundModelsIsNeverRecommended() {
        List<Requirement> req = List.of(Requirement.parse("failoverP99Seconds<=20"));
        PointSummary suspect = new PointSummary(new Point(0, List.of()), List.of(past(row(0, 1, 1, 0), true)),
                new Bounds(1, 1, 1, 1));
        PointSummary plain = summary(1, 15, 0);

        Recommendation.Assessment best = Recommendation.recommend(List.of(suspect, plain), req).orElseThrow();

        assertThat(best.point().point().index()).as("the wider margin of point 0 is not to be trusted").isEqualTo(1);
        assertThat(Recommendation.assess(suspect, req).feasible()).isFalse();
    }

    @Test
    void aPointPastABoundOnlyForReasonsTheBoundLeavesOutIsRecommendedWithThem() {
        List<Requirement> req = List.of(Requirement.parse("failoverP99Seconds<=20"));
        PointSummary downAtOnce = new PointSummary(new Point(0, List.of()),
                List.of(past(row(0, 1, 1, 0), false), row(0, 2, 1, 0)), new Bounds(1, 1, 1, 1));
        PointSummary plain = summary(1, 15, 0);

        Recommendation.Assessment best = Recommendation.recommend(List.of(downAtOnce, plain), req).orElseThrow();

        assertThat(best.point().point().index()).as("its measured figures are what the constraints judge").isEqualTo(0);
        assertThat(best.pastBounds()).as("and the page is told why seed 1 went past the bound").containsOnlyKeys(1L);
    }

    private static ResultRow past(ResultRow r, boolean modelled) {
        return new ResultRow(r.point(), r.seed(), r.values(), r.verdict(), List.of(new Bounds.PastBound(
                Bounds.Bound.FAILOVER, modelled, modelled ? "nothing the bound leaves out happened"
                        : "all 3 replicas down from 593.8 s to 599.7 s")));
    }

    @Test
    void noRequirementsNoRecommendation() {
        assertThat(Recommendation.recommend(List.of(summary(0, 1, 1)), List.of())).isEmpty();
    }

    @Test
    void aMalformedRequirementIsOneClearLine() {
        assertThatThrownBy(() -> Requirement.parse("failover<20")).hasMessageContaining("METRIC<=VALUE")
                .hasMessageNotContaining("\n");
        assertThatThrownBy(() -> Requirement.parse("latency<=20")).hasMessageContaining("no metric called latency")
                .hasMessageContaining("failoverP99Seconds");
        assertThatThrownBy(() -> Requirement.parse("unavailability<=lots")).hasMessageContaining("not a number");
    }

    @Test
    void theWorstSeedIsAViolationFirstThenTheLeastAvailable() {
        ResultRow calm = row(0, 1, 5, 0);
        ResultRow unavailable = withValue(row(0, 2, 5, 0), "unavailability", 0.3);
        ResultRow violated = new ResultRow(0, 3, calm.values(), "VIOLATED");
        PointSummary p = new PointSummary(new Point(0, List.of()), List.of(calm, unavailable, violated),
                new Bounds(1, 1, 1, 1));

        assertThat(p.worst().seed()).isEqualTo(3);
        assertThat(new PointSummary(new Point(0, List.of()), List.of(calm, unavailable), new Bounds(1, 1, 1, 1))
                .worst().seed()).isEqualTo(2);
    }

    private static PointSummary summary(int index, double failoverP99, double losses) {
        return new PointSummary(new Point(index, List.of()), List.of(row(index, 1, failoverP99, losses)),
                new Bounds(1, 1, 1, 1));
    }

    static ResultRow row(int point, long seed, double failoverP99, double losses) {
        Map<String, Double> v = new LinkedHashMap<>();
        TuningMetrics.NAMES.forEach(n -> v.put(n, 0.0));
        Bounds.MEASURES.forEach(n -> v.put(n, Double.NaN));
        v.put("failoverP99Seconds", failoverP99);
        v.put("renewalLossesPerHour", losses);
        return new ResultRow(point, seed, v, "SAFE");
    }

    private static ResultRow withValue(ResultRow r, String name, double value) {
        Map<String, Double> v = new LinkedHashMap<>(r.values());
        v.put(name, value);
        return new ResultRow(r.point(), r.seed(), v, r.verdict());
    }

    @Test
    void aRequirementPrintsItsLimitAsTheUserWroteIt() {
        assertThat(Requirement.parse("unavailability<=0.2")).as("not 0.2000000000000000111…")
                .hasToString("unavailability<=0.2");
        assertThat(Requirement.parse("failoverP99Seconds>=15")).hasToString("failoverP99Seconds>=15");
    }
}
