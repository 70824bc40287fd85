package io.fencelab.engine.fence;

/** What a write does when its resource does not exist yet. */
public enum FirstWritePolicy {
    /** The first write creates the resource and records its token as the highest accepted. */
    CREATE,
    /** Writes only update existing resources; a write to an absent one is answered {@code Missing}. */
    MISSING
}
