package io.fencelab.scenarios;

import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.regex.Pattern;

/**
 * Reads typed values out of {@link YamlNode}s. A value that is wrong is reported (at the node, with
 * what is allowed) and read as null, so the caller carries on and the file's other problems are found
 * in the same pass.
 */
final class ValueReader {

    /** What a duration field accepts beyond the syntax. */
    enum DurationRule {
        ANY(""), NOT_NEGATIVE("must not be negative"), POSITIVE("must be more than 0s");

        final String requirement;

        DurationRule(String requirement) {
            this.requirement = requirement;
        }
    }

    private static final Pattern DECIMAL_INTEGER = Pattern.compile("[-+]?\\d+");
    private static final Pattern DECIMAL_NUMBER = Pattern.compile("[-+]?(\\d+(\\.\\d*)?|\\.\\d+)([eE][-+]?\\d+)?");

    private final Problems problems;

    ValueReader(Problems problems) {
        this.problems = problems;
    }

    Problems problems() {
        return problems;
    }

    void problem(YamlNode at, String path, String message) {
        problems.add(at.mark(), path, message);
    }

    /** A mapping's keys, checked against {@code allowed}; null (reported) if the node is not a mapping. */
    Fields fields(YamlNode node, String path, List<String> allowed) {
        if (!(node instanceof YamlNode.Mapping mapping)) {
            problem(node, path, "expected a mapping of keys (" + String.join(", ", allowed) + "), got "
                    + node.describe());
            return null;
        }
        for (YamlNode.Field f : mapping.fields().values()) {
            if (!allowed.contains(f.key())) {
                String hint = Texts.suggestion(f.key(), allowed);
                problems.add(f.keyMark(), Fields.child(path, Texts.abbreviate(f.key())), "unknown key"
                        + (hint == null ? "" : "; did you mean " + hint + "?")
                        + " (allowed: " + String.join(", ", allowed) + ")");
            }
        }
        return new Fields(this, mapping, path);
    }

    List<YamlNode> list(YamlNode node, String path, String ofWhat) {
        if (node instanceof YamlNode.Sequence sequence) {
            return sequence.items();
        }
        problem(node, path, "expected a list of " + ofWhat + ", got " + node.describe());
        return null;
    }

    /**
     * A name or free text: any single value taken as written ({@code key: 2024}). Surrounding
     * blanks are dropped; an empty text is refused.
     */
    String text(YamlNode node, String path) {
        return text(node, path, false);
    }

    /**
     * A name: a worker, scope, key, target, profile or file, which reaches the database, the event log
     * and reports. As {@link #text}, without line breaks, tabs or invisible formatting characters
     * either: a NUL fails every statement (PostgreSQL refuses it in text), and a line break or a
     * right-to-left override makes a log line or a report say something other than what happened.
     */
    String name(YamlNode node, String path) {
        return text(node, path, true);
    }

    private String text(YamlNode node, String path, boolean name) {
        // YAML reads `no` and `on` as booleans; as a name (scope: on) they are just text.
        if (node instanceof YamlNode.Scalar s && s.kind() != YamlNode.ScalarKind.NULL) {
            String t = s.text().strip();
            if (t.isEmpty()) {
                problem(node, path, "must not be empty");
                return null;
            }
            String refused = refusedCharacter(t, name);
            if (refused != null) {
                problem(node, path, refused);
                return null;
            }
            return t;
        }
        problem(node, path, "expected a text, got " + node.describe());
        return null;
    }

    /**
     * Why {@code t} cannot be a name ({@code name}) or a text, or null if it can. Texts (a story, a
     * question) may hold line breaks and tabs; neither may hold other control characters, line or
     * paragraph separators or lone surrogates, and a name no formatting characters (U+200B, U+202E).
     */
    static String refusedCharacter(String t, boolean name) {
        for (int c : t.codePoints().toArray()) {
            boolean textMayHold = c == '\n' || c == '\t' || Character.getType(c) == Character.FORMAT;
            if (Texts.invisible(c) && (name || !textMayHold)) {
                String what = Character.isISOControl(c) ? "the control character" : "the invisible character";
                String called = Character.getName(c);
                return "'" + Texts.abbreviate(t) + "' holds " + what + " U+" + String.format(Locale.ROOT, "%04X", c)
                        + (called == null ? "" : " (" + called + ")") + "; " + (name
                        ? "a name is printable text on one line" : "a text is printable, with line breaks and tabs");
            }
        }
        return null;
    }

