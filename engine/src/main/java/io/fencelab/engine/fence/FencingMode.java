package io.fencelab.engine.fence;

/** How a target applies a write. Only {@link #FENCED} is safe; the others exist to teach why. */
public enum FencingMode {
    /** Compare the token and mutate in one database operation. Stale writes are refused. */
    FENCED,
    /**
     * Broken: read the highest token, then, in a separate statement, write unconditionally. A newer
     * holder can write in between, and the older write then lands on top of it.
     */
    CHECK_THEN_WRITE,
    /** Broken: a blind write that ignores the token (it is stored, never compared). */
    UNFENCED
}
