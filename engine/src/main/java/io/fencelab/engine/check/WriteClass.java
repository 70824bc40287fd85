package io.fencelab.engine.check;

/**
 * What a write outcome means for safety, as the checker decides it once for every reader (the
 * timeline, the verdict text, the console, the reports).
 */
public enum WriteClass {
    /** Applied, and newer than (or as new as) everything the resource had applied before it. */
    ACCEPTED,
    /**
     * Applied over newer work: the resource had already applied a write from a later grant. Possible
     * only without fencing, or with tokens that do not order holders (a broken scheme or transport).
     */
    STALE_OVERWRITE,
    /** Refused because the resource had accepted a newer token: the fence doing its job. */
    REJECTED_STALE,
    /** Refused because the resource does not exist and the target does not create it. */
    MISSING,
    /** Refused because, under the same token, a later operation was already applied. */
    OUT_OF_ORDER
}
