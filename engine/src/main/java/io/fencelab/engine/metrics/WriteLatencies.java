package io.fencelab.engine.metrics;

import io.fencelab.engine.event.Event;
import io.fencelab.engine.resource.TargetKind;
import java.util.HashMap;
import java.util.Map;

/**
 * Pairs each write outcome with the {@code WriteAttempted} it answers (same holder, scope, target,
 * key and token) and records the time between them.
 *
 * <p>Only the latest open attempt per write is kept: a holder that attempts the same write again
 * got no answer to the earlier attempt (its connection was killed, say), and pairing the new
 * outcome with that older attempt would report the outage as write latency.
 */
final class WriteLatencies {

    private record WriteId(String holder, String scope, TargetKind target, String key, long token) {}

    private final Map<WriteId, Long> openAttempts = new HashMap<>();
    private final ExactDistribution latencies = new ExactDistribution();

    void attempted(Event.WriteAttempted attempt) {
        openAttempts.put(new WriteId(attempt.holder(), attempt.scope(), attempt.target(), attempt.key(), attempt.token()),
                attempt.atMicros());
    }

    /** An outcome (accepted, stale, missing or out of order) at {@code atMicros}. Without an open attempt it is not timed. */
    void answered(String holder, String scope, TargetKind target, String key, long token, long atMicros) {
        Long attemptedAt = openAttempts.remove(new WriteId(holder, scope, target, key, token));
        if (attemptedAt != null) {
            latencies.add(atMicros - attemptedAt);
        }
    }

    DurationSummary summary() {
        return latencies.summary();
    }
}
