package io.fencelab.engine.fence;

import static io.fencelab.engine.fence.SqlFences.column;
import static io.fencelab.engine.fence.SqlFences.rule;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.fencelab.engine.db.Database;
import io.fencelab.engine.db.Session;
import io.fencelab.testing.EmbeddedDatabase;
import java.util.List;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/** The scratch schema: made for a run, filled by copies of the user's own objects, dropped after unless kept. */
@ExtendWith(EmbeddedDatabase.class)
class ScratchSchemaTest {

    /** The user's production objects in {@code public}: a table with a check, a default and a trigger, and a fence function. */
    private static final String PRODUCTION = """
            CREATE TABLE IF NOT EXISTS public.copy_report_state (
                report_id bigint PRIMARY KEY,
                body text NOT NULL DEFAULT '',
                fencing_token bigint NOT NULL CHECK (fencing_token >= 0),
                updates int NOT NULL DEFAULT 0);
            CREATE OR REPLACE FUNCTION public.copy_count_updates() RETURNS trigger LANGUAGE plpgsql AS $$
            BEGIN NEW.updates := OLD.updates + 1; RETURN NEW; END $$;
            DROP TRIGGER IF EXISTS copy_count ON public.copy_report_state;
            CREATE TRIGGER copy_count BEFORE UPDATE ON public.copy_report_state
                FOR EACH ROW EXECUTE FUNCTION public.copy_count_updates();
            CREATE OR REPLACE FUNCTION public.copy_fence_write(p_key bigint, p_token bigint, p_body text) RETURNS text
            LANGUAGE plpgsql SET search_path = public AS $$
            BEGIN
              UPDATE public.copy_report_state SET body = p_body, fencing_token = p_token
              WHERE report_id = p_key AND fencing_token <= p_token;
              IF FOUND THEN RETURN 'ok'; END IF;
              RETURN 'stale';
            END $$;
            INSERT INTO public.copy_report_state VALUES (17, 'production row', 3, 0) ON CONFLICT DO NOTHING;
            CREATE TABLE IF NOT EXISTS public.copy_serial_state (id serial PRIMARY KEY, body text, fencing_token bigint);
            CREATE TABLE IF NOT EXISTS public.copy_audit (token bigint);
            CREATE OR REPLACE FUNCTION public.copy_audited_write(p_key bigint, p_token bigint, p_body text) RETURNS text
            LANGUAGE plpgsql AS $$
            BEGIN
              INSERT INTO public.copy_audit VALUES (p_token);
              RETURN 'ok';
            END $$;
            """;

    private static final String PUBLIC_SNAPSHOT = """
            SELECT format('%s|%s|%s|%s', report_id, body, fencing_token, updates) FROM public.copy_report_state
            UNION ALL SELECT pg_get_functiondef('public.copy_fence_write(bigint, bigint, text)'::regprocedure)
            UNION ALL SELECT pg_get_functiondef('public.copy_count_updates()'::regprocedure)
            UNION ALL SELECT pg_get_triggerdef(oid) FROM pg_trigger WHERE tgrelid = 'public.copy_report_state'::regclass
            UNION ALL SELECT count(*)::text FROM pg_class WHERE relnamespace = 'public'::regnamespace
            """;

    @BeforeAll
    static void production(Database db) {
        SqlFences.execute(db, PRODUCTION);
    }

    private static SqlFence copied() {
        return new SqlFence("report", null,
                List.of("public.copy_report_state", "public.copy_fence_write(bigint, bigint, text)"),
                SqlText.of("INSERT INTO copy_report_state (report_id, fencing_token) VALUES (17, 0)"),
                List.of(SqlText.of("SELECT copy_fence_write(:key, :token, :body)")),
                rule("result = 'ok'", "result = 'stale'", null),
                SqlText.of("SELECT fencing_token AS token, body, updates FROM copy_report_state WHERE report_id = :key"),
                null, null);
    }

