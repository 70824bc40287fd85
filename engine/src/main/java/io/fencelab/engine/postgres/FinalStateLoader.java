package io.fencelab.engine.postgres;

import io.fencelab.engine.check.ValueDigest;
import io.fencelab.engine.db.RunContext;
import io.fencelab.engine.resource.ResourceState;
import io.fencelab.engine.resource.TargetKind;
import java.util.ArrayList;
import java.util.List;

/**
 * Reads a run's fenced resources as the database holds them, for the final-state invariant. Values
 * are digested here with {@link ValueDigest}, the same function writers use for
 * {@code WriteAccepted.valueDigest}, so the comparison never depends on a second implementation.
 */
public final class FinalStateLoader {

    private FinalStateLoader() {
    }

    /** Every row, object and pointer of the run, ordered by target, scope and key. */
    public static List<ResourceState> load(RunContext run) {
        List<ResourceState> states = new ArrayList<>();
        for (TargetKind kind : TargetKind.BUILT_IN) {
            // Table and column names are the enum's constants, never input.
            String sql = "SELECT scope, res_key, fencing_token, %s AS value FROM %s WHERE run_id = :run ORDER BY scope, res_key"
                    .formatted(kind.valueColumn(), kind.table());
            states.addAll(run.jdbi().withHandle(h -> h.createQuery(sql)
                    .bind("run", run.runId())
                    .map((rs, ctx) -> new ResourceState(kind, rs.getString("scope"), rs.getString("res_key"),
                            rs.getLong("fencing_token"),
                            kind == TargetKind.OBJECT ? ValueDigest.of(rs.getBytes("value"))
                                                      : ValueDigest.of(rs.getString("value"))))
                    .list()));
        }
        return List.copyOf(states);
    }
}
