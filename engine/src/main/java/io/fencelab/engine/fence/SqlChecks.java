package io.fencelab.engine.fence;

import io.fencelab.engine.fence.OutcomeRule.Condition;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSetMetaData;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.List;
import java.util.Set;
import org.postgresql.util.PSQLException;
import org.postgresql.util.ServerErrorMessage;

/**
 * What is checked of a user's fence before any worker starts, each failure one located line
 * ({@code file:line:column: target report: write: ...}): the parameters each statement uses, the
 * syntax and names of every write and the read ({@code PREPARE}d, PostgreSQL's error position mapped
 * back to the file), the shape of the last write's answer against the outcome rule, and the read's
 * columns. Also runs the {@code schema} and {@code setup} scripts statement by statement, so that an
 * error in them is located too.
 */
final class SqlChecks {

    /** What {@code PREPARE} accepts; anything else (a {@code CALL}) is only described by the driver. */
    private static final Set<String> PREPARABLE = Set.of("SELECT", "INSERT", "UPDATE", "DELETE", "MERGE", "WITH",
            "VALUES", "TABLE", "(");
    private static final String PREPARE = "PREPARE fencelab_check AS ";

    private SqlChecks() {
    }

    /** Checks what needs no database: the write uses {@code :token} and {@code :key}, the read {@code :key}. */
    static void checkParameters(SqlFence fence, List<NamedSql> writes, NamedSql read) {
        for (String needed : List.of("token", "key")) {
            if (writes.stream().noneMatch(w -> w.uses(needed))) {
                NamedSql last = writes.get(writes.size() - 1);
                throw new SqlFenceException(last.source().locate(0) + ": target " + fence.name()
                        + ": write never uses :" + needed + "; a fenced write needs :token and :key (allowed: "
                        + NamedSql.allowed() + ")");
            }
        }
        if (!read.uses("key")) {
            throw new SqlFenceException(read.source().locate(0) + ": target " + fence.name()
                    + ": read never uses :key; it must find the row of the key written");
        }
    }

    /**
     * Runs a script ({@code schema} or {@code setup}) statement by statement on {@code c}, in the
     * caller's transaction; the first failure is located in the file.
     */
    static void runScript(Connection c, SqlText script, String target, String role) throws SQLException {
        try (Statement st = c.createStatement()) {
            st.setEscapeProcessing(false);
            for (NamedSql.Piece piece : NamedSql.statements(script.sql())) {
                try {
                    st.execute(piece.sql());
                } catch (SQLException e) {
                    if (isConnectionLoss(e)) {
                        throw e;
                    }
                    int at = position(e).map(p -> piece.offset() + p - 1).orElse(piece.offset());
                    throw new SqlFenceException(script.locate(at) + ": target " + target + ": " + role + ": "
                            + serverMessage(e));
                }
            }
        }
    }

    /**
     * Prepares every write statement and the read in the scratch schema ({@code c}'s transaction has
     * its {@code search_path}), and checks the shape of their answers.
     */
    static void checkStatements(Connection c, SqlFence fence, List<NamedSql> writes, NamedSql read)
            throws SQLException {
        for (int i = 0; i < writes.size(); i++) {
            NamedSql w = writes.get(i);
            List<String> shape = prepare(c, fence, w, "write");
            if (i == writes.size() - 1) {
                checkAnswer(fence, w, shape);
            }
        }
        List<String> shape = prepare(c, fence, read, "read");
        if (shape == null || !hasColumn(shape, "token") || !hasColumn(shape, "body")) {
            throw new SqlFenceException(read.source().locate(0) + ": target " + fence.name()
                    + ": read must return columns token and body (SELECT fencing_token AS token, body ...)"
                    + (shape == null ? "; it returns no rows" : "; it returns " + String.join(", ", shape)));
        }
    }

    /**
     * {@code PREPARE}s the statement (syntax, names, parameter types), then has the driver describe
     * its answer: the columns it returns, null when it returns no rows.
     */
    private static List<String> prepare(Connection c, SqlFence fence, NamedSql sql, String role) throws SQLException {
        if (PREPARABLE.contains(sql.firstWord())) {
            try (Statement st = c.createStatement()) {
                st.setEscapeProcessing(false);
                st.execute(PREPARE + sql.numbered());
                st.execute("DEALLOCATE fencelab_check");
            } catch (SQLException e) {
                throw located(e, fence, sql, role, PREPARE.length());
            }
        }
        // The driver sends jdbc() as numbered() (each ? as $n, ?? as ?), so its positions map the same way.
        try (PreparedStatement ps = c.prepareStatement(sql.jdbc())) {
            ResultSetMetaData meta = ps.getMetaData();
            if (meta == null || meta.getColumnCount() == 0) {
                return null;
            }
            List<String> columns = new java.util.ArrayList<>();
            for (int i = 1; i <= meta.getColumnCount(); i++) {
                columns.add(meta.getColumnLabel(i));
            }
            return columns;
        } catch (SQLException e) {
            throw located(e, fence, sql, role, 0);
        }
    }

