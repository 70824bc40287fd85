package io.fencelab.report;

import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.List;

/** The horizontal scale shared by the timeline and the rate charts, so their x positions agree. */
final class TimeAxis {

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

    /** Tick positions: 1, 2 or 5 times a power of ten seconds, at most about ten ticks. */
    List<Long> ticks() {
        long step = 1;
        long[] factors = {1, 2, 5};
        outer:
        for (long power = 1; power <= 1_000_000_000_000L; power *= 10) {
            for (long f : factors) {
                step = f * power;
                if (runMicros / step <= 10) {
                    break outer;
                }
            }
        }
        List<Long> ticks = new ArrayList<>();
        for (long t = 0; t <= runMicros; t += step) {
            ticks.add(t);
        }
        return ticks;
    }

    /** A tick label: {@code 0s}, {@code 10s}, {@code 0.5s}. */
    static String label(long micros) {
        return BigDecimal.valueOf(micros, 6).stripTrailingZeros().toPlainString() + "s";
    }

    /** Vertical grid lines and tick labels; labels at {@code labelY} if not negative. */
    void grid(StringBuilder out, double top, double bottom, double labelY) {
        out.append("<g class=\"grid\">");
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
