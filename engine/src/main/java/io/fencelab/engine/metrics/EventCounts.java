package io.fencelab.engine.metrics;

/** How many of each counted event: for a whole run (totals) or for one second of it. */
public record EventCounts(long acquisitions, long renewals, long renewalFailures, long staleRejections,
                          long acceptedWrites) {

    public static final EventCounts ZERO = new EventCounts(0, 0, 0, 0, 0);
}
