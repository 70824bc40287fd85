package io.fencelab.engine.tune;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ResultsFileTest {

    private static final SweepPlan PLAN = new SweepPlan("s", "d", List.of(new Axis("lease.ttl", AxisKind.DURATION,
            List.of(new AxisValue(10, "10s"), new AxisValue(20, "20s")))), SweepPlan.seeds(1, 2));

    @Test
    void rowsSurviveReopeningAndALineCutShortIsDropped(@TempDir Path dir) throws Exception {
        Path csv = dir.resolve("sweep.csv");
        try (ResultsFile f = ResultsFile.open(csv, PLAN)) {
            f.append(ParetoAndRecommendationTest.row(1, 2, 4.5, 0));
            f.append(ParetoAndRecommendationTest.row(0, 1, Double.NaN, 3));
        }
        Files.writeString(csv, "0,2,10,1.5", StandardOpenOption.APPEND); // killed mid-row

        try (ResultsFile f = ResultsFile.open(csv, PLAN)) {
            assertThat(f.has(1, 2)).isTrue();
            assertThat(f.has(0, 1)).isTrue();
            assertThat(f.has(0, 2)).as("the cut row is done again").isFalse();
            assertThat(f.rows().get(1).value("failoverP99Seconds")).isNaN();
            f.append(ParetoAndRecommendationTest.row(0, 1, 9, 9));
            assertThat(f.rows()).as("a row already there is not doubled").hasSize(2);
            f.finish();
        }
        List<String> lines = Files.readAllLines(csv);
        assertThat(lines.get(0)).startsWith("point,seed,lease.ttl,failoverP50Seconds,").endsWith(",verdict,pastBound");
        assertThat(lines).hasSize(3);
        assertThat(lines.get(1)).as("sorted by point and seed").startsWith("0,1,10,");
        assertThat(lines.get(2)).startsWith("1,2,20,");
    }

    @Test
    void whatTookARunPastABoundSurvivesReopening(@TempDir Path dir) throws Exception {
        Path csv = dir.resolve("sweep.csv");
        ResultRow plain = ParetoAndRecommendationTest.row(0, 1, 30, 0);
        List<Bounds.PastBound> past = List.of(new Bounds.PastBound(Bounds.Bound.FAILOVER, false,
                "a failover of 30.0 s after A crashed at 580.0 s: all 3 replicas down from 593.8 s to 599.7 s"));
        try (ResultsFile f = ResultsFile.open(csv, PLAN)) {
            f.append(new ResultRow(0, 1, plain.values(), "SAFE", past));
        }

        try (ResultsFile f = ResultsFile.open(csv, PLAN)) {
            assertThat(f.rows().getFirst().pastBounds()).as("a resumed sweep still explains its ✗").isEqualTo(past);
        }
    }

    @Test
    void resultsOfAnotherPlanAreRefused(@TempDir Path dir) throws Exception {
        Path csv = dir.resolve("sweep.csv");
        Files.writeString(csv, "point,seed,lease.renewEvery,x\n");

        assertThatThrownBy(() -> ResultsFile.open(csv, PLAN)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("other columns");
    }
}
