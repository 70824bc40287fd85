package io.fencelab.engine.store;

/**
 * The failpoint seam: the statement code calls {@link #reached} at every {@link Failpoint}, on the
 * session the statement runs (or ran) on. Nothing is installed in production (a null field, checked
 * at each point); tests install one through {@code RunEnvironment.armFailpoint}, which decides what
 * happens there (a killed connection, a database restart, a paused holder).
 */
@FunctionalInterface
public interface Failpoints {

    /** The statement code is at {@code point}; may stall, kill {@code session}, or stop the database. */
    void reached(Failpoint point, StoreSession session);
}
