package io.fencelab.engine.tune;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.stream.IntStream;

/**
 * The Pareto frontier of points where smaller is better on both coordinates (failover time and
 * lease losses): the points no other point beats on one coordinate without losing on the other.
 */
public final class Pareto {

    private Pareto() {
    }

    /**
     * The indexes (into {@code x} and {@code y}) of the frontier, by increasing x. Points with a NaN
     * coordinate are left out; of points at the same place, the first is kept.
     */
    public static List<Integer> frontier(double[] x, double[] y) {
        if (x.length != y.length) {
            throw new IllegalArgumentException("x and y differ in length");
        }
        List<Integer> order = IntStream.range(0, x.length).filter(i -> !Double.isNaN(x[i]) && !Double.isNaN(y[i]))
                .boxed().sorted(Comparator.<Integer>comparingDouble(i -> x[i]).thenComparingDouble(i -> y[i])
                        .thenComparingInt(i -> i)).toList();
        List<Integer> out = new ArrayList<>();
        double bestY = Double.POSITIVE_INFINITY;
        for (int i : order) {
            if (y[i] < bestY) {
                out.add(i);
                bestY = y[i];
            }
        }
        return out;
    }
}