    @Test
    void copiesOfTheUsersTableAndFunctionAreWrittenAndNothingInPublicChanges(Database db) {
        List<String> before = column(db, PUBLIC_SNAPSHOT);
        try (ScratchSchema scratch = SqlFences.create(db, copied()); Session session = db.openSession()) {
            SqlTarget target = scratch.target("report");

            assertThat(target.write(session, "s", "17", 5, null, "five", () -> { }).said()).isEqualTo(Said.ACCEPTED);
            assertThat(target.write(session, "s", "17", 4, null, "four", () -> { }).said()).isEqualTo(Said.STALE);

            String copy = scratch.name() + ".copy_report_state";
            assertThat(column(db, "SELECT format('%s|%s|%s', fencing_token, body, updates) FROM " + copy))
                    .as("the copied trigger counted the accepted update in the copy")
                    .containsExactly("5|five|1");
            assertThat(column(db, "SELECT pg_get_constraintdef(oid) FROM pg_constraint WHERE conrelid = '"
                    + copy + "'::regclass AND contype = 'c'"))
                    .as("the table's check constraint came along").containsExactly("CHECK ((fencing_token >= 0))");
            assertThat(column(db, "SELECT p.pronamespace::regnamespace::text FROM pg_trigger t JOIN pg_proc p ON p.oid = t.tgfoid "
                    + "WHERE t.tgrelid = '" + copy + "'::regclass"))
                    .as("the copy's trigger calls a copy of its function").containsExactly(scratch.name());
            assertThat(column(db, "SELECT pg_get_functiondef('" + scratch.name()
                    + ".copy_fence_write(bigint, bigint, text)'::regprocedure)").get(0))
                    .as("the copied function neither names public nor looks there")
                    .doesNotContain("public").containsPattern("SET search_path TO \\W*" + scratch.name());
        }
        assertThat(column(db, PUBLIC_SNAPSHOT)).as("public, before and after").isEqualTo(before);
    }

    @Test
    void aSerialColumnOfTheCopyDrawsFromASequenceOfItsOwn(Database db) {
        List<String> before = column(db, "SELECT last_value::text FROM public.copy_serial_state_id_seq");
        SqlFence serial = new SqlFence("serial", null, List.of("public.copy_serial_state"),
                SqlText.of("INSERT INTO copy_serial_state (body, fencing_token) VALUES ('', 0)"),
                List.of(SqlText.of("UPDATE copy_serial_state SET body = :body, fencing_token = :token "
                        + "WHERE id = :key AND fencing_token <= :token")),
                rule("rows = 1", null, null),
                SqlText.of("SELECT fencing_token AS token, body FROM copy_serial_state WHERE id = :key"), null, null);
        try (ScratchSchema scratch = SqlFences.create(db, serial)) {
            assertThat(column(db, "SELECT pg_get_expr(adbin, adrelid) FROM pg_attrdef WHERE adrelid = '"
                    + scratch.name() + ".copy_serial_state'::regclass"))
                    .as("the copy's default draws from the scratch schema")
                    .containsExactly("nextval('" + scratch.name() + ".copy_serial_state_id_seq'::regclass)");
            assertThat(column(db, "SELECT id::text FROM " + scratch.name() + ".copy_serial_state")).containsExactly("1");
        }
        assertThat(column(db, "SELECT last_value::text FROM public.copy_serial_state_id_seq"))
                .as("the user's sequence did not move").isEqualTo(before);
    }

    @Test
    void aCopiedFunctionThatNamesAnUncopiedTableIsRefused(Database db) {
        SqlFence audited = new SqlFence("audited", null,
                List.of("public.copy_report_state", "public.copy_audited_write(bigint, bigint, text)"), null,
                List.of(SqlText.of("SELECT copy_audited_write(:key, :token, :body)")), rule("result = 'ok'", null, null),
                new SqlText("SELECT fencing_token AS token, body FROM copy_report_state WHERE report_id = :key",
                        "audited.yaml", 9, 7), null, null);

        assertThatThrownBy(() -> SqlFences.create(db, audited))
                .isInstanceOf(SqlFenceException.class)
                .hasMessage("audited.yaml: target audited: copyFrom public.copy_audited_write(bigint, bigint, text): "
                        + "it names public.copy_audit, outside the scratch schema; add public.copy_audit to copyFrom "
                        + "so that the copy uses a copy (Fencelab writes nowhere else)");
        assertThat(column(db, "SELECT count(*)::text FROM public.copy_audit")).containsExactly("0");
    }