    Duration duration(YamlNode node, String path, DurationRule rule) {
        if (!(node instanceof YamlNode.Scalar s) || s.kind() == YamlNode.ScalarKind.BOOLEAN
                || s.kind() == YamlNode.ScalarKind.NULL) {
            problem(node, path, "expected a duration (" + Durations.SYNTAX_HINT + "), got " + node.describe());
            return null;
        }
        return switch (Durations.parse(s.text())) {
            case Durations.Parsed.Bad bad -> {
                problem(node, path, bad.message());
                yield null;
            }
            case Durations.Parsed.Ok ok -> {
                boolean fine = switch (rule) {
                    case ANY -> true;
                    case NOT_NEGATIVE -> !ok.value().isNegative();
                    case POSITIVE -> ok.value().isPositive();
                };
                if (!fine) {
                    problem(node, path, Texts.abbreviate(s.text().strip()) + " " + rule.requirement);
                    yield null;
                }
                yield ok.value();
            }
        };
    }

    /**
     * A whole number in decimal, between {@code min} and {@code max}. {@code textAllowed}: a quoted
     * decimal ({@code "41"}) is accepted too, as JSON tools write large numbers that way.
     */
    Long integer(YamlNode node, String path, long min, long max, boolean textAllowed) {
        if (!(node instanceof YamlNode.Scalar s) || !(s.kind() == YamlNode.ScalarKind.INTEGER
                || s.kind() == YamlNode.ScalarKind.FLOAT
                || (textAllowed && s.kind() == YamlNode.ScalarKind.STRING))) {
            problem(node, path, "expected a whole number, got " + node.describe());
            return null;
        }
        String t = s.text().strip();
        if (!DECIMAL_INTEGER.matcher(t).matches()) {
            problem(node, path, "'" + Texts.abbreviate(t) + "' is not a whole number (write decimal digits, such as 41)");
            return null;
        }
        long value;
        try {
            value = Long.parseLong(t);
        } catch (NumberFormatException e) {
            problem(node, path, t + " is out of range (at most " + max + ")");
            return null;
        }
        if (value < min || value > max) {
            problem(node, path, t + " is out of range (" + range(min, max) + ")");
            return null;
        }
        return value;
    }

    private static String range(long min, long max) {
        if (max == Long.MAX_VALUE) {
            return "at least " + min;
        }
        return "from " + min + " to " + max;
    }

    /** A finite decimal number. */
    Double number(YamlNode node, String path) {
        if (node instanceof YamlNode.Scalar s && (s.kind() == YamlNode.ScalarKind.INTEGER
                || s.kind() == YamlNode.ScalarKind.FLOAT)) {
            String t = s.text().strip();
            if (DECIMAL_NUMBER.matcher(t).matches()) {
                double value = Double.parseDouble(t);
                if (Double.isFinite(value)) {
                    return value;
                }
            }
            problem(node, path, "'" + Texts.abbreviate(t) + "' is not a finite decimal number");
            return null;
        }
        problem(node, path, "expected a number, got " + node.describe());
        return null;
    }

    Boolean bool(YamlNode node, String path) {
        if (node instanceof YamlNode.Scalar s && s.kind() == YamlNode.ScalarKind.BOOLEAN) {
            // Only the two spellings everyone reads the same way; yes/no/on/off are refused, not guessed.
            switch (s.text().strip().toLowerCase(Locale.ROOT)) {
                case "true" -> {
                    return true;
                }
                case "false" -> {
                    return false;
                }
                default -> {
                    problem(node, path, "write true or false, not '" + Texts.abbreviate(s.text()) + "'");
                    return null;
                }
            }
        }
        problem(node, path, "expected true or false, got " + node.describe());
        return null;
    }

    /**
     * One of an enum's constants, by name, ignoring case. The allowed names come from the enum itself,
     * so constants added to the engine are accepted (and listed) without a change here.
     *
     * @param lowercase show the names in lower case in messages (for {@code executor: simulated})
     */
    <E extends Enum<E>> E choice(YamlNode node, String path, Class<E> type, boolean lowercase) {
        String allowed = allowed(type, lowercase);
        if (!(node instanceof YamlNode.Scalar s) || s.kind() == YamlNode.ScalarKind.NULL) {
            problem(node, path, "expected one of " + allowed + ", got " + node.describe());
            return null;
        }
        String t = s.text().strip();
        try {
            return Enum.valueOf(type, t.toUpperCase(Locale.ROOT));
        } catch (IllegalArgumentException e) {
            problem(node, path, "'" + Texts.abbreviate(t) + "' is not one of " + allowed);
            return null;
        }
    }

    static <E extends Enum<E>> String allowed(Class<E> type, boolean lowercase) {
        return String.join(", ", Arrays.stream(type.getEnumConstants())
                .map(e -> lowercase ? e.name().toLowerCase(Locale.ROOT) : e.name()).toList());
    }
}
