package io.fencelab.engine.postgres;

import io.fencelab.engine.db.Session;
import io.fencelab.engine.store.StoreSession;

/**
 * A worker's session as the store's ports hand it out: the {@link Session} its statements run on.
 * A class of the adapter rather than {@code Session} itself, so that {@code db} knows nothing of the
 * store; a killed session is the same object a failpoint is reached with.
 */
final class PostgresSession implements StoreSession {

    private final Session session;

    PostgresSession(Session session) {
        this.session = session;
    }

    Session session() {
        return session;
    }

    @Override
    public void close() {
        session.close();
    }
}
