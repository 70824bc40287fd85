package io.fencelab.report;

import static org.assertj.core.api.Assertions.assertThat;

import io.fencelab.engine.event.Event;
import io.fencelab.engine.metrics.MetricsCollector;
import io.fencelab.engine.metrics.MetricsSnapshot;
import io.fencelab.engine.metrics.TuningCollector;
import java.util.List;
import org.junit.jupiter.api.Test;

class MetricsCsvTest {

    /** A on s lets its lease lapse at 2.5 s while C waits; C is granted s at 3.5 s. B holds t throughout. */
    private static final List<Event> LAPSE = List.of(
            new Event.LeaseAcquired(1, 0, "A", "s", 1, 1, 2_500_000),
            new Event.BeliefStarted(2, 0, "A", "s", 1),
            new Event.LeaseAcquired(3, 200_000, "B", "t", 1, 1, 9_000_000),
            new Event.LeaseBusy(4, 1_000_000, "C", "s", "A", 1),
            new Event.LeaseExpired(5, 2_500_000, "A", "s", 1),
            new Event.LeaseAcquired(6, 3_500_000, "C", "s", 2, 2, 9_000_000),
            new Event.BeliefStarted(7, 3_500_000, "C", "s", 2),       // C acts on it: s served again
            new Event.RunEnded(8, 4_000_000, Event.RunEnded.Reason.COMPLETED));

    @Test
    void oneHeaderThenOneCrlfRowPerSecondQuietSecondsIncluded() {
        MetricsSnapshot m = MetricsCollector.summarize(LAPSE);
        TuningCollector tuning = new TuningCollector();
        tuning.accept(LAPSE);

        String csv = MetricsCsv.render(m.perSecond(), tuning.series());

        assertThat(csv).as("s unavailable 2.5 s to 3.5 s, t never: a quarter of seconds 2 and 3 over two scopes")
                .isEqualTo("""
                second,acquisitions,renewals,renewal_failures,stale_rejections,accepted_writes,leader_transitions,lease_losses,lease_requests,unavailable_fraction\r
                0,2,0,0,0,0,0,0,2,0\r
                1,0,0,0,0,0,0,0,1,0\r
                2,0,0,0,0,0,0,1,0,0.25\r
                3,1,0,0,0,0,1,0,1,0.25\r
                4,0,0,0,0,0,0,0,0,0\r
                """);
        assertThat(csv.split("\r\n")).hasSize(1 + m.perSecond().size());
    }

    @Test
    void aSecondTheTuningSeriesLacksHasZeroTuningColumns() {
        MetricsSnapshot m = MetricsCollector.summarize(LAPSE);

        assertThat(MetricsCsv.render(m.perSecond(), List.of())).contains("\r\n3,1,0,0,0,0,0,0,0,0\r\n");
    }

    @Test
    void fractionsArePlainDecimalsWithoutTrailingZeros() {
        assertThat(MetricsCsv.fraction(0)).isEqualTo("0");
        assertThat(MetricsCsv.fraction(1)).isEqualTo("1");
        assertThat(MetricsCsv.fraction(1.0 / 3)).isEqualTo("0.333333");
        assertThat(MetricsCsv.fraction(1e-9)).as("never in exponent form").isEqualTo("0");
    }

    @Test
    void anEmptyRunIsJustTheHeader() {
        assertThat(MetricsCsv.render(List.of(), List.of())).isEqualTo(MetricsCsv.HEADER + "\r\n");
    }
}
