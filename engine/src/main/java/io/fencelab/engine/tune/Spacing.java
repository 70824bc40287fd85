package io.fencelab.engine.tune;

/** Where the steps of a range fall: evenly, or evenly on a logarithmic scale. */
public final class Spacing {

    private Spacing() {
    }

    /** {@code steps} values from {@code from} to {@code to}, ends included, equally apart. */
    public static double[] linear(double from, double to, int steps) {
        check(steps);
        double[] out = new double[steps];
        for (int i = 0; i < steps; i++) {
            out[i] = steps == 1 ? from : from + (to - from) * i / (steps - 1);
        }
        if (steps > 1) {
            out[steps - 1] = to; // no rounding drift at the end the user wrote
        }
        return out;
    }

    /** {@code steps} values from {@code from} to {@code to}, ends included, each the same factor apart. */
    public static double[] log(double from, double to, int steps) {
        check(steps);
        if (!(from > 0) || !(to > 0)) {
            throw new IllegalArgumentException("a log range needs both ends above 0");
        }
        double[] out = new double[steps];
        double a = Math.log(from);
        double b = Math.log(to);
        for (int i = 0; i < steps; i++) {
            out[i] = steps == 1 ? from : Math.exp(a + (b - a) * i / (steps - 1));
        }
        out[0] = from;
        if (steps > 1) {
            out[steps - 1] = to;
        }
        return out;
    }

    private static void check(int steps) {
        if (steps < 1) {
            throw new IllegalArgumentException("a range needs at least one step, was " + steps);
        }
    }
}
