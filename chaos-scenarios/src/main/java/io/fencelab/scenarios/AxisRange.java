package io.fencelab.scenarios;

import java.util.ArrayList;
import java.util.List;
import java.util.OptionalInt;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * One {@code --vary} argument as written, before anything knows what its path counts:
 * {@code PATH=FROM..TO[:STEPS][log]} or {@code PATH=V1,V2,…}. This is the one reader of that syntax;
 * the CLI's sweep ({@link ScenarioVariation#axis}) turns it into values of the path's kind, and the
 * console's tune form fills its fields from it.
 *
 * @param argument the argument as given, quoted in every message about it
 * @param path     the parameter's path in the scenario ({@code lease.ttl}, {@code workers[1].count})
 * @param values   a range or a list, each end or item as written (stripped)
 */
public record AxisRange(String argument, String path, Values values) {

    /** Steps a range gets when {@code :STEPS} is not given (and its ends differ). */
    public static final int DEFAULT_STEPS = 5;
    /** More steps than this on one axis is surely a typo. */
    public static final int MAX_STEPS = 1_000;

    static final String SYNTAX = "PATH=FROM..TO[:STEPS][log] (for example lease.ttl=10s..40s:4, "
            + "lease.ttl=1s..100s:5log) or PATH=V1,V2,…";

    private static final Pattern RANGE = Pattern.compile("(.+?)\\.\\.(.+?)(?::(\\d+))?(?::?(log))?");

    /** What follows {@code =}: a range or a list. */
    public sealed interface Values permits Span, Listed {
    }

    /**
     * {@code FROM..TO[:STEPS][log]}.
     *
     * @param steps empty when not written
     * @param log   whether the steps grow by a constant factor rather than a constant amount
     */
    public record Span(String from, String to, OptionalInt steps, boolean log) implements Values {

        /** The steps written, else 1 for a range whose ends are equal, else {@value #DEFAULT_STEPS}. */
        public int stepsBetween(double fromValue, double toValue) {
            return steps.orElse(fromValue == toValue ? 1 : DEFAULT_STEPS);
        }
    }

    /** {@code V1,V2,…} (one value is a list of one). */
    public record Listed(List<String> items) implements Values {
        public Listed {
            items = List.copyOf(items);
        }
    }

    /**
     * Reads one {@code --vary} argument.
     *
     * @throws IllegalArgumentException with one line naming the argument and what is wrong in its
     *                                  form (no {@code =}, no range or list, steps out of bounds)
     */
    public static AxisRange parse(String argument) {
        int eq = argument.indexOf('=');
        if (eq <= 0) {
            throw bad(argument, "write " + SYNTAX);
        }
        String path = argument.substring(0, eq).strip();
        String range = argument.substring(eq + 1).strip();
        Matcher m = RANGE.matcher(range);
        if (m.matches()) {
            OptionalInt steps = m.group(3) == null ? OptionalInt.empty() : OptionalInt.of(steps(m.group(3), argument));
            return new AxisRange(argument, path, new Span(m.group(1).strip(), m.group(2).strip(), steps,
                    m.group(4) != null));
        }
        // Something with ".." that is not a range is a range gone wrong, not a list of one odd value.
        if (range.isEmpty() || range.contains("..")) {
            throw bad(argument, "write " + SYNTAX);
        }
        List<String> items = new ArrayList<>();
        for (String part : range.split(",", -1)) {
            items.add(part.strip());
        }
        return new AxisRange(argument, path, new Listed(items));
    }

    /** An error about this argument: {@code --vary 'ARG': what}. */
    public IllegalArgumentException error(String what) {
        return bad(argument, what);
    }

    private static IllegalArgumentException bad(String argument, String what) {
        return new IllegalArgumentException("--vary '" + argument + "': " + what);
    }

    private static int steps(String text, String argument) {
        int steps;
        try {
            steps = Integer.parseInt(text);
        } catch (NumberFormatException e) {
            steps = Integer.MAX_VALUE; // more digits than an int holds: over the bound too
        }
        if (steps < 1 || steps > MAX_STEPS) {
            throw bad(argument, "STEPS must be from 1 to " + MAX_STEPS + ", was " + text);
        }
        return steps;
    }
}
