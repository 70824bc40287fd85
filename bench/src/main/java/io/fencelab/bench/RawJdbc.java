package io.fencelab.bench;

import io.fencelab.engine.db.Database;
import io.fencelab.engine.lease.LeaseService;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Types;

/** The baseline: the engine's statements on a dedicated JDBC connection, with no engine code around them. */
final class RawJdbc {


    private RawJdbc() {
    }

    static Load.ClientLoop fencedWrite(Database db, long runId, String key) {
        Connection c = connect(db);
        PreparedStatement ps = prepare(c,
                "SELECT outcome, highest, highest_seq FROM fenced_write_row(?, ?, ?, ?, ?, ?, ?)");
        return new Load.ClientLoop() {
            @Override
            public void once() throws SQLException {
                ps.setLong(1, runId);
                ps.setString(2, "bench");
                ps.setString(3, key);
                ps.setLong(4, 1);
                ps.setNull(5, Types.BIGINT);
                ps.setBoolean(6, true);
                ps.setString(7, "body");
                drain(ps);
            }

            @Override
            public void close() throws SQLException {
                c.close();
            }
        };
    }

    static Load.ClientLoop acquire(Database db, long runId, String scope) {
        Connection c = connect(db);
        PreparedStatement ps = prepare(c, LeaseService.ACQUIRE);
        return new Load.ClientLoop() {
            @Override
            public void once() throws SQLException {
                ps.setLong(1, runId);
                ps.setString(2, scope);
                ps.setString(3, "holder");
                ps.setLong(4, 1);
                ps.setNull(5, Types.TIMESTAMP_WITH_TIMEZONE);
                drain(ps);
            }

            @Override
            public void close() throws SQLException {
                c.close();
            }
        };
    }

    private static void drain(PreparedStatement ps) throws SQLException {
        // Read every column, as any caller that wants the answer must.
        try (ResultSet rs = ps.executeQuery()) {
            int columns = rs.getMetaData().getColumnCount();
            while (rs.next()) {
                for (int i = 1; i <= columns; i++) {
                    rs.getObject(i);
                }
            }
        }
    }

    private static Connection connect(Database db) {
        try {
            // A dedicated connection outside the engine's pool: no pool, no JDBI.
            return DriverManager.getConnection(db.jdbcUrlWithoutSecret(), db.user().orElse(null),
                    db.password().orElse(null));
        } catch (SQLException e) {
            throw new IllegalStateException("baseline connection failed: " + e.getMessage(), e);
        }
    }

    private static PreparedStatement prepare(Connection c, String sql) {
        try {
            return c.prepareStatement(sql);
        } catch (SQLException e) {
            throw new IllegalStateException(e);
        }
    }
}
