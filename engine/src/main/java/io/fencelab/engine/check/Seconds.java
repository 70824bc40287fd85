package io.fencelab.engine.check;

import java.math.BigDecimal;

/** Run times in witness summaries: seconds with at least one decimal ({@code 45.0s}, {@code 1.25s}). */
final class Seconds {

    private Seconds() {
    }

    static String of(long micros) {
        BigDecimal seconds = BigDecimal.valueOf(micros, 6).stripTrailingZeros();
        return seconds.setScale(Math.max(1, seconds.scale())).toPlainString() + "s";
    }
}
