package io.fencelab.engine.check;

/** The safety properties the checker judges a run by. A closed set: reports switch over it. */
public enum Invariant {
    /**
     * The fencing tokens granted in a scope ({@code LeaseAcquired.fencingToken}, what holders present)
     * must strictly increase: a grant at or below an earlier one cannot be ordered after it, so a
     * resource cannot tell the newer holder from the older. Random UUIDs, skewed wall clocks and
     * token sources that go backwards break this.
     */
    NON_MONOTONIC_GRANT,
    /** The lease service's own counter ({@code LeaseAcquired.token}) must strictly increase per scope. */
    NON_MONOTONIC_COUNTER,
    /** A resource accepted a write with a token older than one it had already accepted. */
    STALE_OVERWRITE,
    /** A resource's final state is not the last write accepted under its highest token. */
    FINAL_STATE_MISMATCH,
    /**
     * A write presented a token that no grant in its scope had issued before it
     * ({@code LeaseAcquired.fencingToken}, which is what every token scheme presents, reused or not):
     * a forged or corrupted token, or a log edited after the run.
     */
    UNISSUED_TOKEN,
    /**
     * An accepted write's {@code replacedToken} contradicts the log: the resource had already accepted
     * a newer write, and nothing in the log's chain of replaced tokens puts this write before that one
     * or the replaced token after it. Judged when the log is whole ({@code RunEnded}).
     */
    CONTRADICTORY_REPLACED_TOKEN,
    /**
     * A user's SQL fence said one thing and its row holds another ({@code WriteContradicted}): it
     * reported success for a write that did not apply (or applied under another token), or reported
     * stale or missing for one that did. The statement's answer cannot be trusted, whatever the
     * tokens say.
     */
    OUTCOME_CONTRADICTED
}
