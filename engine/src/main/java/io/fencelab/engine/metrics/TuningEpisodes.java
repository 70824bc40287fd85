package io.fencelab.engine.metrics;

import java.util.List;

/**
 * Every failover and every lease loss of a run, in time order: what a run's tuning figures count,
 * one by one, so a report can say why a setting scored as it did. A run keeps at most
 * {@link #KEPT_PER_KIND} of each (the first ones), so a long run or a large sweep does not grow
 * without bound; the figures still count them all, and the left-out counts let a report say "and N more".
 *
 * @param failovers          each failover, in order of its start
 * @param leaseLosses        each lease loss, in order of its report
 * @param failoversLeftOut   failovers after the first {@link #KEPT_PER_KIND}, counted but not listed
 * @param leaseLossesLeftOut lease losses after the first {@link #KEPT_PER_KIND}, counted but not listed
 */
public record TuningEpisodes(List<Failover> failovers, List<LeaseLoss> leaseLosses, long failoversLeftOut,
                             long leaseLossesLeftOut) {

    /** How many episodes of each kind a run lists at most. */
    public static final int KEPT_PER_KIND = 2_000;

    public static final TuningEpisodes NONE = new TuningEpisodes(List.of(), List.of());

    public TuningEpisodes {
        failovers = List.copyOf(failovers);
        leaseLosses = List.copyOf(leaseLosses);
    }

    /** Episodes with none left out. */
    public TuningEpisodes(List<Failover> failovers, List<LeaseLoss> leaseLosses) {
        this(failovers, leaseLosses, 0, 0);
    }
}
