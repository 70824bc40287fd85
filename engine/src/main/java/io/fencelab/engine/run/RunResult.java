package io.fencelab.engine.run;

import io.fencelab.engine.check.Judgement;
import io.fencelab.engine.check.Verdict;
import io.fencelab.engine.metrics.MetricsSnapshot;
import java.nio.file.Path;

/**
 * What a finished run leaves: how it ended, the judgement (from the events and, when the database
 * was still reachable, its final state), the metrics, and where its event log is.
 *
 * @param endReason {@code completed}, {@code stopped} or {@code failed: …}
 */
public record RunResult(RunSpec spec, long runId, String endReason, Judgement judgement, MetricsSnapshot metrics,
                        Path eventLog, long events, String database) {

    public Verdict verdict() {
        return judgement.verdict();
    }

    /** False when the database could not be read at the end, so the verdict rests on the events alone. */
    public boolean finalStateJudged() {
        return judgement.finalStateJudged();
    }

    public boolean completed() {
        return "completed".equals(endReason);
    }

    /**
     * Whether the run failed before its end (the database went away): neither completed nor stopped
     * by its user. {@code fencelab run} exits with 3 exactly then.
     */
    public boolean failed() {
        return failed(endReason);
    }

    /** Whether a run that ended for {@code endReason} failed (see {@link #failed()}). */
    static boolean failed(String endReason) {
        return !"completed".equals(endReason) && !"stopped".equals(endReason);
    }
}
