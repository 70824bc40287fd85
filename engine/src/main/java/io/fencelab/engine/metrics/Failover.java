package io.fencelab.engine.metrics;

/**
 * One failover of a scope, for the "why it scored so" tables: a holder stopped serving the scope
 * (it crashed, stepped down, or lost the lease while it still believed it held it) and, unless the run
 * ended first, another holder was granted the scope afterwards. {@code docs/TUNING.md} (## Metrics)
 * says where a failover starts for each cause.
 *
 * @param scope       the scope that failed over
 * @param fromMicros  when the old holder stopped serving it (the crash, the step-down, or the start of
 *                    the pause during which its lease expired)
 * @param toMicros    when the scope was next granted (to anyone, the same holder included), or null when
 *                    the run ended first (then it is in no percentile)
 * @param lostBy      the holder that stopped serving it
 * @param nextHolder  the holder granted it next, or null when the run ended first
 * @param cause       why the old holder stopped serving it
 * @param behind      the pause or fault behind it, in words ({@code "pause of 15.19s (pause fault)"},
 *                    {@code "fault RENEWAL_LOSS on A"}, {@code "fault CRASH on B"}), or null when none is known
 */
public record Failover(String scope, long fromMicros, Long toMicros, String lostBy, String nextHolder, Cause cause,
                       String behind) {

    /** Why a holder stopped serving its scope. */
    public enum Cause {
        /** Its process crashed. */
        CRASH,
        /**
         * It gave the lease up while the service still had it for it (renew deadline, refused renewal,
         * stale answer, its own clock).
         */
        STEP_DOWN,
        /** Its lease expired while it still believed it held it (during a pause, or after late or dropped renewals). */
        LEASE_LOST
    }

    /** How long the scope waited for its next holder, or null when the run ended first. */
    public Long micros() {
        return toMicros == null ? null : toMicros - fromMicros;
    }
}
