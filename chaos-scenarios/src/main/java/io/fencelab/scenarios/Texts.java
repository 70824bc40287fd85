package io.fencelab.scenarios;

import java.util.List;
import java.util.Locale;

/** Small text helpers for messages. */
final class Texts {
    private Texts() {
    }

    /** A value quoted in a message: one line, not too long, control characters made visible. */
    static String abbreviate(String text) {
        return abbreviate(text, 60);
    }

    static String abbreviate(String text, int maxCodePoints) {
        StringBuilder s = new StringBuilder();
        text.codePoints().limit(maxCodePoints).forEach(c -> {
            if (invisible(c)) {
                s.append(String.format(Locale.ROOT, "\\u%04X", c));
            } else {
                s.appendCodePoint(c);
            }
        });
        return text.codePointCount(0, text.length()) > maxCodePoints ? s + "…" : s.toString();
    }

    /**
     * Whether {@code codePoint} does not show as itself in a line of text: a control character (a NUL,
     * a line break, a tab), a formatting character (U+200B, a right-to-left override U+202E), a line
     * or paragraph separator, a lone surrogate. Messages escape these; names may hold none of them.
     */
    static boolean invisible(int codePoint) {
        int type = Character.getType(codePoint);
        return Character.isISOControl(codePoint) || type == Character.FORMAT || type == Character.LINE_SEPARATOR
                || type == Character.PARAGRAPH_SEPARATOR || type == Character.SURROGATE;
    }

    /** "a, b and c". */
    static String and(List<String> parts) {
        if (parts.size() <= 1) {
            return String.join("", parts);
        }
        return String.join(", ", parts.subList(0, parts.size() - 1)) + " and " + parts.getLast();
    }

    /** The allowed name closest to {@code wrong}, if it is close enough to be a likely typo. */
    static String suggestion(String wrong, List<String> allowed) {
        String best = null;
        int bestDistance = Integer.MAX_VALUE;
        for (String candidate : allowed) {
            int d = candidate.equalsIgnoreCase(wrong) ? 0
                    : distance(wrong.toLowerCase(Locale.ROOT), candidate.toLowerCase(Locale.ROOT));
            if (d < bestDistance) {
                best = candidate;
                bestDistance = d;
            }
        }
        // Short names differ in one letter from too many others to guess; only a case slip is suggested.
        int tolerated = wrong.length() <= 2 ? 0 : wrong.length() <= 5 ? 1 : 2;
        return bestDistance <= tolerated ? best : null;
    }

    /** Levenshtein distance; names are short, so the quadratic table is fine. */
    private static int distance(String a, String b) {
        int[] previous = new int[b.length() + 1];
        int[] current = new int[b.length() + 1];
        for (int j = 0; j <= b.length(); j++) {
            previous[j] = j;
        }
        for (int i = 1; i <= a.length(); i++) {
            current[0] = i;
            for (int j = 1; j <= b.length(); j++) {
                int substitute = previous[j - 1] + (a.charAt(i - 1) == b.charAt(j - 1) ? 0 : 1);
                current[j] = Math.min(substitute, Math.min(previous[j], current[j - 1]) + 1);
            }
            int[] swap = previous;
            previous = current;
            current = swap;
        }
        return previous[b.length()];
    }
}
