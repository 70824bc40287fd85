package io.fencelab.engine.fence;

import io.fencelab.engine.db.Database;
import io.fencelab.engine.db.Session;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;

/** Fences for the SQL fence tests: the design note's table and its variants, and a way to look inside. */
final class SqlFences {

    private static final AtomicInteger LABELS = new AtomicInteger();

    static final String TABLE = """
            CREATE TABLE report_state (report_id bigint PRIMARY KEY, body text NOT NULL,
                                       fencing_token %s NOT NULL);
            """;
    static final String SETUP = "INSERT INTO report_state VALUES (17, '', 0);";
    static final String CORRECT = """
            UPDATE report_state SET body = :body, fencing_token = :token
            WHERE report_id = :key AND fencing_token <= :token""";
    static final String READ = "SELECT fencing_token AS token, body FROM report_state WHERE report_id = :key";

    private SqlFences() {
    }

    /** The design note's fence on a token column of {@code tokenType}. */
    static SqlFence report(String tokenType, String write) {
        return new SqlFence("report", SqlText.of(TABLE.formatted(tokenType)), List.of(), SqlText.of(SETUP),
                List.of(SqlText.of(write)), rule("rows = 1", null, null), SqlText.of(READ), null, null);
    }

    static OutcomeRule rule(String accepted, String stale, String missing) {
        return new OutcomeRule(OutcomeRule.parse(accepted).orElseThrow(),
                stale == null ? null : OutcomeRule.parse(stale).orElseThrow(),
                missing == null ? null : OutcomeRule.parse(missing).orElseThrow());
    }

    /** A schema label no other test uses. */
    static String label(String what) {
        return "t" + ProcessHandle.current().pid() + "_" + LABELS.incrementAndGet() + "_" + what;
    }

    static ScratchSchema create(Database db, SqlFence... fences) {
        return ScratchSchema.create(db, label(fences[0].name()), List.of(fences), false);
    }

    /** One column of a query's rows, as text. */
    static List<String> column(Database db, String sql) {
        try (Session s = db.openSession(); Statement st = s.connection().createStatement();
             ResultSet rs = st.executeQuery(sql)) {
            List<String> out = new ArrayList<>();
            while (rs.next()) {
                out.add(rs.getString(1));
            }
            return out;
        } catch (SQLException e) {
            throw new IllegalStateException(e);
        }
    }

    static void execute(Database db, String sql) {
        try (Connection c = db.dataSource().getConnection(); Statement st = c.createStatement()) {
            st.execute(sql);
        } catch (SQLException e) {
            throw new IllegalStateException(e);
        }
    }

    static boolean schemaExists(Database db, String name) {
        return !column(db, "SELECT nspname FROM pg_namespace WHERE nspname = '" + name + "'").isEmpty();
    }
}
