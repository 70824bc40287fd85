package io.fencelab.engine.store;

/**
 * What a worker's statements run on: a PostgreSQL connection (the adapter's wrapper of a
 * {@code db.Session}) or an in-memory model's stand-in for one. A connection-kill fault kills one; a killed session
 * fails its next statement, as a terminated backend does.
 */
public interface StoreSession extends AutoCloseable {

    @Override
    void close();
}
