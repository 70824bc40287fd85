package io.fencelab.bench;

import java.util.List;
import java.util.Locale;

/** The rounds of one figure: their minimum, median and maximum. */
record Spread(double min, double median, double max) {

    static Spread of(List<Double> rounds) {
        if (rounds.isEmpty()) {
            throw new IllegalArgumentException("no rounds");
        }
        List<Double> sorted = rounds.stream().sorted().toList();
        int n = sorted.size();
        double median = n % 2 == 1 ? sorted.get(n / 2) : (sorted.get(n / 2 - 1) + sorted.get(n / 2)) / 2;
        return new Spread(sorted.getFirst(), median, sorted.getLast());
    }

    /** {@code min/median/max} with {@code decimals} digits after the point. */
    String format(int decimals) {
        String one = "%." + decimals + "f";
        return String.format(Locale.ROOT, one + "/" + one + "/" + one, min, median, max);
    }

    /** How far the rounds lie apart, as a fraction of the median: (max - min) / median. */
    double width() {
        return (max - min) / median;
    }
}