    @Test
    void aSetupThatWritesOutsideTheScratchSchemaIsRefused(Database db) {
        SqlFence fence = new SqlFence("report", SqlText.of(SqlFences.TABLE.formatted("bigint")), List.of(),
                new SqlText("INSERT INTO report_state VALUES (17, '', 0);\nINSERT INTO public.copy_audit VALUES (1);",
                        "outside.yaml", 6, 7),
                List.of(SqlText.of(SqlFences.CORRECT)), rule("rows = 1", null, null), SqlText.of(SqlFences.READ),
                null, null);

        assertThatThrownBy(() -> SqlFences.create(db, fence))
                .isInstanceOf(SqlFenceException.class)
                .hasMessageMatching("outside\\.yaml:6: target report: setup changes public\\.copy_audit, outside the "
                        + "scratch schema; Fencelab writes nowhere else, so name objects without a schema "
                        + "\\(they are made in fencelab_\\w+\\)");
        assertThat(column(db, "SELECT count(*)::text FROM public.copy_audit")).containsExactly("0");
    }

    @Test
    void aSchemaScriptThatCreatesATableElsewhereIsRefusedAndLeavesNothing(Database db) {
        SqlFence fence = new SqlFence("report",
                new SqlText(SqlFences.TABLE.formatted("bigint") + "CREATE TABLE public.copy_stray (x int);",
                        "outside.yaml", 3, 7),
                List.of(), SqlText.of(SqlFences.SETUP), List.of(SqlText.of(SqlFences.CORRECT)),
                rule("rows = 1", null, null), SqlText.of(SqlFences.READ), null, null);

        assertThatThrownBy(() -> SqlFences.create(db, fence))
                .isInstanceOf(SqlFenceException.class)
                .hasMessageStartingWith("outside.yaml:3: target report: schema changes public.copy_stray, outside "
                        + "the scratch schema; Fencelab writes nowhere else");
        assertThat(column(db, "SELECT to_regclass('public.copy_stray')::text")).as("rolled back").containsOnlyNulls();
    }

    @Test
    void aWriteThatNamesAnotherSchemaIsRolledBackAndEndsTheRun(Database db) {
        String write = "WITH noted AS (INSERT INTO public.copy_audit VALUES (:token::bigint)) " + SqlFences.CORRECT;
        try (ScratchSchema scratch = SqlFences.create(db, SqlFences.report("bigint", write));
             Session session = db.openSession()) {
            SqlTarget target = scratch.target("report");

            assertThatThrownBy(() -> target.write(session, "s", "17", 5, null, "five", () -> { }))
                    .isInstanceOf(io.fencelab.engine.db.DatabaseException.class)
                    .hasMessage("the write of target report changed public.copy_audit, outside the scratch schema "
                            + scratch.name() + "; it was rolled back: Fencelab writes nowhere else")
                    .satisfies(e -> assertThat(((io.fencelab.engine.db.DatabaseException) e).failure().breaksRun())
                            .as("the run cannot go on").isTrue());
            assertThat(column(db, "SELECT count(*)::text FROM public.copy_audit")).containsExactly("0");
            assertThat(target.read(session, "s", "17")).isEqualTo(new ReadBack("0", ""));
        }
    }

    @Test
    void theSchemaIsGoneAfterClose(Database db) {
        ScratchSchema scratch = SqlFences.create(db, SqlFences.report("bigint", SqlFences.CORRECT));
        assertThat(SqlFences.schemaExists(db, scratch.name())).isTrue();

        scratch.close();
        scratch.close();

        assertThat(SqlFences.schemaExists(db, scratch.name())).as("dropped, and a second close is harmless").isFalse();
    }

    @Test
    void aKeptSchemaOutlivesItsRun(Database db) {
        String label = SqlFences.label("kept");
        try (ScratchSchema scratch = ScratchSchema.create(db, label,
                List.of(SqlFences.report("bigint", SqlFences.CORRECT)), true)) {
            assertThat(scratch.kept()).isTrue();
        }
        String name = ScratchSchema.nameFor(label);
        assertThat(SqlFences.schemaExists(db, name)).as("kept for the user to look at").isTrue();
        assertThat(column(db, "SELECT body FROM " + name + ".report_state")).as("with its rows").containsExactly("");
        SqlFences.execute(db, "DROP SCHEMA " + name + " CASCADE");
    }

    @Test
    void theLabelIsReducedToAnIdentifierOfOurOwn() {
        assertThat(ScratchSchema.nameFor("Probe: stale-holder #1")).isEqualTo("fencelab_probe__stale_holder__1");
        assertThat(ScratchSchema.nameFor("x".repeat(100))).hasSize(63);
    }
}
