package io.fencelab.scenarios;

import static io.fencelab.scenarios.ScenarioValidationTest.problems;
import static org.assertj.core.api.Assertions.assertThat;

import io.fencelab.engine.check.Verdict;
import io.fencelab.engine.fence.EqualToken;
import io.fencelab.engine.fence.FirstWritePolicy;
import io.fencelab.engine.fence.OutcomeRule;
import io.fencelab.engine.fence.SqlFence;
import io.fencelab.engine.fence.SqlText;
import io.fencelab.engine.resource.TargetKind;
import io.fencelab.engine.run.UserFences;
import io.fencelab.engine.worker.TargetWrite;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The {@code targets:} section: the user's own SQL fences, located to the character, and writes that name them. */
class TargetCompilerTest {

    /**
     * The issue's example in a whole scenario. Lines: 7 {@code targets:}, 8 {@code report:}, 10 {@code schema: |},
     * 11 its first line of DDL, 13 {@code setup: |}, 14 its INSERT, 15 {@code write: |}, 16 the UPDATE,
     * 18 {@code accepted}, 19 {@code read}, 21 the worker's write.
     */
    static final String ISSUE = """
            title: T
            summary: S.
            story: [one]
            duration: 60s
            lease:
              ttl: 30s
            targets:
              report:
                kind: SQL
                schema: |                     # DDL, run in a scratch schema made for the run
                  CREATE TABLE report_state (report_id bigint PRIMARY KEY, body text NOT NULL,
                                             fencing_token bigint NOT NULL);
                setup: |                      # optional rows before the run
                  INSERT INTO report_state VALUES (17, '', 0);
                write: |                      # the statement under test; named parameters
                  UPDATE report_state SET body = :body, fencing_token = :token
                  WHERE report_id = :key AND fencing_token <= :token
                accepted: rows = 1            # how the outcome reads: affected rows, or a returned value
                read: SELECT fencing_token AS token, body FROM report_state WHERE report_id = :key
            workers:
              - {name: A, scope: report, writes: [{target: report, key: 17}]}
            expect:
              verdict: SAFE
            """;

    private static String replace(String old, String with) {
        assertThat(ISSUE).contains(old);
        return ISSUE.replace(old, with);
    }

    @Test
    void theIssuesExampleIsOneFenceWithEveryStatementLocatedAtItsFirstCharacter() {
        Scenario s = ScenarioLoader.load("own.yaml", ISSUE);

        SqlFence expected = new SqlFence("report",
                new SqlText("""
                        CREATE TABLE report_state (report_id bigint PRIMARY KEY, body text NOT NULL,
                                                   fencing_token bigint NOT NULL);
                        """, "own.yaml", 11, 7),
                List.of(),
                new SqlText("INSERT INTO report_state VALUES (17, '', 0);\n", "own.yaml", 14, 7),
                List.of(new SqlText("""
                        UPDATE report_state SET body = :body, fencing_token = :token
                        WHERE report_id = :key AND fencing_token <= :token
                        """, "own.yaml", 16, 7)),
                new OutcomeRule(new OutcomeRule.Condition.Rows("=", 1), null, null),
                new SqlText("SELECT fencing_token AS token, body FROM report_state WHERE report_id = :key",
                        "own.yaml", 19, 11),
                EqualToken.ACCEPT, FirstWritePolicy.MISSING);
        assertThat(s.fences()).containsExactly(expected);
        assertThat(s.spec().userFences()).isEqualTo(new UserFences(List.of(expected), false));
    }

    @Test
    void aPositionInsideAStatementIsTheFilesLineAndColumn() {
        SqlText write = ScenarioLoader.load("own.yaml", ISSUE).fences().getFirst().write().getFirst();

        // "WHERE" opens the statement's second line, file line 17, at the block's indentation.
        assertThat(write.locate(write.sql().indexOf("WHERE"))).isEqualTo("own.yaml:17:7");
        assertThat(write.locate(write.sql().indexOf("<="))).isEqualTo("own.yaml:17:48");
    }

    @Test
    void aWriteNamingATargetIsASqlWriteKeyedByFenceAndKey() {
        Scenario s = ScenarioLoader.load("own.yaml", ISSUE);

        assertThat(s.spec().workers().getFirst().writes())
                .containsExactly(new TargetWrite(TargetKind.SQL, "report:17"));
    }

