package io.fencelab.report;

/** How a resource answered a write, as a timeline marks it. */
public enum WriteKind {
    /** Applied, with a token at least as new as any the resource had accepted. */
    ACCEPTED,
    /** Refused because the resource had accepted a newer token: fencing doing its job. */
    REJECTED_STALE,
    /** Refused because the resource does not exist and the target does not create it. */
    MISSING,
    /** Refused because, under the same token, a later operation was already applied. */
    OUT_OF_ORDER,
    /**
     * Applied although the resource had already accepted a higher token: a stale write that got
     * through (possible only without fencing, or with tokens that do not order holders).
     */
    OVERWROTE_NEWER
}
