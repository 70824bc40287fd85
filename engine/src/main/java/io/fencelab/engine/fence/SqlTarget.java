package io.fencelab.engine.fence;

import io.fencelab.engine.db.Session;
import io.fencelab.engine.resource.ResourceState;
import java.util.List;

/**
 * A user's fence in its run's scratch schema: sends the user's write with the run's parameters, reads
 * its answer by the {@link OutcomeRule}, and reads the row back in the same transaction. Thread-safe
 * (a session itself is not).
 */
public final class SqlTarget {
    // API agreed for issue 22; implementation by the fence helper.

    /** The fence as declared. */
    public SqlFence fence() {
        throw new UnsupportedOperationException("not yet");
    }

    /**
     * Writes {@code body} under {@code token} to {@code key} in {@code scope} on {@code session}
     * (autocommit on entry and on return). The statements run with {@code search_path} set to the
     * scratch schema only. {@code atGap} runs between the statements of a several-statement write
     * (check-then-write), where a real race happens.
     */
    public SqlWriteResult write(Session session, String scope, String key, long token, Long seq, String body,
                                Runnable atGap) {
        throw new UnsupportedOperationException("not yet");
    }

    /** The row of {@code key} in {@code scope} as the read statement finds it now. */
    public ReadBack read(Session session, String scope, String key) {
        throw new UnsupportedOperationException("not yet");
    }

    /**
     * Every (scope, key) this target was asked to write, read back, as the final-state check reads
     * resources: target {@code SQL}, key {@code <fence name>:<key>}, token parsed exactly (a token that
     * is not an exact integer is reported as the nearest, and the check finds the difference).
     */
    public List<ResourceState> finalState() {
        throw new UnsupportedOperationException("not yet");
    }

    /**
     * As {@link #write} (one transaction for every statement here, no gap), with the read-back inside
     * it, then rolled back instead of committed: what a caller's transaction that fails after the write
     * leaves. The probe's rollback item uses it.
     */
    public SqlWriteResult writeRolledBack(Session session, String scope, String key, long token, Long seq,
                                          String body) {
        throw new UnsupportedOperationException("not yet");
    }
}
