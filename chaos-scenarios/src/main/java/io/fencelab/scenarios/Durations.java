package io.fencelab.scenarios;

import java.math.BigDecimal;
import java.time.Duration;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The duration syntax of scenario files: a decimal number and a unit, {@code 250ms}, {@code 30s},
 * {@code 1.5s}, {@code 2m}, {@code 1h}, optionally negative ({@code -5s}) where a field allows it.
 * The engine counts in microseconds, so finer values are refused rather than silently rounded.
 */
final class Durations {
    private Durations() {
    }

    static final String SYNTAX_HINT = "a number and a unit: 250ms, 30s, 1.5s, 2m, 1h";

    private static final Pattern DURATION = Pattern.compile("(-?)(\\d+(?:\\.\\d+)?)\\s*(ms|s|m|h)");

    /** The parsed duration, or a message saying what is wrong with {@code text}. */
    sealed interface Parsed {
        record Ok(Duration value) implements Parsed {}

        record Bad(String message) implements Parsed {}
    }

    static Parsed parse(String text) {
        String t = text.strip();
        Matcher m = DURATION.matcher(t);
        if (!m.matches()) {
            if (t.matches("-?\\d+(\\.\\d+)?")) {
                return new Parsed.Bad("'" + Texts.abbreviate(t) + "' has no unit; write " + t + "s, " + t
                        + "ms, " + t + "m or " + t + "h");
            }
            return new Parsed.Bad("'" + Texts.abbreviate(t) + "' is not a duration (" + SYNTAX_HINT + ")");
        }
        if (m.group(2).length() > 15) {
            return new Parsed.Bad("'" + Texts.abbreviate(t) + "' is too long for a duration");
        }
        long nanosPerUnit = switch (m.group(3)) {
            case "ms" -> 1_000_000L;
            case "s" -> 1_000_000_000L;
            case "m" -> 60_000_000_000L;
            default -> 3_600_000_000_000L;
        };
        BigDecimal nanos = new BigDecimal(m.group(2)).multiply(BigDecimal.valueOf(nanosPerUnit));
        if (nanos.remainder(BigDecimal.valueOf(1_000)).signum() != 0) {
            return new Parsed.Bad("'" + Texts.abbreviate(t) + "' is finer than a microsecond, the engine's resolution");
        }
        long exact;
        try {
            exact = nanos.longValueExact();
        } catch (ArithmeticException e) {
            return new Parsed.Bad("'" + Texts.abbreviate(t) + "' is too long for a duration");
        }
        Duration d = Duration.ofNanos(exact);
        return new Parsed.Ok(m.group(1).isEmpty() ? d : d.negated());
    }

    /**
     * {@code d} in the file syntax, as people read it in a message: whole hours in h, whole seconds in s
     * (60s, not 1m, so it matches what a story says), below a second in ms, else decimal seconds.
     */
    static String format(Duration d) {
        if (d.isNegative()) {
            return "-" + format(d.negated());
        }
        long micros = d.toNanos() / 1_000;
        if (micros == 0) {
            return "0s";
        }
        if (micros % 3_600_000_000L == 0) {
            return micros / 3_600_000_000L + "h";
        }
        if (micros % 1_000_000L == 0) {
            return micros / 1_000_000L + "s";
        }
        if (micros < 1_000_000 && micros % 1_000 == 0) {
            return micros / 1_000 + "ms";
        }
        return BigDecimal.valueOf(micros, 6).stripTrailingZeros().toPlainString() + "s";
    }
}
