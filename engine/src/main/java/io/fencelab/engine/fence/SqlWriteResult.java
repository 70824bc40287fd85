package io.fencelab.engine.fence;

/**
 * One write to a user's fence: what its statement said, the outcome the run records (for
 * {@link Said#REFUSED}, stale or missing as the read-back shows), and the row read back in the same
 * transaction. {@link #contradiction()} is non-null when the statement's answer and the row disagree.
 */
public record SqlWriteResult(Said said, WriteOutcome outcome, ReadBack readBack, String contradiction) {}
