package io.fencelab.engine.metrics;

import io.fencelab.engine.event.Event;
import io.fencelab.engine.event.SeqOrder;
import io.fencelab.engine.metrics.PerSecondCounts.Kind;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * Derives a run's metrics from its events, batch by batch while the run goes on, or from a whole log
 * with {@link #summarize(List)}: the same code either way, so a live chart and the saved summary
 * agree. Not thread-safe: one consumer feeds it; snapshots are immutable and may be handed anywhere.
 */
public final class MetricsCollector {

    private static final String UNNAMED_HOLDER = "(unnamed)";

    private final PerSecondCounts counts = new PerSecondCounts();
    private final Map<String, long[]> rejections = new TreeMap<>();   // holder -> {stale, out of order}
    private final ExactDistribution pauses = new ExactDistribution();
    private final WriteLatencies writes = new WriteLatencies();
    private long lastSeq;

    /** The metrics of a whole log. */
    public static MetricsSnapshot summarize(List<? extends Event> events) {
        MetricsCollector collector = new MetricsCollector();
        collector.accept(events);
        return collector.snapshot();
    }

    /**
     * Counts the next events of the log. The batch may be in any order; it must come after every
     * event already accepted, since a replayed event would be counted twice and write latency pairs
     * attempts with later outcomes.
     *
     * @throws IllegalArgumentException if an event's seq is not after the last one accepted
     */
    public void accept(List<? extends Event> batch) {
        List<Event> ordered = SeqOrder.after(lastSeq, batch, "the metrics");
        for (Event event : ordered) {
            count(event);
            lastSeq = event.seq();
        }
    }

    /** The metrics of the events accepted so far. */
    public MetricsSnapshot snapshot() {
        List<HolderRejections> byHolder = new ArrayList<>(rejections.size());
        rejections.forEach((holder, c) -> byHolder.add(new HolderRejections(holder, c[0], c[1])));
        return new MetricsSnapshot(counts.totals(), counts.series(), byHolder, pauses.summary(), writes.summary());
    }

    private void count(Event event) {
        counts.saw(event.atMicros());
        switch (event) {
            case Event.LeaseAcquired e -> counts.count(Kind.ACQUISITION, e.atMicros());
            case Event.LeaseRenewed e -> counts.count(Kind.RENEWAL, e.atMicros());
            case Event.LeaseRenewalFailed e -> counts.count(Kind.RENEWAL_FAILURE, e.atMicros());
            case Event.PauseStarted e -> pauses.add(e.durationMicros());
            case Event.WriteAttempted e -> writes.attempted(e);
            case Event.WriteAccepted e -> {
                counts.count(Kind.ACCEPTED_WRITE, e.atMicros());
                writes.answered(e.holder(), e.scope(), e.target(), e.key(), e.token(), e.atMicros());
            }
            case Event.WriteRejectedStale e -> {
                counts.count(Kind.STALE_REJECTION, e.atMicros());
                rejected(e.holder())[0]++;
                writes.answered(e.holder(), e.scope(), e.target(), e.key(), e.token(), e.atMicros());
            }
            case Event.WriteOutOfOrder e -> {
                rejected(e.holder())[1]++;
                writes.answered(e.holder(), e.scope(), e.target(), e.key(), e.token(), e.atMicros());
            }
            // Missing is the resource's policy, not a refusal of the holder's authority: timed, not a rejection.
            case Event.WriteMissing e -> writes.answered(e.holder(), e.scope(), e.target(), e.key(), e.token(), e.atMicros());
            case Event.RunStarted ignored -> { }
            case Event.RunEnded ignored -> { }
            case Event.LeaseBusy ignored -> { }
            case Event.LeaseExhausted ignored -> { }
            case Event.LeaseExpired ignored -> { }
            case Event.LeaseReleased ignored -> { }
            case Event.PauseEnded ignored -> { }
            case Event.FaultInjected ignored -> { }
            case Event.FaultHealed ignored -> { }
            case Event.SettingChanged ignored -> { }
            case Event.AgentReport ignored -> { }
            case Event.BeliefStarted ignored -> { }
            case Event.BeliefEnded ignored -> { }
            case Event.OperationFailed ignored -> { }
            // The write's outcome event was counted; this only says the statement's word was false.
            case Event.WriteContradicted ignored -> { }
        }
    }

    private long[] rejected(String holder) {
        return rejections.computeIfAbsent(holder == null ? UNNAMED_HOLDER : holder, h -> new long[2]);
    }
}
