package io.fencelab.engine.probe;

import io.fencelab.engine.fence.EqualToken;
import io.fencelab.engine.fence.FirstWritePolicy;
import io.fencelab.engine.fence.OutcomeRule;
import io.fencelab.engine.fence.SqlFence;
import io.fencelab.engine.fence.SqlText;
import io.fencelab.engine.resource.SqlKey;
import io.fencelab.engine.resource.TargetKind;
import io.fencelab.engine.run.RunSpec;
import io.fencelab.engine.run.UserFences;
import io.fencelab.engine.worker.StalePolicy;
import io.fencelab.engine.worker.TargetWrite;
import io.fencelab.engine.worker.WorkerSpec;
import io.fencelab.engine.fence.FencingMode;
import io.fencelab.testing.Specs;
import java.time.Duration;
import java.util.List;

/**
 * The design note's fence and a few broken ones, as a scenario's {@code targets:} would give them
 * (the engine's tests cannot read scenario files): the report_state table keyed by scope and report
 * id, setup's row for report 17 in scope {@value #SCOPE} at token 0.
 */
final class ProbeFences {

    static final String FILE = "fences.yaml";
    static final String SCOPE = "report";

    private ProbeFences() {
    }

    static SqlFence correct(String name) {
        return fence(name, "bigint", """
                UPDATE %s SET body = :body, fencing_token = :token
                WHERE scope = :scope AND report_id = :key AND fencing_token <= :token""");
    }

    static SqlFence textToken(String name) {
        return fence(name, "text", """
                UPDATE %s SET body = :body, fencing_token = :token
                WHERE scope = :scope AND report_id = :key AND fencing_token <= :token""");
    }

    static SqlFence noTokenPredicate(String name) {
        return fence(name, "bigint", """
                UPDATE %s SET body = :body, fencing_token = :token
                WHERE scope = :scope AND report_id = :key""");
    }

    /** A fence on table {@code <name>_state} with the token column of {@code tokenType} and {@code write} (%s: the table). */
    static SqlFence fence(String name, String tokenType, String write) {
        String table = name + "_state";
        SqlText schema = new SqlText("""
                CREATE TABLE %s (scope text NOT NULL, report_id bigint NOT NULL, body text NOT NULL,
                                 fencing_token %s NOT NULL, PRIMARY KEY (scope, report_id));
                """.formatted(table, tokenType), FILE, 5, 7);
        SqlText setup = new SqlText("INSERT INTO %s VALUES ('%s', 17, '', 0);".formatted(table, SCOPE), FILE, 9, 7);
        SqlText writeSql = new SqlText(write.formatted(table), FILE, 11, 7);
        SqlText read = new SqlText("SELECT fencing_token AS token, body FROM %s WHERE scope = :scope AND report_id = :key"
                .formatted(table), FILE, 14, 11);
        OutcomeRule rows = new OutcomeRule(OutcomeRule.parse("rows = 1").orElseThrow(), null, null);
        return new SqlFence(name, schema, List.of(), setup, List.of(writeSql), rows, read, EqualToken.ACCEPT,
                FirstWritePolicy.MISSING);
    }

    /** A scenario's spec whose two workers write key 17 of every fence in scope {@value #SCOPE}, in order. */
    static RunSpec spec(SqlFence... fences) {
        List<TargetWrite> writes = java.util.Arrays.stream(fences)
                .map(f -> new TargetWrite(TargetKind.SQL, SqlKey.of(f.name(), "17"))).toList();
        List<WorkerSpec> workers = List.of(
                new WorkerSpec("A", SCOPE, Duration.ZERO, Duration.ofSeconds(10), writes, 1, Duration.ofSeconds(5),
                        StalePolicy.ABANDON, false),
                new WorkerSpec("B", SCOPE, Duration.ofSeconds(31), Duration.ofSeconds(4), writes, 1,
                        Duration.ofSeconds(5), StalePolicy.ABANDON, false));
        return Specs.twoHolders(FencingMode.FENCED).toBuilder().workers(workers)
                .userFences(new UserFences(List.of(fences), false)).build();
    }
}
