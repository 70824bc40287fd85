package io.fencelab.engine.metrics;

import io.fencelab.engine.check.Judgement;
import io.fencelab.engine.event.Event;
import java.util.List;

/**
 * A run's tuning figures as its result carries them: worked out once, by {@link TuningCollector}
 * beside the judgement while the run goes on, and only rendered by summary.json, metrics.csv, the
 * report and the sweeps.
 *
 * @param totals    the figures of the whole run
 * @param perSecond one entry per second from second 0 to the run's last ({@link TuningCollector#series()})
 * @param episodes  every failover and lease loss the totals count, for the report's "why" tables
 */
public record TuningFigures(TuningMetrics totals, List<TuningSecond> perSecond, TuningEpisodes episodes) {

    public static final TuningFigures NONE = new TuningFigures(TuningMetrics.NONE, List.of(), TuningEpisodes.NONE);

    public TuningFigures {
        perSecond = List.copyOf(perSecond);
    }

    /** The figures of a whole log, judged by {@code judgement}: for a log that no run carried (an export under way, a test). */
    public static TuningFigures of(List<? extends Event> events, Judgement judgement) {
        TuningCollector collector = new TuningCollector();
        collector.accept(events);
        return collector.figures(judgement);
    }
}
