package io.fencelab.engine.fence;

import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * How the answer of a user's write statement reads: {@code accepted} always, {@code stale} and
 * {@code missing} when the statement can tell them apart. Each is one {@link Condition}:
 * {@code rows = 1} (the affected-row count), {@code result = 'ok'} (the first column of the first
 * row returned) or {@code sqlstate = 'P0001'} (the statement failed with that code).
 */
public record OutcomeRule(Condition accepted, Condition stale, Condition missing) {

    private static final Pattern FORM = Pattern.compile(
            "\\s*(rows|result|sqlstate)\\s*(=|>=|>)\\s*(?:'((?:[^']|'')*)'|(-?\\d+))\\s*");

    /** What a rule may say, for error messages. */
    public static final String ALLOWED = "rows = N, rows >= N, result = 'text' or sqlstate = 'XXXXX'";

    /** One condition on the statement's answer. */
    public sealed interface Condition {

        /** The affected-row count compared with {@code n} ({@code =}, {@code >=} or {@code >}). */
        record Rows(String op, long n) implements Condition {
            boolean holds(long count) {
                return switch (op) {
                    case "=" -> count == n;
                    case ">=" -> count >= n;
                    default -> count > n;
                };
            }

            @Override
            public String toString() {
                return "rows " + op + " " + n;
            }
        }

        /** The first column of the first row, as text, equals {@code value}. */
        record Result(String value) implements Condition {
            @Override
            public String toString() {
                return "result = '" + value.replace("'", "''") + "'";
            }
        }

        /** The statement failed with this SQLSTATE. */
        record SqlState(String code) implements Condition {
            @Override
            public String toString() {
                return "sqlstate = '" + code + "'";
            }
        }
    }

    /**
     * Reads {@code text} ({@code rows = 1}); empty with nothing else when it is none of the
     * {@link #ALLOWED} forms.
     */
    public static Optional<Condition> parse(String text) {
        Matcher m = FORM.matcher(text == null ? "" : text);
        if (!m.matches()) {
            return Optional.empty();
        }
        String quoted = m.group(3) == null ? null : m.group(3).replace("''", "'");
        return switch (m.group(1)) {
            case "rows" -> m.group(4) == null ? Optional.empty()
                    : Optional.of(new Condition.Rows(m.group(2), Long.parseLong(m.group(4))));
            case "result" -> quoted == null || !m.group(2).equals("=") ? Optional.empty()
                    : Optional.of(new Condition.Result(quoted));
            default -> quoted == null || !m.group(2).equals("=") || !quoted.matches("[0-9A-Z]{5}") ? Optional.empty()
                    : Optional.of(new Condition.SqlState(quoted));
        };
    }

    /** Whether the rule's conditions read a row count (then the last statement must not return rows). */
    public boolean readsRows() {
        return accepted instanceof Condition.Rows;
    }
}
