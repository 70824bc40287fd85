package io.fencelab.engine.metrics;

/**
 * One lease loss as {@code leaseLossesPerHour} counts it: a living holder lost a lease it still
 * believed it held, other than by its own release or a crash.
 *
 * @param atMicros       when the loss was first reported (the expiry, the refused renewal, the step-down)
 * @param scope          the lease's scope
 * @param holder         the holder that lost it
 * @param token          the lost lease's token
 * @param kind           {@link Kind#PAUSE} when the holder was paused since its last successful renewal, else {@link Kind#RENEWAL}
 * @param reason         how it was lost
 * @param pauseMicros    the length of the pause behind a pause loss (the longest since the last renewal), or null
 * @param nextHolderAfterMicros how long after the loss the next holder was granted the scope, or null when
 *                       the run ended first
 */
public record LeaseLoss(long atMicros, String scope, String holder, long token, Kind kind, Reason reason,
                        Long pauseMicros, Long nextHolderAfterMicros) {

    /** The split of {@code leaseLossesPerHour}: {@code pauseLossesPerHour} and {@code renewalLossesPerHour}. */
    public enum Kind { PAUSE, RENEWAL }

    /** How the lease was lost. */
    public enum Reason {
        /** It expired on the service while the holder still believed it held it. */
        EXPIRED,
        /** The service refused a renewal. */
        RENEWAL_REFUSED,
        /** The holder stepped down at its renew deadline with the lease still valid. */
        RENEW_DEADLINE
    }
}
