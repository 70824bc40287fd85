package io.fencelab.engine.fence;

/** What the user's statement answered, read by its {@link OutcomeRule}. */
public enum Said {
    ACCEPTED,
    STALE,
    MISSING,
    /** Not accepted, and the rule declares neither stale nor missing: the read-back tells which. */
    REFUSED
}
