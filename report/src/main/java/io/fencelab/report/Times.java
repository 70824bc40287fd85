package io.fencelab.report;

import java.math.BigDecimal;

/** Run times as reports print them: seconds with at least one decimal ({@code 45.0s}, {@code 1.25s}), as in witness summaries. */
final class Times {

    private Times() {
    }

    static String seconds(long micros) {
        BigDecimal seconds = BigDecimal.valueOf(micros, 6).stripTrailingZeros();
        return seconds.setScale(Math.max(1, seconds.scale())).toPlainString() + "s";
    }

    /** Seconds to one decimal, for a run's length: {@code 60.0s}, {@code 1675.6s}. */
    static String rounded(long micros) {
        return BigDecimal.valueOf(micros, 6).setScale(1, java.math.RoundingMode.HALF_UP).toPlainString() + "s";
    }

    /** A span of time: {@code 30.0s–45.0s}. */
    static String range(long startMicros, long endMicros) {
        return seconds(startMicros) + "–" + seconds(endMicros);
    }
}
