package io.fencelab.engine.chaos.pauses;

import java.math.BigDecimal;
import java.math.RoundingMode;
import java.time.Duration;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A duration as logs and lists write it: a decimal number and a unit ({@code 12.637ms},
 * {@code 14117537 ns}, {@code 0.0141175 seconds}), rounded to the microsecond, the engine's resolution.
 */
final class DurationText {

    static final String UNITS = "ns, us, ms, s";

    private static final Pattern VALUE = Pattern.compile("(\\d+(?:\\.\\d+)?|\\.\\d+)\\s*(ns|us|µs|ms|s|secs?|seconds?)");

    private DurationText() {
    }

    /** The duration {@code text} writes, or null if it is not a number with a unit. */
    static Duration parse(String text) {
        Matcher m = VALUE.matcher(text.strip());
        return m.matches() ? of(m.group(1), m.group(2)) : null;
    }

    /** {@code number} of {@code unit} ({@code ns}, {@code us}/{@code µs}, {@code ms}, {@code s}/{@code seconds}). */
    static Duration of(String number, String unit) {
        long nanosPerUnit = switch (unit) {
            case "ns" -> 1L;
            case "us", "µs" -> 1_000L;
            case "ms" -> 1_000_000L;
            default -> 1_000_000_000L;
        };
        BigDecimal micros = new BigDecimal(number).multiply(BigDecimal.valueOf(nanosPerUnit))
                .divide(BigDecimal.valueOf(1_000), 0, RoundingMode.HALF_UP);
        return ofMicros(micros.longValueExact());
    }

    static Duration ofMicros(long micros) {
        return Duration.ofNanos(Math.multiplyExact(micros, 1_000L));
    }

    /** A duration rounded to the microsecond. */
    static Duration toMicros(Duration d) {
        return ofMicros(Math.round(d.toNanos() / 1_000.0));
    }

    /** Why {@code text} is not a duration with a unit, for a located message. */
    static String why(String text) {
        String t = text.strip();
        if (t.length() <= PauseLogException.QUOTED && t.matches("\\d+(\\.\\d+)?|\\.\\d+")) {
            return "'" + t + "' has no unit; write " + t + "ms, " + t + "s, … (units: " + UNITS + ")";
        }
        return PauseLogException.quote(t) + " is not a duration (a number and a unit: 12.5ms, 1.2s; units: " + UNITS
                + ")";
    }
}
