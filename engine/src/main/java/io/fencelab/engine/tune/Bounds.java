package io.fencelab.engine.tune;

import io.fencelab.engine.event.Event;
import io.fencelab.engine.run.RunSpec;
import io.fencelab.engine.worker.WorkerSpec;
import java.time.Duration;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The closed-form bounds of a lease setting, which a sweep draws beside what its runs measured.
 *
 * <ul>
 *   <li><b>Failover</b>: a holder that crashes last renewed (or acquired) no later than the crash, so
 *       its lease expires at most one grant ({@code ttl}; Consul's servers grant twice the session
 *       ttl) after it; a profile with a lock-delay grants nothing for that long after; and a waiting
 *       candidate asks again within its profile's longest retry (its {@code idleTime}, or
 *       client-go's jittered retry period), so the next grant comes at most
 *       {@code ttl + lockDelay + retry} after the crash.</li>
 *   <li><b>Surviving a pause</b>: a holder renewing every {@code r} renewed at most {@code r} before
 *       its pause began, so its lease outlives any pause shorter than {@code ttl - r}; a pause longer
 *       than {@code ttl} always costs the lease (nothing renews it meanwhile). Holders that never
 *       renew have no such bound (NaN).</li>
 * </ul>
 *
 * @param failoverSeconds      {@code ttl + lockDelay + retry}: no failover may take longer
 * @param survivedPauseSeconds {@code ttl - renewEvery}: no shorter pause may cost the lease; NaN when
 *                             holders do not renew
 * @param lostPauseSeconds     {@code ttl}: every longer pause of a holder costs its lease
 */
public record Bounds(double failoverSeconds, double survivedPauseSeconds, double lostPauseSeconds) {

    /** The measured figures the bounds are compared with, as results-file columns, in this order. */
    public static final List<String> MEASURES = List.of("longestSurvivedPauseSeconds", "shortestLostPauseSeconds");

    /** The bounds of {@code spec}'s lease setting, for workers resting at most their longest {@code idleTime}. */
    public static Bounds of(RunSpec spec) {
        Duration idle = spec.workers().stream().map(WorkerSpec::idleTime).max(Duration::compareTo)
                .orElse(Duration.ZERO);
        double ttl = seconds(spec.leaseTtl());
        double renew = seconds(spec.renewInterval());
        double failover = ttl + seconds(spec.lease().lockDelay()) + seconds(spec.lease().longestRetry(idle));
        return new Bounds(failover, renew > 0 && renew < ttl ? ttl - renew : Double.NaN, ttl);
    }

    /**
     * From a run's events: the longest pause a lease holder came through still holding its lease, and
     * the shortest pause during which a holder's lease expired (NaN where there was none). Only pauses
     * that began while the holder held a lease count, and only while it still believed it held it (a
     * crash or a step-down ends that).
     */
    public static Map<String, Double> measure(List<? extends Event> events) {
        Set<String> holding = new HashSet<>();
        Map<String, long[]> openPause = new HashMap<>(); // holder -> {durationMicros, lost 0/1}
        double longestSurvived = Double.NaN;
        double shortestLost = Double.NaN;
        for (Event e : events) {
            switch (e) {
                case Event.LeaseAcquired a -> holding.add(a.holder());
                case Event.LeaseReleased r -> holding.remove(r.holder());
                case Event.LeaseExpired x -> {
                    holding.remove(x.holder());
                    long[] p = openPause.get(x.holder());
                    if (p != null) {
                        p[1] = 1;
                    }
                }
                case Event.BeliefEnded b -> {
                    // The holder let go (crashed, stepped down at its renew deadline, heard it was stale):
                    // a later expiry is not the pause's doing.
                    holding.remove(b.holder());
                    openPause.remove(b.holder());
                }
                case Event.PauseStarted p -> {
                    if (holding.contains(p.holder())) {
                        openPause.put(p.holder(), new long[] {p.durationMicros(), 0});
                    }
                }
                case Event.PauseEnded p -> {
                    long[] open = openPause.remove(p.holder());
                    if (open != null) {
                        double s = open[0] / 1e6;
                        if (open[1] == 1) {
                            shortestLost = Double.isNaN(shortestLost) ? s : Math.min(shortestLost, s);
                        } else {
                            longestSurvived = Double.isNaN(longestSurvived) ? s : Math.max(longestSurvived, s);
                        }
                    }
                }
                default -> {
                }
            }
        }
        Map<String, Double> out = new LinkedHashMap<>();
        out.put(MEASURES.get(0), longestSurvived);
        out.put(MEASURES.get(1), shortestLost);
        return out;
    }

    private static double seconds(Duration d) {
        return d.toNanos() / 1e9;
    }
}