    @Test
    void builtInTargetsAreReadAsBeforeBesideUserTargets() {
        Scenario s = ScenarioLoader.load("own.yaml", replace("writes: [{target: report, key: 17}]",
                "writes: [{target: report, key: 17}, {target: row, key: r}, {key: k, fencing: UNFENCED}]"));

        assertThat(s.spec().workers().getFirst().writes()).containsExactly(
                new TargetWrite(TargetKind.SQL, "report:17"), new TargetWrite(TargetKind.ROW, "r"),
                new TargetWrite(TargetKind.ROW, "k", io.fencelab.engine.fence.FencingMode.UNFENCED));
    }

    @Test
    void aScenarioWithoutTargetsHasNoUserFences() {
        Scenario s = ScenarioLoader.load("t.yaml", ScenarioValidationTest.MINIMAL);

        assertThat(s.fences()).isEmpty();
        assertThat(s.spec().userFences()).isEqualTo(UserFences.NONE);
    }

    @Test
    void aListWriteIsSeveralStatementsEachLocated() {
        Scenario s = ScenarioLoader.load("own.yaml", replace("""
                    write: |                      # the statement under test; named parameters
                      UPDATE report_state SET body = :body, fencing_token = :token
                      WHERE report_id = :key AND fencing_token <= :token
                """, """
                    write:
                      - SELECT 1 FROM report_state WHERE report_id = :key AND fencing_token <= :token
                      - |
                        UPDATE report_state SET body = :body, fencing_token = :token
                        WHERE report_id = :key
                """));

        assertThat(s.fences().getFirst().write()).containsExactly(
                new SqlText("SELECT 1 FROM report_state WHERE report_id = :key AND fencing_token <= :token",
                        "own.yaml", 16, 9),
                new SqlText("UPDATE report_state SET body = :body, fencing_token = :token\nWHERE report_id = :key\n",
                        "own.yaml", 18, 9));
    }

    @Test
    void quotedAndFoldedSqlIsLocatedAtItsFirstCharacterToo() {
        SqlFence f = ScenarioLoader.load("own.yaml", replace(
                "    read: SELECT fencing_token AS token, body FROM report_state WHERE report_id = :key",
                "    read: \"SELECT fencing_token AS token, body FROM report_state WHERE report_id = :key\"")
                .replace("    setup: |                      # optional rows before the run\n",
                        "    setup: >-\n")).fences().getFirst();

        assertThat(f.read()).isEqualTo(new SqlText(
                "SELECT fencing_token AS token, body FROM report_state WHERE report_id = :key", "own.yaml", 19, 12));
        assertThat(f.setup()).isEqualTo(new SqlText("INSERT INTO report_state VALUES (17, '', 0);", "own.yaml", 14, 7));
    }

    @Test
    void aFunctionsAnswerAndAnErrorCodeAreReadAsRules() {
        SqlFence f = ScenarioLoader.load("own.yaml", replace("    accepted: rows = 1", "    accepted: result = 'ok'\n"
                + "    stale: sqlstate = 'P0001'\n    missing: result = 'missing'\n    equalToken: reject\n"
                + "    firstWrite: create")).fences().getFirst();

        assertThat(f.outcome()).isEqualTo(new OutcomeRule(new OutcomeRule.Condition.Result("ok"),
                new OutcomeRule.Condition.SqlState("P0001"), new OutcomeRule.Condition.Result("missing")));
        assertThat(f.equalToken()).isEqualTo(EqualToken.REJECT);
        assertThat(f.firstWrite()).isEqualTo(FirstWritePolicy.CREATE);
    }

    @Test
    void copyFromNamesTablesAndFunctionsInsteadOfDdl() {
        SqlFence f = ScenarioLoader.load("own.yaml", replace("""
                    schema: |                     # DDL, run in a scratch schema made for the run
                      CREATE TABLE report_state (report_id bigint PRIMARY KEY, body text NOT NULL,
                                                 fencing_token bigint NOT NULL);
                """, """
                    copyFrom: [public.report_state, "public.fence_write(bigint, bigint, text)"]
                """)).fences().getFirst();

        assertThat(f.schema()).isNull();
        assertThat(f.copyFrom()).containsExactly("public.report_state", "public.fence_write(bigint, bigint, text)");
    }

    @Test
    void copyFromAsTheIssueWritesItKeepsAFunctionsArgumentTypesTogether() {
        SqlFence f = ScenarioLoader.load("own.yaml", replace("""
                    schema: |                     # DDL, run in a scratch schema made for the run
                      CREATE TABLE report_state (report_id bigint PRIMARY KEY, body text NOT NULL,
                                                 fencing_token bigint NOT NULL);
                """, """
                    copyFrom: [public.report_state, public.fence_write(bigint, bigint, text), "public.t"]
                """)).fences().getFirst();

        assertThat(f.copyFrom()).containsExactly("public.report_state", "public.fence_write(bigint, bigint, text)",
                "public.t");
    }

