package io.fencelab.engine.store;

import io.fencelab.engine.fence.WriteOutcome;

/**
 * A write's outcome, and for a user's SQL fence what its statement said and, when the row read back
 * contradicts it, what the row holds ({@code contradiction} is then one sentence; null otherwise).
 */
public record CheckedWrite(WriteOutcome outcome, String said, String heldToken, String contradiction) {

    /** A built-in target's write: its outcome is the database function's own report, nothing to read back. */
    public static CheckedWrite of(WriteOutcome outcome) {
        return new CheckedWrite(outcome, null, null, null);
    }
}
