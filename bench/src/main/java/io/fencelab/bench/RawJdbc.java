package io.fencelab.bench;

import io.fencelab.engine.db.Database;
import io.fencelab.engine.fence.FencedTarget;
import io.fencelab.engine.lease.LeaseService;
import io.fencelab.engine.resource.TargetKind;
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
        PreparedStatement ps = prepare(c, FencedTarget.fencedWriteStatement(TargetKind.ROW));
        int[] columns = {0};
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
                drain(ps, columns);
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
        int[] columns = {0};
        return new Load.ClientLoop() {
            @Override
            public void once() throws SQLException {
                ps.setLong(1, runId);
                ps.setString(2, scope);
                ps.setString(3, "holder");
                ps.setLong(4, 1);
                ps.setNull(5, Types.TIMESTAMP_WITH_TIMEZONE);
                drain(ps, columns);
            }

            @Override
            public void close() throws SQLException {
                c.close();
            }
        };
    }

    /**
     * Executes and reads every column of every row, as any caller that wants the answer must. The
     * column count is learnt from the first result and kept in {@code columns}, so no per-call
     * metadata lookup weighs on the baseline.
     */
    private static void drain(PreparedStatement ps, int[] columns) throws SQLException {
        try (ResultSet rs = ps.executeQuery()) {
            if (columns[0] == 0) {
                columns[0] = rs.getMetaData().getColumnCount();
            }
            int n = columns[0];
            while (rs.next()) {
                for (int i = 1; i <= n; i++) {
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
