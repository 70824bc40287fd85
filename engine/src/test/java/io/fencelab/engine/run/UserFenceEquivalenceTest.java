package io.fencelab.engine.run;

import static org.assertj.core.api.Assertions.assertThat;

import io.fencelab.engine.check.Judgement;
import io.fencelab.engine.check.Witness;
import io.fencelab.engine.check.WriteJudgement;
import io.fencelab.engine.db.Database;
import io.fencelab.engine.fence.EqualToken;
import io.fencelab.engine.fence.FencingMode;
import io.fencelab.engine.fence.FirstWritePolicy;
import io.fencelab.engine.fence.OutcomeRule;
import io.fencelab.engine.fence.SqlFence;
import io.fencelab.engine.fence.SqlText;
import io.fencelab.engine.fence.TokenScheme;
import io.fencelab.engine.resource.SqlKey;
import io.fencelab.engine.resource.TargetKind;
import io.fencelab.engine.worker.TargetWrite;
import io.fencelab.engine.worker.WorkerSpec;
import io.fencelab.testing.EmbeddedDatabase;
import io.fencelab.testing.RandomSchedules;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A user's fence that says in SQL what the built-in row target does is judged exactly as the row is:
 * the same verdict, the same witnesses and the same class for every write, over 200 random schedules
 * (pause storms, skew, jitter), fenced and unfenced. So what the probe finds in a user's fence is the
 * fence's doing, not the way Fencelab runs it.
 */
class UserFenceEquivalenceTest {

    private static final int SCHEDULES = 200;

    /** The built-in row's rules in the user's SQL: the first write creates, an equal token is accepted. */
    private static final String TABLE = """
            CREATE TABLE report_state (scope text NOT NULL, res_key text NOT NULL, fencing_token bigint NOT NULL,
                                       body text NOT NULL, PRIMARY KEY (scope, res_key));
            """;
    private static final String FENCED = """
            INSERT INTO report_state AS r VALUES (:scope, :key, :token, :body)
            ON CONFLICT (scope, res_key) DO UPDATE SET fencing_token = EXCLUDED.fencing_token, body = EXCLUDED.body
            WHERE r.fencing_token <= EXCLUDED.fencing_token
            """;
    private static final String BLIND = """
            INSERT INTO report_state AS r VALUES (:scope, :key, :token, :body)
            ON CONFLICT (scope, res_key) DO UPDATE SET fencing_token = EXCLUDED.fencing_token, body = EXCLUDED.body
            """;
    private static final String READ =
            "SELECT fencing_token AS token, body FROM report_state WHERE scope = :scope AND res_key = :key";

    private static Database db;

    @TempDir
    Path logs;

    @BeforeAll
    static void start() {
        db = EmbeddedDatabase.startThrowaway();
    }

    @AfterAll
    static void stop() {
        db.close();
    }

    @Test
    void aUserFenceWithTheRowsOwnStatementIsJudgedAsTheRowIsOverRandomSchedules() throws Exception {
        int violated = 0;
        for (long seed = 1; seed <= SCHEDULES; seed++) {
            FencingMode mode = seed % 2 == 0 ? FencingMode.FENCED : FencingMode.UNFENCED;
            RunSpec builtIn = onlyTheRow(RandomSchedules.of(seed, mode, TokenScheme.MONOTONIC));
            RunSpec user = asUserFence(builtIn, mode == FencingMode.FENCED ? FENCED : BLIND);

            Judgement row = run(builtIn, "row-" + seed);
            Judgement sql = run(user, "sql-" + seed);

            assertThat(sql.verdict().kind()).as("verdict, seed %d", seed).isEqualTo(row.verdict().kind());
            assertThat(invariants(sql)).as("witnesses, seed %d", seed).isEqualTo(invariants(row));
            assertThat(classes(sql)).as("write classes, seed %d", seed).isEqualTo(classes(row));
            assertThat(sql.finalStateJudged()).as("final state judged, seed %d", seed).isTrue();
            if (!row.isSafe()) {
                violated++;
            }
        }
        // The unfenced half must really have broken: otherwise the comparison proved little.
        assertThat(violated).as("violated schedules of %d", SCHEDULES).isGreaterThan(SCHEDULES / 4);
    }

    private Judgement run(RunSpec spec, String name) throws Exception {
        Path log = Files.createDirectories(logs.resolve(name)).resolve("events.jsonl");
        try (Run run = Run.prepare(db, spec, log, Backend.POSTGRES)) {
            return run.runToEnd().judgement();
        }
    }

    /** The random schedule's workers writing the row only (the pointer has no counterpart here). */
    private static RunSpec onlyTheRow(RunSpec spec) {
        List<WorkerSpec> workers = spec.workers().stream().map(w -> w.withWrites(List.of(new TargetWrite(
                TargetKind.ROW, "report")))).toList();
        return spec.toBuilder().workers(workers).build();
    }

    private static RunSpec asUserFence(RunSpec spec, String write) {
        SqlFence fence = new SqlFence("report", SqlText.of(TABLE), List.of(), null, List.of(SqlText.of(write)),
                new OutcomeRule(OutcomeRule.parse("rows = 1").orElseThrow(), null, null), SqlText.of(READ),
                EqualToken.ACCEPT, FirstWritePolicy.CREATE);
        List<WorkerSpec> workers = spec.workers().stream().map(w -> w.withWrites(List.of(new TargetWrite(
                TargetKind.SQL, SqlKey.of("report", "report"))))).toList();
        return spec.toBuilder().workers(workers).userFences(new UserFences(List.of(fence), false)).build();
    }

    private static List<String> invariants(Judgement judgement) {
        return judgement.verdict().witnesses().stream().map(Witness::invariant).map(Enum::name).toList();
    }

    private static List<String> classes(Judgement judgement) {
        return judgement.writes().all().stream().map(WriteJudgement::kind).map(Enum::name).toList();
    }
}
