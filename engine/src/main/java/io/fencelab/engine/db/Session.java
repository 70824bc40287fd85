package io.fencelab.engine.db;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.HashMap;
import java.util.Map;
import java.util.function.Consumer;

/**
 * One database connection with its prepared statements kept ready, as a long-lived worker process
 * would hold. The engine's hot statements (acquire, renew, release, fenced write) run through a
 * session as plain JDBC so that the engine adds next to nothing to what PostgreSQL itself costs.
 * Not thread-safe: one session per worker thread.
 */
public final class Session implements AutoCloseable {

    private final Connection connection;
    private final boolean owned;
    /** Takes a connection out of its pool for good; null for a borrowed connection. */
    private final Consumer<Connection> evict;
    private final Map<String, PreparedStatement> statements = new HashMap<>();
    private volatile boolean terminated;

    private Session(Connection connection, boolean owned, Consumer<Connection> evict) {
        this.connection = connection;
        this.owned = owned;
        this.evict = evict;
    }

    /** A session on a fresh pooled connection; closing it returns the connection, or {@code evict}s it once terminated. */
    static Session open(Connection connection, Consumer<Connection> evict) {
        return new Session(connection, true, evict);
    }

    /** A session on a connection someone else owns (for example inside their transaction); close leaves it open. */
    public static Session borrowing(Connection connection) {
        return new Session(connection, false, null);
    }

    /**
     * Its backend was terminated: on close the connection leaves the pool instead of going back to
     * it. The pool cannot tell by itself (a connection back from a worker is handed out again
     * without a check), so the next borrower, another run's reachability check for one, would get
     * a dead connection and take the database for gone.
     */
    public void markTerminated() {
        terminated = true;
    }

    public boolean isTerminated() {
        return terminated;
    }

    /** The statement for {@code sql}, prepared once per session. */
    public PreparedStatement prepared(String sql) throws SQLException {
        PreparedStatement ps = statements.get(sql);
        if (ps == null) {
            ps = connection.prepareStatement(sql);
            statements.put(sql, ps);
        }
        return ps;
    }

    public Connection connection() {
        return connection;
    }

    /** The PostgreSQL backend process id of this session (a fault can terminate it). */
    public int backendPid() throws SQLException {
        try (ResultSet rs = prepared("SELECT pg_backend_pid()").executeQuery()) {
            rs.next();
            return rs.getInt(1);
        }
    }

    @Override
    public void close() {
        for (PreparedStatement ps : statements.values()) {
            try {
                ps.close();
            } catch (SQLException ignored) {
                // the connection may already be gone; nothing is left to release
            }
        }
        statements.clear();
        if (owned) {
            try {
                connection.close();
            } catch (SQLException ignored) {
                // returning a broken connection to the pool fails harmlessly; the pool discards it
            }
            if (terminated) {
                // After the close, not before: evicting a connection still in use closes it at once,
                // and the pool then warns of closing it twice.
                evict.accept(connection);
            }
        }
    }
}
