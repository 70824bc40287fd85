package io.fencelab.engine.metrics;

import java.util.List;

/**
 * Every failover and every lease loss of a run, in time order: what a run's tuning figures count,
 * one by one, so a report can say why a setting scored as it did.
 *
 * @param failovers   each failover, in order of its start
 * @param leaseLosses each lease loss, in order of its report
 */
public record TuningEpisodes(List<Failover> failovers, List<LeaseLoss> leaseLosses) {

    public static final TuningEpisodes NONE = new TuningEpisodes(List.of(), List.of());

    public TuningEpisodes {
        failovers = List.copyOf(failovers);
        leaseLosses = List.copyOf(leaseLosses);
    }
}
