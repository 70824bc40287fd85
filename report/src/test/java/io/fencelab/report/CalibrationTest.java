package io.fencelab.report;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** The rule for "differs" and the survivable-pause edge, on values chosen by hand. */
class CalibrationTest {

    static Calibration.Figure figure(double tolerance, List<Double> model, List<Double> real) {
        return new Calibration.Figure("failoverSeconds", "failover time", "s", "failover", tolerance, model, real);
    }

    @Test
    void aRealValueInsideTheModelsSpreadAgrees() {
        Calibration.Figure f = figure(0.5, List.of(4.0, 4.2, 4.4, 5.0, 6.0), List.of(4.8));
        assertThat(f.differs()).as("4.8 is within 4.0..6.0 and 4.4 within 4.8 ± 0.5").isEmpty();
    }

    @Test
    void aRealMedianOutsideTheModelsWidenedSpreadDiffers() {
        // model 4..5, widened by max(0.5, 10 % of 4.4) = 0.5 to 3.5..5.5: 6.2 is outside
        Calibration.Figure f = figure(0.5, List.of(4.0, 4.4, 5.0), List.of(6.2, 6.3));
        assertThat(f.differs()).get().asString().contains("real median 6.2").contains("3.5 to 5.5");
    }

    @Test
    void theToleranceAbsorbsTheServicesOwnGranularity() {
        Calibration.Figure f = figure(0.5, List.of(4.0, 4.0, 4.0), List.of(4.45));
        assertThat(f.differs()).as("0.45 s above a model that never varies, within the 0.5 s tolerance").isEmpty();
        assertThat(figure(0.1, List.of(4.0, 4.0, 4.0), List.of(4.45)).differs())
                .as("with 0.1 s the slack is 10 %% of the median, 0.4 s: 4.45 is outside").isPresent();
    }

    @Test
    void aModelMedianOutsideAWideRealSpreadDiffersToo() {
        // the model's spread 0.5..12 holds the real median 11, but the real 8.9..13.1 not the model's median 2
        Calibration.Figure f = figure(0.5, List.of(1.0, 2.0, 2.0, 2.0, 11.5), List.of(10.0, 11.0, 12.0));
        assertThat(f.differs()).get().asString().contains("model's median 2");
    }

    @Test
    void onlyOneSideWithValuesDiffersAndNeitherAgrees() {
        assertThat(figure(0.5, List.of(3.0), List.of()).differs()).contains("only the model has any");
        assertThat(figure(0.5, List.of(), List.of(3.0)).differs()).contains("only the real service has any");
        assertThat(figure(0.5, List.of(), List.of()).differs()).isEmpty();
    }

    @Test
    void spreadsAreNearestRank() {
        Calibration.Spread s = Calibration.Spread.of(List.of(5.0, 1.0, 4.0, 2.0, 3.0, 6.0, 7.0, 8.0, 9.0, 10.0));
        assertThat(s.median()).isEqualTo(5.0);
        assertThat(s.p90()).isEqualTo(9.0);
        assertThat(s.min()).isEqualTo(1.0);
        assertThat(s.max()).isEqualTo(10.0);
        assertThat(s.brief()).isEqualTo("5 / 9 (10)");
    }

    @Test
    void theEdgeIsTheLongestPauseBeforeTheFirstLoss() {
        Calibration c = new Calibration("s", "redis", "Redis 7", "started", "redisson", List.of(1L), List.of(1L),
                "PAUSE on A at 2s", List.of(), List.of(
                        new Calibration.PauseRow(1, 10, 0, 1, 0),
                        new Calibration.PauseRow(3, 10, 0, 1, 1),
                        new Calibration.PauseRow(5, 10, 4, 1, 1),
                        new Calibration.PauseRow(9, 10, 0, 1, 1)));
        assertThat(c.modelEdge()).isEqualTo(new Calibration.Edge(Optional.of(3.0), Optional.of(5.0)));
        assertThat(c.realEdge()).isEqualTo(new Calibration.Edge(Optional.of(1.0), Optional.of(3.0)));
        assertThat(c.realEdge().words()).isEqualTo("survives 1 s, loses at 3 s");
        assertThat(c.edgesAgree()).as("at 3 s only the real service lost").isFalse();
        String page = CalibrationPage.render(c);
        assertThat(page).contains("survives 3 s, loses at 5 s").contains("<span class=\"bad\">differs</span>");
    }
}
