package io.fencelab.engine.tune;

import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;

/**
 * Which settings meet every {@link Requirement}, and the one to recommend: the feasible point with the
 * widest margin to every constraint, that is the largest smallest margin (see
 * {@link Requirement#margin}); ties go to the point that comes first in the plan.
 *
 * <p>A point some seed of which went past a bound for a reason the bound models is never recommended:
 * that should be impossible, so its figures are not to be trusted (the sweep page says why). A point
 * past a bound only for reasons the bound leaves out (every replica down, the lease service
 * unreachable, network faults) stays eligible, since its measured figures are what the constraints
 * judge, and is recommended with those reasons shown ({@link Assessment#pastBounds}).
 */
public final class Recommendation {

    private Recommendation() {
    }

    /**
     * How a point fares against the constraints.
     *
     * @param margins one per requirement, in order
     * @param margin  the smallest of them (+infinity with no requirement)
     */
    public record Assessment(PointSummary point, List<Double> margins, double margin) {
        /** Meets every requirement, and no seed went past a bound for a reason the bound models. */
        public boolean feasible() {
            return margin >= 0 && !point.pastBoundUnexplained();
        }

        /** Every seed's runs past a bound and why, for the page to show beside a recommendation. */
        public java.util.Map<Long, List<Bounds.PastBound>> pastBounds() {
            return point.pastBounds();
        }
    }

    public static Assessment assess(PointSummary p, List<Requirement> requirements) {
        List<Double> margins = new ArrayList<>();
        double least = Double.POSITIVE_INFINITY;
        for (Requirement r : requirements) {
            double m = r.margin(p);
            margins.add(m);
            least = Math.min(least, m);
        }
        return new Assessment(p, margins, least);
    }

    /** The recommended point, if some point meets every requirement; none without requirements. */
    public static Optional<Assessment> recommend(Collection<PointSummary> points, List<Requirement> requirements) {
        if (requirements.isEmpty()) {
            return Optional.empty();
        }
        return points.stream().map(p -> assess(p, requirements)).filter(Assessment::feasible)
                .max(Comparator.comparingDouble(Assessment::margin)
                        .thenComparing(a -> -a.point().point().index()));
    }
}
