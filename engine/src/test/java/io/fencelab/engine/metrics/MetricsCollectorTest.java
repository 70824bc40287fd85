package io.fencelab.engine.metrics;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.fencelab.engine.event.Event;
import io.fencelab.engine.resource.TargetKind;
import io.fencelab.testing.LogBuilder;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

/** Metrics of hand-built logs, checked number by number. */
class MetricsCollectorTest {

    private static final TargetKind ROW = TargetKind.ROW;

    /** The paused-holder story, fenced, with renewals and one out-of-order write. */
    private static List<Event> story() {
        LogBuilder log = new LogBuilder();
        log.runStarted();                                                  // second 0
        log.acquired(0.1, "A", "report", 41, 30);                          // 0: acquisition
        log.renewed(0.5, "A", "report", 41, 30.5);                         // 0: renewal
        log.attempted(5, "A", "report", 41, ROW, "report-1");              // 5
        log.accepted(5.002, "A", "report", 41, ROW, "report-1", "a");      // 5: accepted, 2 ms
        log.pauseStarted(10, "A", 35);                                     // 10: pause 35 s
        log.expired(30.5, "A", "report", 41);                              // 30
        log.acquired(31, "B", "report", 42, 61);                           // 31: acquisition
        log.attempted(35, "B", "report", 42, ROW, "report-1");             // 35
        log.accepted(35.004, "B", "report", 42, ROW, "report-1", "b");     // 35: accepted, 4 ms
        log.attempted(35.5, "B", "report", 42, ROW, "report-2");
        log.outOfOrder(35.51, "B", "report", 42, ROW, "report-2", 1, 3);   // 35: out of order, 10 ms
        log.pauseEnded(45, "A");
        log.renewalFailed(45, "A", "report", 41);                          // 45: renewal failure
        log.attempted(45.1, "A", "report", 41, ROW, "report-1");
        log.rejectedStale(45.101, "A", "report", 41, ROW, "report-1", 42); // 45: stale, 1 ms
        log.pauseStarted(46, "B", 0.2);                                    // 46: pause 0.2 s
        log.runEnded(47);
        return log.events();
    }

    @Test
    void totalsCountEachKindOfEvent() {
        MetricsSnapshot snapshot = MetricsCollector.summarize(story());

        assertThat(snapshot.totals()).as("acquisitions, renewals, renewal failures, stale rejections, accepted writes")
                .isEqualTo(new EventCounts(2, 1, 1, 1, 2));
    }

    @Test
    void perSecondSeriesIsDenseFromFirstToLastSecond() {
        MetricsSnapshot snapshot = MetricsCollector.summarize(story());

        assertThat(snapshot.perSecond()).as("seconds 0..47, quiet ones included").hasSize(48);
        assertThat(snapshot.perSecond()).extracting(SecondCounts::second).startsWith(0L, 1L).endsWith(46L, 47L);
        assertThat(snapshot.perSecond().get(0).counts()).isEqualTo(new EventCounts(1, 1, 0, 0, 0));
        assertThat(snapshot.perSecond().get(5).counts()).isEqualTo(new EventCounts(0, 0, 0, 0, 1));
        assertThat(snapshot.perSecond().get(31).counts()).isEqualTo(new EventCounts(1, 0, 0, 0, 0));
        assertThat(snapshot.perSecond().get(35).counts()).isEqualTo(new EventCounts(0, 0, 0, 0, 1));
        assertThat(snapshot.perSecond().get(45).counts()).isEqualTo(new EventCounts(0, 0, 1, 1, 0));
        assertThat(snapshot.perSecond().get(20).counts()).as("a quiet second").isEqualTo(EventCounts.ZERO);
    }

    @Test
    void rejectionsAreCountedPerHolder() {
        MetricsSnapshot snapshot = MetricsCollector.summarize(story());

        assertThat(snapshot.rejectionsByHolder()).as("A was refused as stale, B out of order; ordered by holder")
                .containsExactly(new HolderRejections("A", 1, 0), new HolderRejections("B", 0, 1));
    }

    @Test
    void pausesAndWriteLatenciesAreSummarized() {
        MetricsSnapshot snapshot = MetricsCollector.summarize(story());

        assertThat(snapshot.pauses()).as("pauses of 35 s and 0.2 s")
                .isEqualTo(new DurationSummary(2, 200_000, 35_000_000, 35_000_000));
        assertThat(snapshot.writeLatency()).as("writes answered in 2, 4, 10 and 1 ms")
                .isEqualTo(new DurationSummary(4, 2_000, 10_000, 10_000));
    }

    @Test
    void percentilesAreExactByNearestRank() {
        List<Long> durations = new ArrayList<>();
        for (long d = 1; d <= 200; d++) {
            durations.add(d);
        }
        Collections.shuffle(durations, new Random(7));
        LogBuilder log = new LogBuilder();
        MetricsCollector collector = new MetricsCollector();
        for (long d : durations) {
            collector.accept(List.of(log.pauseStarted(1, "A", d / 1e6)));
            collector.snapshot();   // interleaved snapshots must not disturb the stored values
        }

        assertThat(collector.snapshot().pauses()).as("1..200 µs: the 100th and 198th smallest, and the largest")
                .isEqualTo(new DurationSummary(200, 100, 198, 200));
    }

    @Test
    void emptyLogHasEmptyMetrics() {
        MetricsSnapshot snapshot = MetricsCollector.summarize(List.of());

        assertThat(snapshot).isEqualTo(new MetricsSnapshot(EventCounts.ZERO, List.of(), List.of(),
                DurationSummary.EMPTY, DurationSummary.EMPTY));
    }

    @Test
    void retriedWriteIsTimedFromItsLatestAttempt() {
        LogBuilder log = new LogBuilder();
        log.attempted(1, "A", "s", 1, ROW, "r");
        log.attempted(9, "A", "s", 1, ROW, "r");          // the first attempt got no answer
        log.accepted(9.003, "A", "s", 1, ROW, "r", "x");
        log.accepted(9.5, "A", "s", 1, ROW, "r", "y");    // no open attempt: not timed

        assertThat(MetricsCollector.summarize(log.events()).writeLatency())
                .as("3 ms, not the 8 s since an attempt that was never answered")
                .isEqualTo(new DurationSummary(1, 3_000, 3_000, 3_000));
    }

    @Test
    void eventsAlreadyCountedAreRefused() {
        List<Event> events = story();
        MetricsCollector collector = new MetricsCollector();
        collector.accept(events.subList(0, 5));

        assertThatThrownBy(() -> collector.accept(events.subList(4, 6)))
                .as("a replayed event would be counted twice")
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("seq 5 is not after seq 5");
    }
}
