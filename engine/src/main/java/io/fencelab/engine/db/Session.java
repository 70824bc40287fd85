package io.fencelab.engine.db;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.HashMap;
import java.util.Map;

/**
 * One database connection with its prepared statements kept ready, as a long-lived worker process
 * would hold. The engine's hot statements (acquire, renew, release, fenced write) run through a
 * session as plain JDBC so that the engine adds next to nothing to what PostgreSQL itself costs.
 * Not thread-safe: one session per worker thread.
 */
public final class Session implements io.fencelab.engine.store.StoreSession {

    private final Connection connection;
    private final boolean owned;
    private final Map<String, PreparedStatement> statements = new HashMap<>();

    private Session(Connection connection, boolean owned) {
        this.connection = connection;
        this.owned = owned;
    }

    /** A session on a fresh pooled connection; closing it returns the connection. */
    static Session open(Connection connection) {
        return new Session(connection, true);
    }

    /** A session on a connection someone else owns (for example inside their transaction); close leaves it open. */
    public static Session borrowing(Connection connection) {
        return new Session(connection, false);
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
        }
    }
}
