package io.fencelab.engine.fence;

import io.fencelab.engine.db.RunContext;
import io.fencelab.engine.resource.TargetKind;
import java.util.List;

/**
 * The database's own record of every change to a run's fenced resources (filled by triggers, so it
 * sees fenced, unfenced and hand-made writes alike), in the order the database applied them.
 */
public final class FenceAudit {

    /** One applied change. {@code previousToken} is null when the write created the resource. */
    public record Entry(long auditId, String scope, TargetKind target, String key, Long previousToken, long token,
                        Long seq) {}

    private static final String SELECT = """
            SELECT audit_id, scope, target, res_key, previous_token, token, op_seq
              FROM fence_audit WHERE run_id = :run
            """;

    /**
     * Changes applied with a token older than one the same resource had already accepted: exactly
     * the writes fencing exists to stop.
     */
    private static final String REGRESSIONS = """
            SELECT audit_id, scope, target, res_key, previous_token, token, op_seq FROM (
                SELECT a.*, max(token) OVER (PARTITION BY target, scope, res_key ORDER BY audit_id
                                             ROWS BETWEEN UNBOUNDED PRECEDING AND 1 PRECEDING) AS highest_before
                  FROM fence_audit a WHERE run_id = :run
            ) x
             WHERE token < highest_before
             ORDER BY audit_id
            """;

    private final RunContext run;

    public FenceAudit(RunContext run) {
        this.run = run;
    }

    /** Every applied change of the run, in apply order. */
    public List<Entry> entries() {
        return query(SELECT + " ORDER BY audit_id");
    }

    /** Applied changes whose token was older than one already accepted on that resource. */
    public List<Entry> regressions() {
        return query(REGRESSIONS);
    }

    private List<Entry> query(String sql) {
        return run.jdbi().withHandle(h -> h.createQuery(sql)
                .bind("run", run.runId())
                .map((rs, ctx) -> new Entry(rs.getLong("audit_id"), rs.getString("scope"),
                        TargetKind.valueOf(rs.getString("target")), rs.getString("res_key"),
                        (Long) rs.getObject("previous_token"), rs.getLong("token"), (Long) rs.getObject("op_seq")))
                .list());
    }
}
