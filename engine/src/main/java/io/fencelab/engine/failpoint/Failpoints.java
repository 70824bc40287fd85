package io.fencelab.engine.failpoint;

/**
 * The failpoint seam: a store's statement code calls {@link #reached} at every {@link Failpoint}, with
 * the session the statement runs (or ran) on. Nothing is installed in production; tests install one
 * through {@code Run.armFailpoint}, which decides what happens there (a killed connection, a database
 * restart, a paused holder).
 *
 * @param <S> the session type of the store that reaches the points (the store's {@code StoreSession})
 */
@FunctionalInterface
public interface Failpoints<S> {

    /** The statement code is at {@code point}; may stall, kill {@code session}, or stop the database. */
    void reached(Failpoint point, S session);
}
