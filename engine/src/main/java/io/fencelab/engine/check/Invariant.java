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
    FINAL_STATE_MISMATCH
}
