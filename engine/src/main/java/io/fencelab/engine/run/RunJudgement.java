package io.fencelab.engine.run;

import io.fencelab.engine.check.Judgement;
import io.fencelab.engine.check.OnlineChecker;
import io.fencelab.engine.check.Verdict;
import io.fencelab.engine.event.Event;
import io.fencelab.engine.metrics.MetricsCollector;
import io.fencelab.engine.metrics.MetricsSnapshot;
import io.fencelab.engine.metrics.TuningCollector;
import io.fencelab.engine.metrics.TuningFigures;
import io.fencelab.engine.metrics.TuningMetrics;
import io.fencelab.engine.resource.ResourceState;
import java.util.List;

/**
 * The online checker, the metrics and the tuning figures of one run, fed batch by batch by the bus and read from other
 * threads (the console polls them every frame). Thread-safe; the lock is never held while waiting.
 */
public final class RunJudgement {

    private final OnlineChecker checker = new OnlineChecker();
    private final MetricsCollector metrics = new MetricsCollector();
    private final TuningCollector tuning = new TuningCollector();

    /** Judges and counts the next batch. */
    public synchronized void accept(List<? extends Event> batch) {
        metrics.accept(batch);
        checker.accept(batch);
        tuning.accept(batch);
    }

    /** The verdict on the events so far. */
    public synchronized Verdict verdict() {
        return checker.verdict();
    }

    /** The judgement of the events so far: a snapshot that later events do not change. */
    public synchronized Judgement judgement() {
        return checker.judgement();
    }

    /** The judgement of the events so far and the run's final state. */
    public synchronized Judgement judgement(List<ResourceState> finalState) {
        return checker.judgement(finalState);
    }

    public synchronized MetricsSnapshot metrics() {
        return metrics.snapshot();
    }

    /** The tuning figures of the events so far, judged so far (cheap enough to poll a few times a second). */
    public synchronized TuningMetrics tuningSoFar() {
        return tuning.metrics(checker.judgement());
    }

    /** The tuning figures of the events so far, with {@code judgement} saying which accepted writes were stale. */
    public synchronized TuningFigures tuning(Judgement judgement) {
        return tuning.figures(judgement);
    }
}