    private static SqlFenceException located(SQLException e, SqlFence fence, NamedSql sql, String role, int prefix)
            throws SQLException {
        if (isConnectionLoss(e)) {
            throw e;
        }
        String where = position(e).map(p -> sql.locateNumbered(p - 1 - prefix)).orElse(sql.source().locate(0));
        return new SqlFenceException(where + ": target " + fence.name() + ": " + role + ": " + serverMessage(e));
    }

    /** The last write's answer against the rule: a count for {@code rows}, a returned row for {@code result}. */
    private static void checkAnswer(SqlFence fence, NamedSql last, List<String> shape) {
        OutcomeRule rule = fence.outcome();
        for (Condition cond : java.util.Arrays.asList(rule.accepted(), rule.stale(), rule.missing())) {
            if (cond instanceof Condition.Rows rows && shape != null) {
                throw new SqlFenceException(last.source().locate(0) + ": target " + fence.name()
                        + ": write returns rows, but '" + rows + "' reads an affected-row count; "
                        + "drop its RETURNING, or read a returned value with result = '...'");
            }
            if (cond instanceof Condition.Result result && shape == null) {
                throw new SqlFenceException(last.source().locate(0) + ": target " + fence.name()
                        + ": write returns no rows, but '" + result + "' reads the first column of a returned row; "
                        + "use rows = N for an affected-row count");
            }
        }
    }

    private static boolean hasColumn(List<String> shape, String name) {
        return shape.stream().anyMatch(c -> c.equalsIgnoreCase(name));
    }

    /**
     * What the current transaction has changed outside {@code scratch} (its unquoted name) so far:
     * each object whose catalog row it made or altered ({@code xmin}, counted -1), and each table
     * with the rows the backend counts as inserted, updated or deleted. The counts include earlier
     * transactions' not yet reported to the statistics collector, so a caller compares two of these
     * taken in one transaction ({@link #changedSince}).
     */
    static java.util.Map<String, Long> changesOutside(Connection c, String scratch) throws SQLException {
        java.util.Map<String, Long> changes = new java.util.TreeMap<>();
        try (PreparedStatement ps = c.prepareStatement("""
                SELECT n.nspname || '.' || k.relname, -1 FROM pg_class k JOIN pg_namespace n ON n.oid = k.relnamespace
                 WHERE k.xmin::text::bigint = txid_current() % 4294967296 AND n.nspname <> ? AND n.nspname !~ '^pg_'
                UNION ALL
                SELECT n.nspname || '.' || p.proname, -1 FROM pg_proc p JOIN pg_namespace n ON n.oid = p.pronamespace
                 WHERE p.xmin::text::bigint = txid_current() % 4294967296 AND n.nspname <> ?
                UNION ALL
                SELECT schemaname || '.' || relname, n_tup_ins + n_tup_upd + n_tup_del FROM pg_stat_xact_user_tables
                 WHERE n_tup_ins + n_tup_upd + n_tup_del > 0 AND schemaname <> ?""")) {
            ps.setString(1, scratch);
            ps.setString(2, scratch);
            ps.setString(3, scratch);
            try (java.sql.ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    changes.merge(rs.getString(1), rs.getLong(2), (a, b) -> a < 0 || b < 0 ? -1 : a + b);
                }
            }
        }
        return changes;
    }

    /** The objects outside the scratch schema changed since {@code before} was taken in the same transaction. */
    static List<String> changedSince(Connection c, String scratch, java.util.Map<String, Long> before)
            throws SQLException {
        List<String> changed = new java.util.ArrayList<>();
        changesOutside(c, scratch).forEach((name, count) -> {
            if (count < 0 || count > before.getOrDefault(name, 0L)) {
                changed.add(name);
            }
        });
        return changed;
    }

    /** PostgreSQL's error position (from 1, in the text sent), if it gave one. */
    static java.util.Optional<Integer> position(SQLException e) {
        ServerErrorMessage server = e instanceof PSQLException p ? p.getServerErrorMessage() : null;
        return server == null || server.getPosition() <= 0 ? java.util.Optional.empty()
                : java.util.Optional.of(server.getPosition());
    }

    /** The server's primary message, one line, without detail or hint (they can quote rows). */
    static String serverMessage(SQLException e) {
        ServerErrorMessage server = e instanceof PSQLException p ? p.getServerErrorMessage() : null;
        String message = server == null || server.getMessage() == null ? e.getMessage() : server.getMessage();
        String line = message == null ? e.getClass().getSimpleName() : message.lines().findFirst().orElse("");
        return line + (e.getSQLState() == null ? "" : " (SQLSTATE " + e.getSQLState() + ")");
    }

    /** The connection itself failed (class 08, or the server shutting down): not the user's SQL. */
    static boolean isConnectionLoss(SQLException e) {
        String state = e.getSQLState();
        return state == null || state.startsWith("08") || state.startsWith("57P");
    }
}
