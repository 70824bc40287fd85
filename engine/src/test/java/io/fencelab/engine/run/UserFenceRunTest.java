package io.fencelab.engine.run;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.fencelab.engine.chaos.Distribution;
import io.fencelab.engine.chaos.FaultKind;
import io.fencelab.engine.chaos.FaultSpec;
import io.fencelab.engine.chaos.FaultStart;
import io.fencelab.engine.check.Invariant;
import io.fencelab.engine.check.Witness;
import io.fencelab.engine.db.Database;
import io.fencelab.engine.event.Event;
import io.fencelab.engine.event.EventLogReader;
import io.fencelab.engine.fence.EqualToken;
import io.fencelab.engine.fence.FencingMode;
import io.fencelab.engine.fence.FirstWritePolicy;
import io.fencelab.engine.fence.OutcomeRule;
import io.fencelab.engine.fence.SqlFence;
import io.fencelab.engine.fence.SqlFenceException;
import io.fencelab.engine.fence.SqlText;
import io.fencelab.engine.fence.TokenScheme;
import io.fencelab.engine.resource.SqlKey;
import io.fencelab.engine.resource.TargetKind;
import io.fencelab.engine.worker.StalePolicy;
import io.fencelab.engine.worker.TargetWrite;
import io.fencelab.engine.worker.WorkerSpec;
import io.fencelab.testing.EmbeddedDatabase;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/**
 * The user's own fence in a whole run: the paused-holder story through the executors against the
 * design note's table and UPDATE, and the same story against fences whose answers or columns lie.
 */
@ExtendWith(EmbeddedDatabase.class)
class UserFenceRunTest {

    private static final String TABLE = """
            CREATE TABLE report_state (report_id bigint PRIMARY KEY, body text NOT NULL, fencing_token %s NOT NULL);
            """;
    private static final String SETUP = "INSERT INTO report_state VALUES (17, '', 0);";
    private static final String UPDATE = """
            UPDATE report_state SET body = :body, fencing_token = :token
            WHERE report_id = :key AND fencing_token <= :token
            """;
    private static final String READ = "SELECT fencing_token AS token, body FROM report_state WHERE report_id = :key";

    @TempDir
    Path dir;

    @Test
    void thePausedHolderIsRefusedByTheUsersOwnUpdateAndTheNewerBodyStays(Database db) throws Exception {
        RunSpec spec = story(fence("bigint", UPDATE, "rows = 1"), ExecutorKind.SIMULATED, Map.of());

        RunResult result = run(db, spec);

        assertThat(result.verdict().witnesses()).isEmpty();
        List<Event> events = EventLogReader.read(result.eventLog());
        Event.WriteRejectedStale refused = events.stream().filter(Event.WriteRejectedStale.class::isInstance)
                .map(Event.WriteRejectedStale.class::cast).findFirst().orElseThrow();
        assertThat(refused.holder()).isEqualTo("A");
        assertThat(refused.target()).isEqualTo(TargetKind.SQL);
        assertThat(refused.key()).isEqualTo("report:17");
        assertThat(refused.highest()).isGreaterThan(refused.token());
        assertThat(result.judgement().finalStateJudged()).isTrue();
        assertThat(result.judgement().kept()).hasSize(1)
                .allSatisfy((id, kept) -> assertThat(kept.holder()).isEqualTo("B"));
        assertThat(scratchSchemas(db)).as("scratch schemas left after the run").isEmpty();
    }

    @Test
    void aLiveRunOfTheUsersFenceIsJudgedAsTheSimulatedOne(Database db) throws Exception {
        RunSpec spec = story(fence("bigint", UPDATE, "rows = 1"), ExecutorKind.LIVE, Map.of()).toBuilder()
                .timeScale(0.2).build();

        RunResult result = run(db, spec);

        assertThat(result.verdict().witnesses()).isEmpty();
        assertThat(EventLogReader.read(result.eventLog())).filteredOn(Event.WriteRejectedStale.class::isInstance)
                .isNotEmpty();
        assertThat(scratchSchemas(db)).isEmpty();
    }

    @Test
    void aFloatTokenColumnThatRoundsTheNewerTokenIsWitnessedAsAContradictedAnswer(Database db) throws Exception {
        long big = 1L << 53;
        RunSpec spec = story(fence("float8", UPDATE, "rows = 1"), ExecutorKind.SIMULATED, Map.of("report", big));

        RunResult result = run(db, spec);

        List<Event> events = EventLogReader.read(result.eventLog());
        Event.WriteContradicted contradicted = events.stream().filter(Event.WriteContradicted.class::isInstance)
                .map(Event.WriteContradicted.class::cast).findFirst().orElseThrow();
        assertThat(contradicted.said()).isEqualTo("ACCEPTED");
        assertThat(contradicted.token()).isEqualTo(big + 1);
        assertThat(new java.math.BigDecimal(contradicted.heldToken())).isEqualByComparingTo(java.math.BigDecimal.valueOf(big));
        assertThat(result.verdict().witnesses()).extracting(Witness::invariant).contains(Invariant.OUTCOME_CONTRADICTED);
    }

