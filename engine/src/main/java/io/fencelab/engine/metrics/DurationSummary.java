package io.fencelab.engine.metrics;

/**
 * A distribution of durations in microseconds. Percentiles are exact, by nearest rank over every
 * stored value (the smallest value with at least p% of values at or below it); all zero when
 * {@code count} is 0.
 */
public record DurationSummary(long count, long p50Micros, long p99Micros, long maxMicros) {

    public static final DurationSummary EMPTY = new DurationSummary(0, 0, 0, 0);
}
