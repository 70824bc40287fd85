package io.fencelab.report;

import static org.assertj.core.api.Assertions.assertThat;

import io.fencelab.engine.metrics.TuningMetrics;
import org.junit.jupiter.api.Test;

class TuningTextTest {

    @Test
    void figuresAreWrittenShortWithTheirUnits() {
        TuningMetrics m = new TuningMetrics(3, 5_000_000L, 9_000_000L, 9_250_000L, 0.125,
                new TuningMetrics.Unavailable(0.025, 0.05, 0.05, 0), 12, 2, 10, 0.0416666, 1250.4, 2, 0.7, 60_000_000);

        assertThat(TuningText.rows(m)).extracting(TuningText.Row::value).containsExactly(
                "5.0s", "9.0s", "9.25s", "3", "12.5%", "2.5%", "5%", "5%", "0%", "12 / h", "2 / h",
                "10 / h", "0.0417 / h", "1250 / h", "2", "0.7 / s");
        assertThat(TuningText.span(m)).isEqualTo("over 60.0s of run time");
    }

    @Test
    void aP99OfFewFailoversIsLabelledTheMaxOfTheirCount() {
        TuningMetrics m = new TuningMetrics(3, 5_000_000L, 9_000_000L, 9_250_000L, 0, TuningMetrics.Unavailable.NONE,
                0, 0, 0, 0, 0, 0, 0, 60_000_000);

        assertThat(TuningText.rows(m).get(1).label()).as("the label says what the value is; the value stays a number")
                .isEqualTo("failover time p99 = max of 3");
    }

    @Test
    void aP99OverAHundredFailoversIsNotCalledTheMax() {
        TuningMetrics m = new TuningMetrics(100, 5_000_000L, 9_000_000L, 9_250_000L, 0, TuningMetrics.Unavailable.NONE,
                0, 0, 0, 0, 0, 0, 0, 60_000_000);

        assertThat(TuningText.rows(m).get(1).label()).as("a real percentile from 100 failovers on")
                .isEqualTo("failover time p99");
    }

    @Test
    void aRunWithoutAFailoverSaysSo() {
        assertThat(TuningText.rows(TuningMetrics.NONE)).extracting(TuningText.Row::value)
                .startsWith("no failover", "no failover", "no failover", "0", "0%");
    }

    @Test
    void theSummaryPutsEachHeadlineFigureBesideItsParts() {
        TuningMetrics m = new TuningMetrics(3, 5_000_000L, 9_000_000L, 9_250_000L, 0.125,
                new TuningMetrics.Unavailable(0.025, 0.05, 0.05, 0), 12, 2, 10, 0.0416666, 1250.4, 2, 0.7, 60_000_000);

        assertThat(TuningText.summary(m)).extracting(r -> r.label() + ": " + r.value())
                .as("the labels and values of the Tuning table, grouped").containsExactly(
                        "failovers: 3: p50 5.0s, p99 = max 9.25s",
                        "unavailability: 12.5% (holder frozen 2.5%, awaiting expiry 5%, acquiring 5%, "
                                + "service unreachable 0%)",
                        "lease losses: 12 / h (to a pause 2 / h, to renewals 10 / h)",
                        "leader transitions: 0.0417 / h",
                        "stale writes: 1250 / h");
    }

    @Test
    void theSummaryOfARunWithoutAFailoverGivesNoTimes() {
        assertThat(TuningText.summary(TuningMetrics.NONE).getFirst().value()).as("n only").isEqualTo("0");
    }
}