    @Test
    void aFunctionThatSaysOkWithoutComparingIsCaughtByTheRowItLeaves(Database db) throws Exception {
        String function = """
                CREATE TABLE report_state (report_id bigint PRIMARY KEY, body text NOT NULL, fencing_token bigint NOT NULL);
                CREATE FUNCTION fence_write(k bigint, t bigint, b text) RETURNS text LANGUAGE plpgsql AS $$
                BEGIN
                  UPDATE report_state SET body = b, fencing_token = t WHERE report_id = k AND fencing_token < t;
                  RETURN 'ok';
                END $$;
                """;
        SqlFence fence = new SqlFence("report", SqlText.of(function), List.of(), SqlText.of(SETUP),
                List.of(SqlText.of("SELECT fence_write(:key, :token, :body)")),
                new OutcomeRule(OutcomeRule.parse("result = 'ok'").orElseThrow(),
                        OutcomeRule.parse("result = 'stale'").orElseThrow(), null),
                SqlText.of(READ), EqualToken.ACCEPT, FirstWritePolicy.MISSING);

        RunResult result = run(db, story(fence, ExecutorKind.SIMULATED, Map.of()));

        assertThat(result.verdict().witnesses()).extracting(Witness::invariant).contains(Invariant.OUTCOME_CONTRADICTED);
        assertThat(EventLogReader.read(result.eventLog())).filteredOn(Event.WriteContradicted.class::isInstance)
                .first().satisfies(e -> assertThat(((Event.WriteContradicted) e).holder()).isEqualTo("A"));
    }

    @Test
    void keptScratchSchemaOutlivesTheRun(Database db) throws Exception {
        RunSpec spec = story(fence("bigint", UPDATE, "rows = 1"), ExecutorKind.SIMULATED, Map.of());
        spec = spec.toBuilder().userFences(spec.userFences().keeping(true)).build();

        RunResult result = run(db, spec);

        assertThat(scratchSchemas(db)).containsExactly("fencelab_run_" + result.runId());
        db.jdbi().useHandle(h -> h.execute("DROP SCHEMA fencelab_run_" + result.runId() + " CASCADE"));
    }

    @Test
    void aFenceWithBadSqlIsRefusedBeforeTheRunAndLeavesNoSchema(Database db) {
        RunSpec spec = story(fence("bigint", "UPDATE report_state SET body = :body WHERE report_id = :key AND fencing_tokn <= :token",
                "rows = 1"), ExecutorKind.SIMULATED, Map.of());

        assertThatThrownBy(() -> Run.prepare(db, spec, dir.resolve("bad.jsonl"), Backend.POSTGRES))
                .isInstanceOf(SqlFenceException.class).hasMessageContaining("fencing_tokn");
        assertThat(scratchSchemas(db)).isEmpty();
    }

    @Test
    void theInMemoryBackendRefusesAUsersFence() {
        RunSpec spec = story(fence("bigint", UPDATE, "rows = 1"), ExecutorKind.SIMULATED, Map.of());

        assertThat(Backend.MEMORY.refusal(spec)).hasValueSatisfying(why -> assertThat(why).contains("postgres"));
        assertThat(Backend.fastestFor(spec)).isEqualTo(Backend.POSTGRES);
    }

    private RunResult run(Database db, RunSpec spec) throws Exception {
        try (Run run = Run.prepare(db, spec, dir.resolve(spec.executor() + "-" + System.nanoTime() + ".jsonl"),
                Backend.POSTGRES)) {
            return run.runToEnd();
        }
    }

    private static SqlFence fence(String tokenType, String write, String accepted) {
        return new SqlFence("report", SqlText.of(TABLE.formatted(tokenType)), List.of(), SqlText.of(SETUP),
                List.of(SqlText.of(write)), new OutcomeRule(OutcomeRule.parse(accepted).orElseThrow(), null, null),
                SqlText.of(READ), EqualToken.ACCEPT, FirstWritePolicy.MISSING);
    }

    /** A acquires, freezes past its lease, B takes the lease and writes, A wakes and writes: the design note's story. */
    private static RunSpec story(SqlFence fence, ExecutorKind executor, Map<String, Long> firstTokens) {
        List<TargetWrite> writes = List.of(new TargetWrite(TargetKind.SQL, SqlKey.of("report", "17")));
        List<WorkerSpec> workers = List.of(
                new WorkerSpec("A", "report", Duration.ZERO, Duration.ofSeconds(1), writes, 1, Duration.ofMillis(200),
                        StalePolicy.ABANDON, false),
                new WorkerSpec("B", "report", Duration.ofMillis(2_500), Duration.ofMillis(200), writes, 1,
                        Duration.ofMillis(200), StalePolicy.ABANDON, false));
        FaultSpec pause = new FaultSpec(FaultKind.PAUSE, "A", new FaultStart.At(Duration.ofMillis(500)),
                new Distribution.Fixed(Duration.ofSeconds(5)), Duration.ZERO);
        return new RunSpec("user-fence-story", workers, firstTokens, Duration.ofSeconds(2), Duration.ZERO,
                FencingMode.FENCED, TokenScheme.MONOTONIC, FirstWritePolicy.MISSING, List.of(pause), 7,
                Duration.ofSeconds(8), executor, 1.0).toBuilder().userFences(new UserFences(List.of(fence), false))
                .build();
    }

    private static List<String> scratchSchemas(Database db) {
        return db.jdbi().withHandle(h -> h.createQuery(
                "SELECT nspname FROM pg_namespace WHERE nspname LIKE 'fencelab\\_run\\_%' ORDER BY 1")
                .mapTo(String.class).list());
    }
}
