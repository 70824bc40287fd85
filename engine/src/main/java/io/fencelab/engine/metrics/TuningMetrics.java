package io.fencelab.engine.metrics;

import io.fencelab.engine.check.Judgement;
import io.fencelab.engine.event.Event;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The figures a lease setting is tuned by, for one run: how long a scope that lost its serving
 * holder waits for a new grant, how much of the time a wanted scope was served by nobody (and why), and what the
 * setting costs in lost leases, leader changes, stale writes, wasted work and load on the lease
 * service. Computed from the events (and the judgement, for stale writes that were accepted) by
 * {@link TuningCollector}, the one place these rules live; {@code docs/TUNING.md} (## Metrics)
 * defines each figure.
 *
 * @param failovers            failovers (a scope's serving holder crashed, stepped down, or lost the
 *                             lease it believed it held) that ended with a grant on that scope before
 *                             the run ended: the n of the failover percentiles ({@link TuningEpisodes}
 *                             lists them, open ones too)
 * @param failoverP50Micros    from each such failover's start to the scope's next grant: the median (nearest
 *                             rank), or null when no failover finished
 * @param failoverP99Micros    the 99th percentile (nearest rank; the maximum when {@code failovers < 100}), or null
 * @param failoverMaxMicros    the longest, or null
 * @param unavailability       the mean over scopes of the fraction of run time during which the
 *                             scope was wanted and not served (0..1); the sum of {@code unavailableBy}
 * @param unavailableBy        the same time split by its cause, each as a fraction of the same whole
 * @param leaseLossesPerHour   leases a living holder lost while it still believed it held them,
 *                             other than by its own release or a crash: {@code pause + renewal}
 * @param pauseLossesPerHour   the losses with a pause of the holder since its last successful renewal
 * @param renewalLossesPerHour the rest: late, dropped or refused renewals
 * @param transitionsPerHour   grants to a holder other than the scope's previous grantee
 * @param staleWritesPerHour   writes refused by the fence plus stale writes the resource accepted
 * @param wastedJobs           jobs abandoned after a stale answer
 * @param leaseLoadPerSecond   acquire and renew requests per second of run time
 * @param runMicros            the run's length: {@code RunEnded.atMicros}, or the last event's time
 */
public record TuningMetrics(long failovers, Long failoverP50Micros, Long failoverP99Micros, Long failoverMaxMicros,
                            double unavailability, Unavailable unavailableBy, double leaseLossesPerHour,
                            double pauseLossesPerHour, double renewalLossesPerHour, double transitionsPerHour,
                            double staleWritesPerHour, long wastedJobs, double leaseLoadPerSecond, long runMicros) {

    /** Below this many failovers the nearest-rank p99 is the largest one, and is labelled so. */
    public static final int P99_NEEDS = 100;

    /**
     * Why a wanted scope was not served, as fractions of (scopes × run time).
     *
     * @param frozen         its holder held the lease and believed it, but was paused
     * @param awaitingExpiry the lease was still valid on the service, but its holder had crashed or no
     *                       longer believed it held it (a stepped-down leader): candidates wait for the expiry
     * @param acquiring      nobody held the lease and the lease service answered: a candidate acquiring
     * @param unreachable    nobody held the lease and the lease service could not be reached
     */
    public record Unavailable(double frozen, double awaitingExpiry, double acquiring, double unreachable) {

        public static final Unavailable NONE = new Unavailable(0, 0, 0, 0);

        public double total() {
            return frozen + awaitingExpiry + acquiring + unreachable;
        }
    }

    /** The figures' stable names, in the order of {@link #values()}: sweep columns, summary.json fields. */
    public static final List<String> NAMES = List.of("failoverP50Seconds", "failoverP99Seconds", "failoverMaxSeconds",
            "failovers", "unavailability", "unavailableFrozen", "unavailableAwaitingExpiry", "unavailableAcquiring",
            "unavailableUnreachable", "leaseLossesPerHour", "pauseLossesPerHour", "renewalLossesPerHour",
            "transitionsPerHour", "staleWritesPerHour", "wastedJobs", "leaseLoadPerSecond");

    /**
     * Names a figure used to have, to the name that now means the same: {@code spuriousLossesPerHour}
     * counted exactly what {@code renewalLossesPerHour} counts.
     */
    public static final Map<String, String> OLD_NAMES = Map.of("spuriousLossesPerHour", "renewalLossesPerHour");

    /** A run with no events. */
    public static final TuningMetrics NONE = new TuningMetrics(0, null, null, null, 0, Unavailable.NONE, 0, 0, 0, 0, 0,
            0, 0, 0);

    /** The figures of a whole log, judged by {@code judgement} (which says which accepted writes were stale). */
    public static TuningMetrics of(List<? extends Event> events, Judgement judgement) {
        return TuningFigures.of(events, judgement).totals();
    }

    /** Whether the failover p99 is simply the largest failover, as it is with fewer than {@link #P99_NEEDS}. */
    public boolean p99IsMax() {
        return failovers < P99_NEEDS;
    }

    /** The figures under {@link #NAMES}, in that order; a missing failover figure is NaN. */
    public Map<String, Double> values() {
        double[] v = {seconds(failoverP50Micros), seconds(failoverP99Micros), seconds(failoverMaxMicros), failovers,
            unavailability, unavailableBy.frozen(), unavailableBy.awaitingExpiry(), unavailableBy.acquiring(),
            unavailableBy.unreachable(), leaseLossesPerHour, pauseLossesPerHour, renewalLossesPerHour,
            transitionsPerHour, staleWritesPerHour, wastedJobs, leaseLoadPerSecond};
        Map<String, Double> named = new LinkedHashMap<>();
        for (int i = 0; i < v.length; i++) {
            named.put(NAMES.get(i), v[i]);
        }
        return Collections.unmodifiableMap(named);
    }

    private static double seconds(Long micros) {
        return micros == null ? Double.NaN : micros / 1e6;
    }
}