    @Test
    void bothSchemaAndCopyFromIsAProblemAtCopyFrom() {
        assertThat(problems(replace("    setup: |", "    copyFrom: [public.report_state]\n    setup: |")))
                .containsExactly("t.yaml:13:15: targets.report.copyFrom: give schema or copyFrom, not both: the "
                        + "target's objects come from one of them");
    }

    @Test
    void neitherSchemaNorCopyFromIsAProblemAtTheTarget() {
        assertThat(problems(replace("""
                    schema: |                     # DDL, run in a scratch schema made for the run
                      CREATE TABLE report_state (report_id bigint PRIMARY KEY, body text NOT NULL,
                                                 fencing_token bigint NOT NULL);
                """, ""))).containsExactly("t.yaml:9:5: targets.report.schema: missing: schema (DDL run in the "
                + "scratch schema) or copyFrom (existing tables and functions to copy there), exactly one");
    }

    @Test
    void aCopyFromEntryThatNamesNoQualifiedObjectIsAProblem() {
        assertThat(problems(replace("    setup: |", "    copyFrom: [report_state]\n    setup: |")
                .replace("""
                            schema: |                     # DDL, run in a scratch schema made for the run
                              CREATE TABLE report_state (report_id bigint PRIMARY KEY, body text NOT NULL,
                                                         fencing_token bigint NOT NULL);
                        """, ""))).containsExactly("t.yaml:10:16: targets.report.copyFrom[0]: 'report_state' is "
                + "not schema.table or schema.function(argument types) (for example public.report_state, "
                + "public.fence_write(bigint, bigint, text))");
    }

    @Test
    void anUnknownKeyOfATargetIsNamedWithWhatIsAllowed() {
        assertThat(problems(replace("    kind: SQL", "    kind: SQL\n    writes: x")))
                .containsExactly("t.yaml:10:5: targets.report.writes: unknown key; did you mean write? (allowed: kind, "
                        + "schema, copyFrom, setup, write, accepted, stale, missing, read, equalToken, firstWrite)");
    }

    @Test
    void aBadOutcomeRuleQuotesWhatARuleMaySay() {
        assertThat(problems(replace("accepted: rows = 1 ", "accepted: rows == 1")))
                .containsExactly("t.yaml:18:15: targets.report.accepted: 'rows == 1' is not a rule (allowed: "
                        + OutcomeRule.ALLOWED + ")");
    }

    @Test
    void staleMustReadTheAnswerAsAcceptedDoes() {
        assertThat(problems(replace("    accepted: rows = 1", "    accepted: rows = 1\n    stale: result = 'stale'")))
                .containsExactly("t.yaml:19:12: targets.report.stale: accepted reads the affected-row count "
                        + "(rows = 1), so stale must read it too, or an error (sqlstate = 'P0001'); got "
                        + "'result = 'stale''");
    }

    @Test
    void anErrorCannotMeanAccepted() {
        assertThat(problems(replace("accepted: rows = 1 ", "accepted: sqlstate = 'P0001'")))
                .containsExactly("t.yaml:18:15: targets.report.accepted: a statement that fails has written "
                        + "nothing, so an error cannot mean accepted; read accepted from the affected rows or a "
                        + "returned value");
    }

    @Test
    void requiredKeysAreNamedAtTheTarget() {
        String yaml = replace("    accepted: rows = 1            # how the outcome reads: affected rows, or a returned value\n", "")
                .replace("    read: SELECT fencing_token AS token, body FROM report_state WHERE report_id = :key\n", "")
                .replace("    kind: SQL\n", "");
        assertThat(problems(yaml)).containsExactly(
                "t.yaml:9:5: targets.report.kind: missing required key (for example kind: SQL)",
                "t.yaml:9:5: targets.report.accepted: missing required key (for example accepted: rows = 1)",
                "t.yaml:9:5: targets.report.read: missing required key (for example read: SELECT fencing_token AS "
                        + "token, body FROM … WHERE id = :key)");
    }

    @Test
    void aKindOtherThanSqlAndBadChoicesAreProblems() {
        assertThat(problems(replace("    kind: SQL", "    kind: REDIS\n    equalToken: maybe\n    firstWrite: never")))
                .containsExactly(
                        "t.yaml:9:11: targets.report.kind: 'REDIS' is not a target kind (allowed: SQL)",
                        "t.yaml:10:17: targets.report.equalToken: 'maybe' is not one of accept, reject",
                        "t.yaml:11:17: targets.report.firstWrite: 'never' is not one of create, missing");
    }

