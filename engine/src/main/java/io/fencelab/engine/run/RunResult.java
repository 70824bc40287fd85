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
     * Whether the run failed before its end (the database went away or broke, {@code docs/RELIABILITY.md}):
     * neither completed nor stopped by its user. {@code fencelab run} exits with 3 exactly then.
     */
    public boolean failed() {
        return failed(endReason);
    }

    /** Whether a run that ended for {@code endReason} failed (see {@link #failed()}). */
    static boolean failed(String endReason) {
        return !"completed".equals(endReason) && !"stopped".equals(endReason);
    }

    /** Why the run failed, in a few words ({@code permission denied for table lease}); empty unless it failed. */
    public java.util.Optional<String> failureCause() {
        return failureCause(endReason);
    }

    /**
     * Why a run that ended for {@code endReason} (a {@code RunEnded} reason) failed; empty unless it
     * failed. The one reading of {@code failed: <cause>}, for whoever has only the log.
     */
    public static java.util.Optional<String> failureCause(String endReason) {
        if (endReason == null || !failed(endReason)) {
            return java.util.Optional.empty();
        }
        return java.util.Optional.of(endReason.startsWith(FAILED) ? endReason.substring(FAILED.length()) : endReason);
    }

    private static final String FAILED = "failed: ";

    /** The end reason of a run that failed because of {@code cause}: the one spelling of {@code failed: <cause>}. */
    static String failedBecause(String cause) {
        return FAILED + cause;
    }

    /** What a run that lost its database ends with (the database gone for longer than the scenario allows). */
    static final String UNREACHABLE = "database unreachable";
}
