package io.fencelab.report;

import java.math.BigDecimal;

/**
 * The horizontal scale shared by the report's timeline and rate charts, so their x positions agree;
 * and the one rule for where a time axis puts its ticks ({@link #ticks(double, double, double)}),
 * which the console's timeline uses too.
 */
public final class TimeAxis {

    static final int WIDTH = 1160;
    static final int LEFT = 168;
    static final int RIGHT = 24;
    static final int PLOT = WIDTH - LEFT - RIGHT;

    private final long runMicros;

    TimeAxis(long runMicros) {
        this.runMicros = Math.max(1, runMicros);
    }

    long runMicros() {
        return runMicros;
    }

    double x(long micros) {
        return LEFT + (double) Math.min(Math.max(micros, 0), runMicros) / runMicros * PLOT;
    }

    /** Tick positions over the whole run: at most ten steps. */
    long[] ticks() {
        return ticks(0, runMicros, 10);
    }

    /**
     * Where ticks go on an axis showing run time {@code fromMicros} to {@code toMicros}: every
     * multiple of {@link #tickStep tickStep(toMicros - fromMicros, maxSteps)} in that range, ends
     * included.
     */
    public static long[] ticks(double fromMicros, double toMicros, double maxSteps) {
        long step = tickStep(toMicros - fromMicros, maxSteps);
        double first = Math.ceil(fromMicros / step);
        // The step allows at most maxSteps + 1 ticks; the bound also holds for absurd input.
        double most = Math.floor(Math.max(1, maxSteps)) + 1;
        int n = (int) Math.max(0, Math.min(most, Math.floor(toMicros / step) - first + 1));
        long[] out = new long[n];
        for (int i = 0; i < n; i++) {
            out[i] = (long) (first + i) * step;
        }
        return out;
    }

    /**
     * The step between ticks: 1, 2 or 5 times a power of ten microseconds, the smallest that fits
     * {@code spanMicros} into at most {@code maxSteps} steps (at least one step, at least 1 µs).
     */
    public static long tickStep(double spanMicros, double maxSteps) {
        double least = spanMicros / Math.max(1, maxSteps);
        long power = 1;
        while (true) {
            for (long factor : new long[] {1, 2, 5}) {
                if (!(least > factor * power) || power > Long.MAX_VALUE / 100) {
                    return factor * power;
                }
            }
            power *= 10;
        }
    }

    /** A tick label: {@code 0s}, {@code 10s}, {@code 0.5s}. */
    static String label(long micros) {
        return BigDecimal.valueOf(micros, 6).stripTrailingZeros().toPlainString() + "s";
    }

    /** Vertical grid lines and tick labels; labels at {@code labelY} if not negative. */
    void grid(StringBuilder out, double top, double bottom, double labelY) {
        // Where the lines and labels go, for the report's zoom script, which draws the ticks of a window anew.
        out.append("<g class=\"grid\" data-top=\"").append(Html.num(top)).append("\" data-bottom=\"").append(Html.num(bottom))
                .append("\" data-label-y=\"").append(Html.num(labelY)).append("\">");
        for (long t : ticks()) {
            String x = Html.num(x(t));
            out.append("<line x1=\"").append(x).append("\" x2=\"").append(x).append("\" y1=\"").append(Html.num(top))
                    .append("\" y2=\"").append(Html.num(bottom)).append("\"/>");
            if (labelY >= 0) {
                out.append("<text class=\"tick\" x=\"").append(x).append("\" y=\"").append(Html.num(labelY))
                        .append("\">").append(Html.esc(label(t))).append("</text>");
            }
        }
        out.append("</g>");
    }
}
