package io.fencelab.app.cli;

/** Exit codes of every {@code fencelab} command. */
public final class ExitCodes {
    /** Done, and (for runs) the verdict matched the expectation. */
    public static final int OK = 0;
    /** The run finished but its verdict did not match the scenario's expectation. */
    public static final int UNEXPECTED_VERDICT = 1;
    /** Bad input or usage. */
    public static final int BAD_INPUT = 2;
    /** The run could not complete, for example because the database went away. */
    public static final int RUN_INCOMPLETE = 3;
    /**
     * {@code check}: the log has no {@code RunEnded} (it was cut short) and shows no violation in
     * what it holds, so SAFE only means "safe so far". A violation in a cut log is still 1.
     */
    public static final int LOG_INCOMPLETE = 4;

    private ExitCodes() {
    }
}
