package io.fencelab.engine.metrics;

import java.util.ArrayList;
import java.util.List;
import java.util.TreeMap;

/** Counts of the five counted event kinds per second of run time, and over the whole run. */
final class PerSecondCounts {

    enum Kind { ACQUISITION, RENEWAL, RENEWAL_FAILURE, STALE_REJECTION, ACCEPTED_WRITE }

    private final TreeMap<Long, long[]> bySecond = new TreeMap<>();
    private final long[] totals = new long[Kind.values().length];
    private long firstSecond = Long.MAX_VALUE;
    private long lastSecond = Long.MIN_VALUE;

    /** Widens the series to cover this event's second even if nothing in it is counted. */
    void saw(long atMicros) {
        long second = second(atMicros);
        firstSecond = Math.min(firstSecond, second);
        lastSecond = Math.max(lastSecond, second);
    }

    void count(Kind kind, long atMicros) {
        bySecond.computeIfAbsent(second(atMicros), s -> new long[Kind.values().length])[kind.ordinal()]++;
        totals[kind.ordinal()]++;
    }

    EventCounts totals() {
        return counts(totals);
    }

    List<SecondCounts> series() {
        List<SecondCounts> series = new ArrayList<>();
        for (long s = firstSecond; s <= lastSecond && firstSecond != Long.MAX_VALUE; s++) {
            long[] c = bySecond.get(s);
            series.add(new SecondCounts(s, c == null ? EventCounts.ZERO : counts(c)));
        }
        return series;
    }

    /** Floor division, so a (never expected) negative time falls in the second before zero. */
    private static long second(long atMicros) {
        return Math.floorDiv(atMicros, 1_000_000L);
    }

    private static EventCounts counts(long[] c) {
        return new EventCounts(c[Kind.ACQUISITION.ordinal()], c[Kind.RENEWAL.ordinal()],
                c[Kind.RENEWAL_FAILURE.ordinal()], c[Kind.STALE_REJECTION.ordinal()], c[Kind.ACCEPTED_WRITE.ordinal()]);
    }
}
