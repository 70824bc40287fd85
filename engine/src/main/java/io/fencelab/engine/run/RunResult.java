package io.fencelab.engine.run;

import io.fencelab.engine.check.Judgement;
import io.fencelab.engine.check.Verdict;
import io.fencelab.engine.metrics.MetricsSnapshot;
import io.fencelab.engine.metrics.TuningFigures;
import io.fencelab.engine.event.Event.RunEnded;
import java.nio.file.Path;
import java.util.Optional;

/**
 * What a finished run leaves: how it ended, the judgement (from the events and, when the database
 * was still reachable, its final state), the metrics, the tuning figures, and where its event log is.
 *
 * @param end    how the run ended: completed, stopped or failed with its cause (its {@code RunEnded})
 * @param tuning the tuning figures, worked out once while the run went on and judged by {@code judgement};
 *               every writer renders these instead of working them out again
 */
public record RunResult(RunSpec spec, long runId, RunEnded.Reason end, Judgement judgement, MetricsSnapshot metrics,
                        TuningFigures tuning, Path eventLog, long events, String database) {

    public Verdict verdict() {
        return judgement.verdict();
    }

    /** False when the database could not be read at the end, so the verdict rests on the events alone. */
    public boolean finalStateJudged() {
        return judgement.finalStateJudged();
    }

    /** How the run ended, in its one wording: {@code completed}, {@code stopped} or {@code failed: <cause>}. */
    public String endReason() {
        return end.words();
    }

    public boolean completed() {
        return end.completed();
    }

    /**
     * Whether the run failed before its end (the database went away or broke, {@code docs/RELIABILITY.md}):
     * neither completed nor stopped by its user. {@code fencelab run} exits with 3 exactly then.
     */
    public boolean failed() {
        return end.failed();
    }

    /** Why the run failed, in a few words ({@code permission denied for table lease}); empty unless it failed. */
    public Optional<String> failureCause() {
        return end.failureCause();
    }

    /** What a run that lost its database ends with (the database gone for longer than the scenario allows). */
    static final RunEnded.Reason UNREACHABLE = RunEnded.Reason.failed("database unreachable");
}
