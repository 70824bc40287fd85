package io.fencelab.engine.fence;

/** What the user's fence declares for a write whose token equals the greatest it has accepted. */
public enum EqualToken {
    /** {@code fencing_token <= :token}: one holder may write several times under its token (the design note's rule). */
    ACCEPT,
    /** {@code fencing_token < :token}: every write needs a newer token. */
    REJECT
}
