package io.fencelab.engine.tune;

import java.util.Comparator;
import java.util.List;
import java.util.Objects;

/**
 * A point's results over its seeds: mean, least and greatest of every figure (NaN figures left out;
 * NaN when no seed has the figure), and its worst seed.
 *
 * @param bounds the closed-form bounds of the point's setting
 */
public record PointSummary(Point point, List<ResultRow> runs, Bounds bounds) {

    /**
     * Worst first: a run whose verdict is VIOLATED, then the larger unavailability, then more lease
     * losses, then more stale writes, then the lower seed. The worst seed's report is the one a
     * sweep keeps for each point.
     */
    public static final Comparator<ResultRow> WORST_FIRST = Comparator
            .comparing(ResultRow::violated).reversed()
            .thenComparing(Comparator.comparingDouble((ResultRow r) -> orZero(r.value("unavailability"))).reversed())
            .thenComparing(Comparator.comparingDouble((ResultRow r) -> orZero(r.value("leaseLossesPerHour")))
                    .reversed())
            .thenComparing(Comparator.comparingDouble((ResultRow r) -> orZero(r.value("staleWritesPerHour")))
                    .reversed())
            .thenComparingLong(ResultRow::seed);

    public PointSummary {
        Objects.requireNonNull(point, "point");
        Objects.requireNonNull(bounds, "bounds");
        runs = runs.stream().sorted(Comparator.comparingLong(ResultRow::seed)).toList();
        if (runs.isEmpty()) {
            throw new IllegalArgumentException("a point summary needs at least one run");
        }
    }

    public double mean(String figure) {
        return runs.stream().mapToDouble(r -> r.value(figure)).filter(v -> !Double.isNaN(v)).average().orElse(Double.NaN);
    }

    public double min(String figure) {
        return runs.stream().mapToDouble(r -> r.value(figure)).filter(v -> !Double.isNaN(v)).min().orElse(Double.NaN);
    }

    public double max(String figure) {
        return runs.stream().mapToDouble(r -> r.value(figure)).filter(v -> !Double.isNaN(v)).max().orElse(Double.NaN);
    }

    public ResultRow worst() {
        return runs.stream().min(WORST_FIRST).orElseThrow();
    }

    /** Every seed's runs past a bound, by seed, with what took each there. */
    public java.util.Map<Long, List<Bounds.PastBound>> pastBounds() {
        java.util.Map<Long, List<Bounds.PastBound>> out = new java.util.TreeMap<>();
        runs.stream().filter(r -> !r.pastBounds().isEmpty()).forEach(r -> out.put(r.seed(), r.pastBounds()));
        return out;
    }

    /** Whether some seed went past a bound for a reason the bound models: a bug, so the point is not recommended. */
    public boolean pastBoundUnexplained() {
        return runs.stream().anyMatch(ResultRow::pastBoundUnexplained);
    }

    public long violatedRuns() {
        return runs.stream().filter(ResultRow::violated).count();
    }

    private static double orZero(double v) {
        return Double.isNaN(v) ? 0 : v;
    }
}
