package io.fencelab.engine.metrics;

import java.util.List;

/**
 * A run's metrics at one moment, as plain immutable data for charts, CSV and summary.json.
 *
 * @param totals             counts over the whole log so far
 * @param perSecond          one entry per second of run time from the first to the last second
 *                           of any event seen, quiet seconds included with zero counts, so a chart's
 *                           x axis has no holes
 * @param rejectionsByHolder holders with at least one refused write, ordered by holder name
 * @param pauses             {@code PauseStarted.durationMicros}
 * @param writeLatency       from each {@code WriteAttempted} to its outcome event
 */
public record MetricsSnapshot(EventCounts totals, List<SecondCounts> perSecond,
                              List<HolderRejections> rejectionsByHolder, DurationSummary pauses,
                              DurationSummary writeLatency) {

    public MetricsSnapshot {
        perSecond = List.copyOf(perSecond);
        rejectionsByHolder = List.copyOf(rejectionsByHolder);
    }
}
