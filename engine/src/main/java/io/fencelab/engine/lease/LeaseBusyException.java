package io.fencelab.engine.lease;

/** The scope is held by someone else; see {@link #busy()} for who and until when. */
public final class LeaseBusyException extends RuntimeException {
    private final AcquireResult.Busy busy;

    public LeaseBusyException(AcquireResult.Busy busy) {
        super("scope '" + busy.scope() + "' is held by " + busy.holder() + " (token " + busy.token()
                + ") until " + busy.expiresAt());
        this.busy = busy;
    }

    public AcquireResult.Busy busy() {
        return busy;
    }
}
