package io.fencelab.engine.failpoint;

import java.util.function.Supplier;

/**
 * Where a store's statement code reaches its failpoints: what a test installed, or nothing (a null
 * field, checked at each point, so production pays one read).
 *
 * <p>Installed before the run starts, so the threads that then run statements see it without a
 * volatile read.
 *
 * @param <S> the store's session type
 */
public final class FailpointHook<S> {

    private static final Runnable NOTHING = () -> { };

    private Failpoints<S> installed;

    /** Installs the seam (tests only), before any statement of the run. */
    public void install(Failpoints<S> failpoints) {
        this.installed = failpoints;
    }

    /** The statement code on {@code session} is at {@code point}. */
    public void reached(Failpoint point, S session) {
        Failpoints<S> f = installed;
        if (f != null) {
            f.reached(point, session);
        }
    }

    /**
     * Runs one statement on {@code session} between its two points: {@code after} only once the
     * statement has answered (one that throws never reaches it).
     */
    public <T> T around(Failpoint before, Failpoint after, S session, Supplier<T> statement) {
        reached(before, session);
        T answer = statement.get();
        reached(after, session);
        return answer;
    }

    /**
     * {@link #reached} as a task, for a point inside a statement's own code (between check and write);
     * with nothing installed, one shared no-op, so production allocates nothing per statement.
     */
    public Runnable at(Failpoint point, S session) {
        Failpoints<S> f = installed;
        return f == null ? NOTHING : () -> f.reached(point, session);
    }
}
