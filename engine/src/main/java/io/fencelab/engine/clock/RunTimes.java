package io.fencelab.engine.clock;

import java.math.BigDecimal;
import java.math.RoundingMode;
import java.util.Locale;

/**
 * How run times are printed, everywhere: witness summaries, reports, the console. Times are run
 * microseconds (virtual in simulated runs).
 */
public final class RunTimes {

    private RunTimes() {
    }

    /** Seconds with at least one decimal and no more than the time has: {@code 45.0s}, {@code 1.25s}. */
    public static String seconds(long micros) {
        BigDecimal seconds = BigDecimal.valueOf(micros, 6).stripTrailingZeros();
        return seconds.setScale(Math.max(1, seconds.scale())).toPlainString() + "s";
    }

    /** Seconds to one decimal, for a run's length: {@code 60.0s}, {@code 1675.6s}. */
    public static String rounded(long micros) {
        return BigDecimal.valueOf(micros, 6).setScale(1, RoundingMode.HALF_UP).toPlainString() + "s";
    }

    /** A span of time: {@code 30.0s–45.0s}. */
    public static String range(long startMicros, long endMicros) {
        return seconds(startMicros) + "–" + seconds(endMicros);
    }

    /** To the millisecond, for a running clock: {@code 45.000 s}, {@code 0.250 s}, {@code 2 min 05.000 s}. */
    public static String precise(long micros) {
        String sign = micros < 0 ? "-" : "";
        long abs = Math.abs(micros);
        long minutes = abs / 60_000_000;
        double secs = (abs % 60_000_000) / 1e6;
        if (minutes == 0) {
            return sign + String.format(Locale.ROOT, "%.3f s", secs);
        }
        return sign + String.format(Locale.ROOT, "%d min %06.3f s", minutes, secs);
    }

    /** A short form for axes and labels: {@code 45 s}, {@code 1.5 s}, {@code 250 ms}, {@code 2 min}. */
    public static String brief(long micros) {
        long abs = Math.abs(micros);
        String sign = micros < 0 ? "-" : "";
        if (abs == 0) {
            return "0 s";
        }
        if (abs < 1_000) {
            return sign + abs + " µs";
        }
        if (abs < 1_000_000) {
            return sign + trim(abs / 1e3) + " ms";
        }
        if (abs < 120_000_000 || abs % 60_000_000 != 0) {
            return sign + trim(abs / 1e6) + " s";
        }
        return sign + (abs / 60_000_000) + " min";
    }

    private static String trim(double v) {
        String s = String.format(Locale.ROOT, "%.3f", v);
        s = s.replaceAll("0+$", "");
        return s.endsWith(".") ? s.substring(0, s.length() - 1) : s;
    }
}
