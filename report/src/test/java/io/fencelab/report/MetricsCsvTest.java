package io.fencelab.report;

import static org.assertj.core.api.Assertions.assertThat;

import io.fencelab.engine.event.Event;
import io.fencelab.engine.metrics.MetricsCollector;
import io.fencelab.engine.metrics.MetricsSnapshot;
import java.util.List;
import org.junit.jupiter.api.Test;

class MetricsCsvTest {

    @Test
    void oneHeaderThenOneCrlfRowPerSecondQuietSecondsIncluded() {
        MetricsSnapshot m = MetricsCollector.summarize(List.of(
                new Event.LeaseAcquired(1, 0, "A", "s", 1, 1, 9_000_000),
                new Event.LeaseAcquired(2, 200_000, "B", "t", 1, 1, 9_000_000),
                new Event.LeaseRenewed(3, 3_500_000, "A", "s", 1, 12_000_000),
                new Event.RunEnded(4, 4_000_000, "completed")));

        String csv = MetricsCsv.render(m.perSecond());

        assertThat(csv).isEqualTo("""
                second,acquisitions,renewals,renewal_failures,stale_rejections,accepted_writes\r
                0,2,0,0,0,0\r
                1,0,0,0,0,0\r
                2,0,0,0,0,0\r
                3,0,1,0,0,0\r
                4,0,0,0,0,0\r
                """);
        assertThat(csv.split("\r\n")).hasSize(1 + m.perSecond().size());
    }

    @Test
    void anEmptyRunIsJustTheHeader() {
        assertThat(MetricsCsv.render(List.of())).isEqualTo(MetricsCsv.HEADER + "\r\n");
    }
}
