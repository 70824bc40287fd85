package io.fencelab.engine.fence;

/** The resource's answer to a fenced write, decided in one round trip. A closed set. */
public sealed interface WriteOutcome {

    /** Applied: the token was at least the highest the resource had accepted. */
    record Accepted(long token) implements WriteOutcome {}

    /** Refused: a newer holder has written; {@code highest} is the greatest token the resource accepted. */
    record Stale(long presented, long highest) implements WriteOutcome {}

    /** Refused: the resource does not exist and the target's policy does not create it. */
    record Missing(String key) implements WriteOutcome {}

    /**
     * Refused: same token, but the operation sequence number is not greater than the last one applied
     * under that token. The token orders generations; the sequence orders writes within one.
     */
    record OutOfOrder(long token, long presentedSeq, long highestSeq) implements WriteOutcome {}
}
