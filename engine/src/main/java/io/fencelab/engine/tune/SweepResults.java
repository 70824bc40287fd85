package io.fencelab.engine.tune;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;

/**
 * What a sweep has found so far, as plain data: each finished point's summary, each skipped point's
 * reason, and the judgement of them against the constraints. The sweep report, sweep.json and a
 * console's heatmap all read this.
 *
 * @param done    finished points by index
 * @param skipped points whose setting is not a valid scenario, by index, with the reason
 */
public record SweepResults(SweepPlan plan, Map<Integer, PointSummary> done, Map<Integer, String> skipped,
                           List<Requirement> requirements) {

    /** The trade-off plot's coordinates: failover p99 against lease losses per hour. */
    public static final String TRADE_OFF_X = "leaseLossesPerHour";
    public static final String TRADE_OFF_Y = "failoverP99Seconds";
    /** The trade-off's y when no point has a failover (nobody crashed, stepped down or lost a lease). */
    public static final String TRADE_OFF_Y_FALLBACK = "unavailability";

    public SweepResults {
        done = Collections.unmodifiableMap(new TreeMap<>(done));
        skipped = Collections.unmodifiableMap(new TreeMap<>(skipped));
        requirements = List.copyOf(requirements);
    }

    public List<Point> points() {
        return plan.points();
    }

    public Optional<Recommendation.Assessment> recommended() {
        return Recommendation.recommend(done.values(), requirements);
    }

    public Recommendation.Assessment assess(PointSummary p) {
        return Recommendation.assess(p, requirements);
    }

    /** The metric the trade-off plot's y axis shows: failover p99, or unavailability when no point had a failover. */
    public String tradeOffY() {
        boolean any = done.values().stream().anyMatch(p -> !Double.isNaN(p.mean(TRADE_OFF_Y)));
        return any ? TRADE_OFF_Y : TRADE_OFF_Y_FALLBACK;
    }

    /** The finished points on the Pareto frontier of the trade-off (means over seeds), by increasing x. */
    public List<PointSummary> frontier() {
        List<PointSummary> points = new ArrayList<>(done.values());
        String y = tradeOffY();
        double[] xs = points.stream().mapToDouble(p -> p.mean(TRADE_OFF_X)).toArray();
        double[] ys = points.stream().mapToDouble(p -> p.mean(y)).toArray();
        return Pareto.frontier(xs, ys).stream().map(points::get).toList();
    }
}
