package io.fencelab.engine.fence;

import static io.fencelab.engine.fence.SqlFences.rule;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.fencelab.engine.db.Database;
import io.fencelab.engine.db.DatabaseConfig;
import io.fencelab.testing.EmbeddedDatabase;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Every check before a run, each a one-line error located in the scenario file as the scenario
 * compiler places the SQL: schema at line 4, setup at 8, write at 10, read at 13, all at column 7
 * (a block scalar's lines keep one indentation).
 */
@ExtendWith(EmbeddedDatabase.class)
class SqlChecksTest {

    private static final String FILE = "fence.yaml";

    private static SqlText schema(String sql) {
        return new SqlText(sql, FILE, 4, 7);
    }

    private static SqlText setup(String sql) {
        return new SqlText(sql, FILE, 8, 7);
    }

    private static SqlText write(String sql) {
        return new SqlText(sql, FILE, 10, 7);
    }

    private static SqlText read(String sql) {
        return new SqlText(sql, FILE, 13, 7);
    }

    private static final String TABLE = SqlFences.TABLE.formatted("bigint");
    private static final String WRITE = SqlFences.CORRECT;
    private static final String READ = SqlFences.READ;

    private static SqlFence fence(String write, String accepted, String read) {
        return new SqlFence("report", schema(TABLE), List.of(), setup(SqlFences.SETUP), List.of(write(write)),
                rule(accepted, null, null), read(read), null, null);
    }

    private static String failure(Database db, SqlFence fence) {
        String label = SqlFences.label("check");
        Throwable thrown = org.assertj.core.api.Assertions.catchThrowable(
                () -> ScratchSchema.create(db, label, List.of(fence), false).close());
        assertThat(thrown).as("the fence is refused before any worker starts").isInstanceOf(SqlFenceException.class);
        assertThat(SqlFences.schemaExists(db, ScratchSchema.nameFor(label)))
                .as("no half-made scratch schema is left behind").isFalse();
        assertThat(thrown.getMessage()).as("one line").doesNotContain("\n");
        return thrown.getMessage();
    }

    @Test
    void aSyntaxErrorInTheWriteIsLocatedOnItsLineAndColumn(Database db) {
        String broken = "UPDATE report_state SET body = :body, fencing_token = :token\nWHER report_id = :key";

        assertThat(failure(db, fence(broken, "rows = 1", READ)))
                .isEqualTo("fence.yaml:11:7: target report: write: syntax error at or near \"WHER\" (SQLSTATE 42601)");
    }

    @Test
    void aPositionAfterAParameterMapsBackThroughTheRewrite(Database db) {
        // :token (6 characters) is sent as $2 (2): the column must be counted in the user's text.
        String broken = "UPDATE report_state SET fencing_token = :token, body = :body WHERE report_id = :key AND fencing_tokn <= :token";

        assertThat(failure(db, fence(broken, "rows = 1", READ)))
                .isEqualTo("fence.yaml:10:95: target report: write: column \"fencing_tokn\" does not exist (SQLSTATE 42703)");
    }

    @Test
    void anUnknownColumnInTheReadIsLocated(Database db) {
        String broken = "SELECT fencing_token AS token, bdy AS body FROM report_state WHERE report_id = :key";

        assertThat(failure(db, fence(WRITE, "rows = 1", broken)))
                .isEqualTo("fence.yaml:13:38: target report: read: column \"bdy\" does not exist (SQLSTATE 42703)");
    }

    @Test
    void anUnknownParameterNamesTheAllowedOnes(Database db) {
        String broken = "UPDATE report_state SET body = :body, fencing_token = :token\nWHERE report_id = :id AND fencing_token <= :token";

        assertThat(failure(db, fence(broken, "rows = 1", READ)))
                .isEqualTo("fence.yaml:11:25: target report: write uses :id, which Fencelab does not bind; "
                        + "allowed: :token, :key, :scope, :body, :seq");
    }

    @Test
    void aWriteWithoutTheTokenIsRefused(Database db) {
        assertThat(failure(db, fence("UPDATE report_state SET body = :body WHERE report_id = :key", "rows = 1", READ)))
                .isEqualTo("fence.yaml:10:7: target report: write never uses :token; a fenced write needs :token and :key "
                        + "(allowed: :token, :key, :scope, :body, :seq)");
    }

    @Test
    void aReadWithoutTheKeyIsRefused(Database db) {
        assertThat(failure(db, fence(WRITE, "rows = 1", "SELECT fencing_token AS token, body FROM report_state")))
                .isEqualTo("fence.yaml:13:7: target report: read never uses :key; it must find the row of the key written");
    }

    @Test
    void aWriteReturningRowsWhereACountIsExpectedIsRefused(Database db) {
        assertThat(failure(db, fence(WRITE + "\nRETURNING report_id", "rows = 1", READ)))
                .isEqualTo("fence.yaml:10:7: target report: write returns rows, but 'rows = 1' reads an affected-row "
                        + "count; drop its RETURNING, or read a returned value with result = '...'");
    }

    @Test
    void aWriteReturningNothingWhereAResultIsExpectedIsRefused(Database db) {
        assertThat(failure(db, fence(WRITE, "result = 'ok'", READ)))
                .isEqualTo("fence.yaml:10:7: target report: write returns no rows, but 'result = 'ok'' reads the first "
                        + "column of a returned row; use rows = N for an affected-row count");
    }

    @Test
    void aReadWithoutTokenAndBodyColumnsIsRefused(Database db) {
        assertThat(failure(db, fence(WRITE, "rows = 1", "SELECT fencing_token, body FROM report_state WHERE report_id = :key")))
                .isEqualTo("fence.yaml:13:7: target report: read must return columns token and body "
                        + "(SELECT fencing_token AS token, body ...); it returns fencing_token, body");
    }

    @Test
    void twoStatementsInOneWriteAreRefusedAtTheSecond(Database db) {
        String two = WRITE + "; SELECT 1";

        assertThat(failure(db, fence(two, "rows = 1", READ)))
                .isEqualTo("fence.yaml:11:57: target report: write holds more than one statement; "
                        + "give the statements of a check-then-write as a list");
    }

    @Test
    void aSyntaxErrorInTheSchemaIsLocatedInItsStatement(Database db) {
        String ddl = "CREATE TABLE other (id int);\nCREATE TABLE report_state (report_id bigint PRIMARY KEY,\n  body text NOT NULL fencing_token bigint)";
        SqlFence fence = new SqlFence("report", schema(ddl), List.of(), null, List.of(write(WRITE)),
                rule("rows = 1", null, null), read(READ), null, null);

        assertThat(failure(db, fence))
                .isEqualTo("fence.yaml:6:28: target report: schema: syntax error at or near \"fencing_token\" (SQLSTATE 42601)");
    }

    @Test
    void aFailingSetupIsLocated(Database db) {
        SqlFence fence = new SqlFence("report", schema(TABLE), List.of(),
                setup("INSERT INTO report_state VALUES (17, '', 0);\nINSERT INTO report_state VALUES (17, '', 0);"),
                List.of(write(WRITE)), rule("rows = 1", null, null), read(READ), null, null);

        assertThat(failure(db, fence)).startsWith("fence.yaml:9:7: target report: setup: duplicate key value violates")
                .endsWith("(SQLSTATE 23505)");
    }

    @Test
    void anUnknownObjectToCopyIsNamed(Database db) {
        SqlFence fence = new SqlFence("report", null, List.of("public.no_such_table"), null, List.of(write(WRITE)),
                rule("rows = 1", null, null), read(READ), null, null);

        assertThat(failure(db, fence)).isEqualTo("fence.yaml: target report: copyFrom public.no_such_table: "
                + "no such table in the database");
    }

    @Test
    void aRoleThatMayNotCreateASchemaIsToldInOneLine(Database db) {
        SqlFences.execute(db, "DO $$ BEGIN IF NOT EXISTS (SELECT 1 FROM pg_roles WHERE rolname = 'fencelab_no_schema') "
                + "THEN CREATE ROLE fencelab_no_schema LOGIN PASSWORD 'no-schema'; END IF; END $$");
        SqlFences.execute(db, "GRANT SELECT ON ALL TABLES IN SCHEMA public TO fencelab_no_schema");
        String url = "jdbc:postgresql://127.0.0.1:" + db.embeddedPort() + "/postgres";
        try (Database limited = Database.open(DatabaseConfig.external(url, "fencelab_no_schema", "no-schema"), 2)) {
            assertThat(failure(limited, fence(WRITE, "rows = 1", READ)))
                    .startsWith("permission denied: CREATE SCHEMA fencelab_")
                    .endsWith("was refused (permission denied for database postgres (SQLSTATE 42501)); Fencelab works "
                            + "only in a schema of its own, so its role needs CREATE on the database "
                            + "(GRANT CREATE ON DATABASE ... TO the role)");
        }
    }
}