    @Test
    void aTargetNameIsLowerCaseAndNotABuiltInKind() {
        assertThat(problems(replace("  report:\n", "  Report:\n"))).contains(
                "t.yaml:8:3: targets.Report: 'Report' is not a target name (a lower-case letter, then lower-case "
                        + "letters, digits, _ or -: report, report_v2)");
        assertThat(problems(replace("  report:\n", "  row:\n"))).contains(
                "t.yaml:8:3: targets.row: 'row' is the name of a built-in target kind (ROW, OBJECT, POINTER); "
                        + "choose another name");
    }

    @Test
    void aWriteToANameThatIsNoTargetListsBothKinds() {
        assertThat(problems(replace("{target: report, key: 17}", "{target: reprot, key: 17}"))).containsExactly(
                "t.yaml:21:48: workers[0].writes[0].target: 'reprot' names no target; did you mean report? "
                        + "(built in: ROW, OBJECT, POINTER; in targets: report)");
        assertThat(problems(ScenarioValidationTest.MINIMAL.replace("- key: report-1", "- {target: BLOB, key: r}")))
                .containsExactly("t.yaml:11:18: workers[0].writes[0].target: 'BLOB' names no target (built in: ROW, "
                        + "OBJECT, POINTER; in targets: none)");
    }

    @Test
    void sqlIsAKindNotATargetToWriteTo() {
        assertThat(problems(replace("{target: report, key: 17}", "{target: SQL, key: 17}"))).containsExactly(
                "t.yaml:21:48: workers[0].writes[0].target: SQL is the kind of your own targets; name one "
                        + "(built in: ROW, OBJECT, POINTER; in targets: report)");
    }

    @Test
    void aWriteToAUserTargetTakesNoFencingMode() {
        assertThat(problems(replace("{target: report, key: 17}", "{target: report, key: 17, fencing: UNFENCED}")))
                .containsExactly("t.yaml:21:74: workers[0].writes[0].fencing: a write to report is fenced by its own "
                        + "statement (targets.report.write); fencing applies to built-in targets only");
    }

    @Test
    void emptyOrNonTextSqlIsAProblem() {
        assertThat(problems(replace("    read: SELECT fencing_token AS token, body FROM report_state WHERE report_id = :key",
                "    read: 42\n    setup2: x").replace("    setup: |                      # optional rows before the run\n"
                + "      INSERT INTO report_state VALUES (17, '', 0);\n", "    setup: \"  \"\n"))).containsExactly(
                "t.yaml:13:12: targets.report.setup: must not be empty",
                "t.yaml:18:11: targets.report.read: expected SQL text (a block: '|' and the SQL on the lines below), "
                        + "got the number 42",
                "t.yaml:19:5: targets.report.setup2: unknown key; did you mean setup? (allowed: kind, schema, "
                        + "copyFrom, setup, write, accepted, stale, missing, read, equalToken, firstWrite)");
    }

    @Test
    void theWriterKeepsTheTargetsSectionWithItsSqlVerbatim() {
        Scenario s = ScenarioLoader.load("own.yaml", replace("    accepted: rows = 1",
                "    accepted: rows = 1\n    stale: sqlstate = 'P0001'"));

        String written = ScenarioWriter.write(s.spec(), s.notes(), Verdict.Kind.SAFE);
        Scenario back = ScenarioLoader.load("own.yaml", written);

        assertThat(written).contains("""
                targets:
                  report:
                    kind: SQL
                    schema: |
                      CREATE TABLE report_state (report_id bigint PRIMARY KEY, body text NOT NULL,
                                                 fencing_token bigint NOT NULL);
                """).contains("\n    read: \"SELECT fencing_token AS token, body FROM report_state WHERE report_id = "
                + ":key\"\n");
        assertThat(withoutPositions(back.fences())).isEqualTo(withoutPositions(s.fences()));
        assertThat(back.spec().workers()).isEqualTo(s.spec().workers());
    }

    /** The fences as written, without where (a written file lays them out anew). */
    static List<SqlFence> withoutPositions(List<SqlFence> fences) {
        return fences.stream().map(f -> new SqlFence(f.name(), bare(f.schema()), f.copyFrom(), bare(f.setup()),
                f.write().stream().map(TargetCompilerTest::bare).toList(), f.outcome(), bare(f.read()),
                f.equalToken(), f.firstWrite())).toList();
    }

    private static SqlText bare(SqlText t) {
        return t == null ? null : SqlText.of(t.sql());
    }
}
