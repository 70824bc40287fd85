package io.fencelab.engine.fence;

/** The resource's answer to a fenced write, decided in one round trip. A closed set. */
public sealed interface WriteOutcome {

    /**
     * Applied. {@code replaced} is the token the resource held just before, as the database applied
     * the write (null if the write created the resource): under fencing never above {@code token}.
     */
    record Accepted(long token, Long replaced) implements WriteOutcome {}

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
