package io.fencelab.engine.failpoint;

/**
 * A statement boundary at which a test can make something go wrong ({@link Failpoints}): immediately
 * before and after each lease statement and each write of a fenced target, and between the two
 * statements of the {@code CHECK_THEN_WRITE} fencing mode. The matrix that uses
 * them is described in {@code docs/RELIABILITY.md}.
 */
public enum Failpoint {
    ACQUIRE_BEFORE(false),
    ACQUIRE_AFTER(true),
    RENEW_BEFORE(false),
    RENEW_AFTER(true),
    RELEASE_BEFORE(false),
    RELEASE_AFTER(true),
    /** Before a target's write in any mode (in {@code CHECK_THEN_WRITE}, before the check). */
    WRITE_BEFORE(false),
    /** After a target's write has answered, in any mode. */
    WRITE_AFTER(true),
    /** {@code CHECK_THEN_WRITE} only: the check has passed, the write is not sent yet. */
    CHECK_THEN_WRITE_BETWEEN(false);

    private final boolean afterStatement;

    Failpoint(boolean afterStatement) {
        this.afterStatement = afterStatement;
    }

    /** Whether the point follows a statement that has answered (its effect is committed and known). */
    public boolean afterStatement() {
        return afterStatement;
    }
}
