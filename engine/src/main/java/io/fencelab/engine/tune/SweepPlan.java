package io.fencelab.engine.tune;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * What a sweep runs: a scenario, the parameters it varies with their values, and the seeds every
 * point runs with (the same seeds at every point, so points differ only by their setting). The grid
 * is every combination of the axes' values.
 *
 * @param scenario       the scenario's name
 * @param scenarioDigest a digest of the scenario file's text, so a changed file is not mixed with old results
 * @param axes           the varied parameters, in the order given; the first varies slowest
 * @param seeds          the seeds each point runs with
 */
public record SweepPlan(String scenario, String scenarioDigest, List<Axis> axes, List<Long> seeds) {

    /** More runs than this is surely a typo in a range; the message says how many it would be. */
    public static final int MAX_RUNS = 1_000_000;

    public SweepPlan {
        Objects.requireNonNull(scenario, "scenario");
        Objects.requireNonNull(scenarioDigest, "scenarioDigest");
        axes = List.copyOf(axes);
        seeds = List.copyOf(seeds);
        if (axes.isEmpty()) {
            throw new IllegalArgumentException("a sweep varies at least one parameter (--vary PATH=FROM..TO)");
        }
        if (seeds.isEmpty()) {
            throw new IllegalArgumentException("a sweep runs at least one seed per point");
        }
        if (axes.stream().map(Axis::path).distinct().count() != axes.size()) {
            throw new IllegalArgumentException("a parameter is varied twice: "
                    + String.join(", ", axes.stream().map(Axis::path).toList()));
        }
        long runs = (long) seeds.size();
        for (Axis a : axes) {
            runs *= a.values().size();
            if (runs > MAX_RUNS) {
                throw new IllegalArgumentException("the sweep would make more than " + MAX_RUNS
                        + " runs; use fewer steps or seeds");
            }
        }
    }

    /** Seeds {@code first}, {@code first + 1}, … ({@code count} of them). */
    public static List<Long> seeds(long first, int count) {
        if (count < 1) {
            throw new IllegalArgumentException("--seeds must be at least 1, was " + count);
        }
        List<Long> out = new ArrayList<>(count);
        for (int i = 0; i < count; i++) {
            out.add(first + i);
        }
        return out;
    }

    /** Every combination of the axes' values, the first axis varying slowest. */
    public List<Point> points() {
        List<Point> out = new ArrayList<>();
        int[] at = new int[axes.size()];
        int total = pointCount();
        for (int index = 0; index < total; index++) {
            List<AxisValue> values = new ArrayList<>(axes.size());
            for (int a = 0; a < axes.size(); a++) {
                values.add(axes.get(a).values().get(at[a]));
            }
            out.add(new Point(index, values));
            for (int a = axes.size() - 1; a >= 0; a--) {
                if (++at[a] < axes.get(a).values().size()) {
                    break;
                }
                at[a] = 0;
            }
        }
        return out;
    }

    public int pointCount() {
        int n = 1;
        for (Axis a : axes) {
            n *= a.values().size();
        }
        return n;
    }

    public int runCount() {
        return pointCount() * seeds.size();
    }

    /** The column names of the varied parameters: their paths. */
    public List<String> paths() {
        return axes.stream().map(Axis::path).toList();
    }

    /**
     * What makes two sweeps' results comparable: the scenario (and its text), the axes and the seeds.
     * How many jobs run them and which constraints judge them do not change a result, so they are not
     * part of it.
     */
    public Map<String, Object> identity() {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("scenario", scenario);
        m.put("scenarioDigest", scenarioDigest);
        List<Map<String, Object>> axisList = new ArrayList<>();
        for (Axis a : axes) {
            Map<String, Object> am = new LinkedHashMap<>();
            am.put("path", a.path());
            am.put("kind", a.kind().name());
            am.put("values", a.values().stream().map(AxisValue::text).toList());
            axisList.add(am);
        }
        m.put("axes", axisList);
        m.put("seeds", seeds.stream().map(String::valueOf).toList());
        return m;
    }

    /** One line: {@code paused-holder, lease.ttl=10s,20s, seeds 1..2}. */
    public String describe() {
        return scenario + ", " + String.join(" ", axes.stream().map(Axis::describe).toList()) + ", seeds "
                + seeds.get(0) + (seeds.size() > 1 ? ".." + seeds.get(seeds.size() - 1) : "");
    }
}
