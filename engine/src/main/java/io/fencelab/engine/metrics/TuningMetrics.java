package io.fencelab.engine.metrics;

import io.fencelab.engine.check.Judgement;
import io.fencelab.engine.event.Event;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The figures a lease setting is tuned by, for one run: how long a crashed holder's scope waits for
 * a new grant, how much of the time a wanted lease was held by nobody, and what the setting costs in
 * lost leases, leader changes, stale writes, wasted work and load on the lease service. Computed from
 * the events (and the judgement, for stale writes that were accepted) by {@link TuningCollector},
 * the one place these rules live; {@code docs/TUNING.md} (## Metrics) defines each figure.
 *
 * @param failovers             crashes of a holder that held a scope's lease, followed by a grant on
 *                              that scope before the run ended
 * @param failoverP50Micros     from each such crash to the scope's next grant: the median (nearest
 *                              rank), or null when no failover happened
 * @param failoverP99Micros     the 99th percentile (nearest rank), or null
 * @param failoverMaxMicros     the longest, or null
 * @param unavailability        the mean over scopes of the fraction of run time during which the
 *                              scope's lease was wanted and held by nobody (0..1)
 * @param spuriousLossesPerHour leases a running holder lost while it still believed it held them
 * @param transitionsPerHour    grants to a holder other than the scope's previous grantee
 * @param staleWritesPerHour    writes refused by the fence plus stale writes the resource accepted
 * @param wastedJobs            jobs abandoned after a stale answer
 * @param leaseLoadPerSecond    acquire and renew requests per second of run time
 * @param runMicros             the run's length: {@code RunEnded.atMicros}, or the last event's time
 */
public record TuningMetrics(long failovers, Long failoverP50Micros, Long failoverP99Micros, Long failoverMaxMicros,
                            double unavailability, double spuriousLossesPerHour, double transitionsPerHour,
                            double staleWritesPerHour, long wastedJobs, double leaseLoadPerSecond, long runMicros) {

    /** The figures' stable names, in the order of {@link #values()}: sweep columns, summary.json fields. */
    public static final List<String> NAMES = List.of("failoverP50Seconds", "failoverP99Seconds", "failoverMaxSeconds",
            "failovers", "unavailability", "spuriousLossesPerHour", "transitionsPerHour", "staleWritesPerHour",
            "wastedJobs", "leaseLoadPerSecond");

    /** A run with no events. */
    public static final TuningMetrics NONE = new TuningMetrics(0, null, null, null, 0, 0, 0, 0, 0, 0, 0);

    /** The figures of a whole log, judged by {@code judgement} (which says which accepted writes were stale). */
    public static TuningMetrics of(List<? extends Event> events, Judgement judgement) {
        TuningCollector collector = new TuningCollector();
        collector.accept(events);
        return collector.metrics(judgement);
    }

    /** The figures under {@link #NAMES}, in that order; a missing failover figure is NaN. */
    public Map<String, Double> values() {
        Map<String, Double> v = new LinkedHashMap<>();
        v.put(NAMES.get(0), seconds(failoverP50Micros));
        v.put(NAMES.get(1), seconds(failoverP99Micros));
        v.put(NAMES.get(2), seconds(failoverMaxMicros));
        v.put(NAMES.get(3), (double) failovers);
        v.put(NAMES.get(4), unavailability);
        v.put(NAMES.get(5), spuriousLossesPerHour);
        v.put(NAMES.get(6), transitionsPerHour);
        v.put(NAMES.get(7), staleWritesPerHour);
        v.put(NAMES.get(8), (double) wastedJobs);
        v.put(NAMES.get(9), leaseLoadPerSecond);
        return Collections.unmodifiableMap(v);
    }

    private static double seconds(Long micros) {
        return micros == null ? Double.NaN : micros / 1e6;
    }
}
