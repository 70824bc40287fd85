package io.fencelab.engine.fence;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import org.junit.jupiter.api.Test;

/** {@code :name} parameters found where PostgreSQL would see them, and nowhere else. */
class SqlNamedParametersTest {

    private static NamedSql parse(String sql) {
        return NamedSql.parse(SqlText.of(sql), "report", "write");
    }

    @Test
    void namesBecomeOnePlaceholderPerOccurrenceInOrder() {
        NamedSql sql = parse("UPDATE t SET body = :body, tok = :token WHERE id = :key AND tok <= :token");

        assertThat(sql.jdbc()).isEqualTo("UPDATE t SET body = ?, tok = ? WHERE id = ? AND tok <= ?");
        assertThat(sql.numbered()).isEqualTo("UPDATE t SET body = $1, tok = $2 WHERE id = $3 AND tok <= $4");
        assertThat(sql.names()).containsExactly("body", "token", "key", "token");
    }

    @Test
    void castsLiteralsQuotedNamesCommentsAndDollarQuotesAreLeftAlone() {
        String sql = """
                SELECT ':token', E'it\\'s :key', "odd:seq", $f$ :body $f$, $$:scope$$, :token::bigint -- :key
                /* :body /* nested :seq */ :scope */ FROM t WHERE k = :key""";

        NamedSql named = parse(sql);

        assertThat(named.names()).as("only the two outside every quote and comment")
                .containsExactly("token", "key");
        assertThat(named.jdbc()).contains("?::bigint").contains("':token'").contains("$f$ :body $f$");
    }

    @Test
    void aLiteralQuestionMarkIsDoubledForTheDriver() {
        NamedSql sql = parse("SELECT doc ? 'a' FROM t WHERE k = :key AND '?' = '?'");

        assertThat(sql.jdbc()).isEqualTo("SELECT doc ?? 'a' FROM t WHERE k = ? AND '?' = '?'");
        assertThat(sql.numbered()).as("PREPARE sees the user's own operator").isEqualTo(
                "SELECT doc ? 'a' FROM t WHERE k = $1 AND '?' = '?'");
    }

    @Test
    void aTrailingSemicolonIsDroppedAndASecondStatementRefused() {
        assertThat(parse("SELECT :key ;\n ").numbered()).isEqualTo("SELECT $1");
        assertThatThrownBy(() -> parse("SELECT :key; SELECT 2"))
                .isInstanceOf(SqlFenceException.class)
                .hasMessage("(inline):1:12: target report: write holds more than one statement; "
                        + "give the statements of a check-then-write as a list");
    }

    @Test
    void aPositionInTheNumberedTextIsTheUsersCharacter() {
        NamedSql sql = NamedSql.parse(new SqlText("UPDATE t SET tok = :token\nWHER k = :key", "f.yaml", 3, 5),
                "report", "write");
        int wher = sql.numbered().indexOf("WHER");

        assertThat(sql.locateNumbered(wher)).isEqualTo("f.yaml:4:5");
        assertThat(sql.locateNumbered(sql.numbered().length())).as("at end of input").isEqualTo("f.yaml:4:18");
    }

    @Test
    void aScriptSplitsAtItsTopLevelSemicolons() {
        String script = "CREATE TABLE a (x int);\nCREATE FUNCTION f() RETURNS int AS $$ SELECT 1; $$ LANGUAGE sql;\n-- done\n";

        List<NamedSql.Piece> pieces = NamedSql.statements(script);

        assertThat(pieces).extracting(NamedSql.Piece::sql).containsExactly("CREATE TABLE a (x int)",
                "CREATE FUNCTION f() RETURNS int AS $$ SELECT 1; $$ LANGUAGE sql");
        assertThat(pieces.get(1).offset()).isEqualTo(script.indexOf("CREATE FUNCTION"));
    }

    @Test
    void aStandardFunctionBodyKeepsItsSemicolons() {
        String script = """
                CREATE FUNCTION verdict(held bigint, token bigint) RETURNS text LANGUAGE sql
                BEGIN ATOMIC
                  SELECT CASE WHEN held > token THEN 'stale' ELSE 'ok' END;
                  SELECT 'twice';
                END;
                CREATE TABLE after_it (x int);
                """;

        assertThat(NamedSql.statements(script)).extracting(NamedSql.Piece::sql)
                .as("the body's two statements stay in the function")
                .containsExactly(script.substring(0, script.lastIndexOf("END;") + 3), "CREATE TABLE after_it (x int)");
    }
}
