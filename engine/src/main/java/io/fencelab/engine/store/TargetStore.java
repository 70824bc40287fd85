package io.fencelab.engine.store;

import io.fencelab.engine.fence.FencingMode;
import io.fencelab.engine.fence.FirstWritePolicy;
import io.fencelab.engine.fence.WriteOutcome;
import io.fencelab.engine.resource.TargetKind;

/**
 * One fenced destination of a run, written in one mode, as a worker uses it: the write of
 * {@link io.fencelab.engine.fence.FencedTarget} with its exact {@link WriteOutcome} (the token an
 * accepted write replaced included).
 *
 * @param <V> {@code String} for rows and pointers, {@code byte[]} for objects
 */
public interface TargetStore<V> {

    TargetKind kind();

    FencingMode mode();

    FirstWritePolicy firstWritePolicy();

    /** Writes {@code value} under {@code token}; {@code seq} (nullable) orders writes within one token. */
    WriteOutcome write(StoreSession session, String scope, String key, long token, Long seq, V value);

    /**
     * As {@link #write}, with what a user's fence read back when its row contradicts its statement's
     * answer. Built-in targets' answers come from the write itself, so they have nothing to add.
     */
    default CheckedWrite writeChecked(StoreSession session, String scope, String key, long token, Long seq, V value) {
        return CheckedWrite.of(write(session, scope, key, token, seq, value));
    }

    /** Runs between the check and the write in {@link FencingMode#CHECK_THEN_WRITE}. */
    void setBetweenCheckAndWrite(Runnable hook);
}
