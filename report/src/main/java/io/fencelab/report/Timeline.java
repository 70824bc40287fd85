package io.fencelab.report;

import io.fencelab.engine.check.Judgement;
import io.fencelab.engine.check.Verdict;
import io.fencelab.engine.check.Witness;
import io.fencelab.engine.event.Event;
import io.fencelab.engine.resource.ResourceId;
import java.util.List;
import java.util.Optional;

/**
 * What a run looked like over time, as plain data for a report or the console to draw: a lane per
 * holder (held, believed, the gap between, pauses, faults, write outcomes), a lane per fenced
 * resource (the highest accepted token as a step series, write outcomes), faults on the database,
 * settings changed during a live run, and the witnesses to highlight. Built from the events and their
 * judgement, so a saved log (judged again) gives the same picture as the live run did.
 *
 * <p>Lanes come in order of first appearance in the log, spans by kind then start, marks by time.
 * Times are run microseconds; spans still open at the end are closed at {@code runMicros}.
 *
 * @param runMicros    the run's length: {@code RunEnded}'s time (or the last event's, if later or absent)
 * @param globalFaults faults whose {@code appliesTo} is {@code database}
 * @param changes      settings changed while the run ran, in time order
 * @param bucketMicros 0 for full detail; in an {@link #aggregated} timeline, the width of its buckets
 */
public record Timeline(long runMicros, List<HolderLane> holders, List<ResourceLane> resources,
                       List<Span.Fault> globalFaults, List<Change> changes, Highlights highlights,
                       long bucketMicros) {

    public Timeline {
        holders = List.copyOf(holders);
        resources = List.copyOf(resources);
        globalFaults = List.copyOf(globalFaults);
        changes = List.copyOf(changes);
    }

    /** A setting changed while a live run ran ({@code SettingChanged}): drawn as a line across every lane. */
    public record Change(long atMicros, long seq, String setting, String from, String to) {

        /** {@code leaseTtl 10s → 5s}, {@code fault added: …}, {@code fault removed: …}. */
        public String text() {
            if (from == null) {
                return setting + " added: " + to;
            }
            if (to == null) {
                return setting + " removed: " + from;
            }
            return setting + " " + from + " \u2192 " + to;
        }
    }

    /**
     * The timeline of a log, in full detail, with its judgement's write classes and witnesses (the
     * judgement of exactly these events, or of fewer while a run goes on: writes not judged yet are
     * drawn as accepted). A {@link TimelineBuilder} fed the same events batch by batch gives the same
     * timeline without reading the earlier events again.
     */
    public static Timeline from(List<? extends Event> events, Judgement judgement) {
        return TimelineBuilder.build(events, judgement);
    }

    /** This timeline with {@code verdict}'s witnesses highlighted instead of the current ones. */
    public Timeline highlight(Verdict verdict) {
        return highlight(verdict.witnesses());
    }

    public Timeline highlight(List<Witness> witnesses) {
        return new Timeline(runMicros, holders, resources, globalFaults, changes, highlights.with(witnesses),
                bucketMicros);
    }

    /**
     * A timeline small enough to draw: in each lane with more than {@code maxMarksPerLane} marks, the
     * marks are counted per kind in time buckets ({@code runMicros / maxMarksPerLane} wide), except
     * highlighted writes, which stay individual; spans of a kind beyond the limit are coalesced the
     * same way, and resource step series keep the last step per bucket. Lanes within the limit are
     * unchanged. The full detail stays in the event log.
     */
    public Timeline aggregated(int maxMarksPerLane) {
        return TimelineAggregator.aggregate(this, maxMarksPerLane);
    }

    /** As {@link #aggregated(int)}, keeping the detail within {@code detail} (the report's zoom windows). */
    Timeline aggregated(int maxMarksPerLane, List<TimelineZoom.Window> detail) {
        return TimelineAggregator.aggregate(this, maxMarksPerLane, detail);
    }

    public boolean isAggregated() {
        return bucketMicros > 0;
    }

    /**
     * Where a view draws {@code span} to while the run goes on and its playhead is at {@code nowMicros}:
     * a span still open at the end of the log (a pause, a lease or belief still held, a fault not yet
     * healed) runs on to the playhead, so time is seen passing while nothing is logged; any other span
     * ends where it ends. A finished run passes its end (or 0), which changes nothing.
     */
    public long drawnEnd(Span span, long nowMicros) {
        return span.openAtEnd() && span.endMicros() >= runMicros ? Math.max(span.endMicros(), nowMicros)
                : span.endMicros();
    }

    /** Whether any span is still open at the end of the log (then a live view draws it on to the playhead). */
    public boolean hasOpenSpans() {
        return holders.stream().anyMatch(l -> l.spans().stream().anyMatch(s -> s.openAtEnd() && s.endMicros() >= runMicros))
                || globalFaults.stream().anyMatch(s -> s.openAtEnd() && s.endMicros() >= runMicros);
    }

    public Optional<HolderLane> holder(String name) {
        return holders.stream().filter(l -> l.holder().equals(name)).findFirst();
    }

    public Optional<ResourceLane> resource(ResourceId id) {
        return resources.stream().filter(l -> l.resource().equals(id)).findFirst();
    }
}
