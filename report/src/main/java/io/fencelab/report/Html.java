package io.fencelab.report;

/** Escaping and number formatting for the HTML report: every string reaches the page through {@link #esc}. */
final class Html {

    private Html() {
    }

    /**
     * Text safe in element content and in double-quoted attribute values, in HTML and inline SVG
     * alike. Null becomes the empty string. The report quotes every attribute with {@code "}, so an
     * apostrophe is left as it is and "A's write" stays readable in the page's source.
     */
    static String esc(String text) {
        if (text == null) {
            return "";
        }
        StringBuilder out = null;
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            String replacement = switch (c) {
                case '&' -> "&amp;";
                case '<' -> "&lt;";
                case '>' -> "&gt;";
                case '"' -> "&quot;";
                default -> null;
            };
            // Control characters other than tab and newline are not allowed in HTML text.
            if (replacement == null && c < 0x20 && c != '\t' && c != '\n') {
                replacement = "\uFFFD";
            }
            if (replacement != null) {
                if (out == null) {
                    out = new StringBuilder(text.length() + 16).append(text, 0, i);
                }
                out.append(replacement);
            } else if (out != null) {
                out.append(c);
            }
        }
        return out == null ? text : out.toString();
    }

    /** A coordinate with at most one decimal, independent of locale: {@code 12}, {@code 12.5}, {@code -3.2}. */
    static String num(double value) {
        long tenths = Math.round(value * 10);
        long whole = tenths / 10;
        long fraction = Math.abs(tenths % 10);
        String sign = tenths < 0 && whole == 0 ? "-" : "";
        return fraction == 0 ? sign + whole : sign + whole + "." + fraction;
    }

    /**
     * A time position on the timeline, to two decimals: the report's zoom stretches it up to a few
     * hundred times, and a tenth of a pixel would then be many pixels off.
     */
    static String fine(double value) {
        long hundredths = Math.round(value * 100);
        long whole = hundredths / 100;
        long fraction = Math.abs(hundredths % 100);
        String sign = hundredths < 0 && whole == 0 ? "-" : "";
        if (fraction == 0) {
            return sign + whole;
        }
        return sign + whole + "." + (fraction % 10 == 0 ? Long.toString(fraction / 10) : fraction < 10 ? "0" + fraction : Long.toString(fraction));
    }

    /** {@code text} cut to {@code max} characters with an ellipsis, for labels in fixed-width columns. */
    static String clip(String text, int max) {
        if (text == null) {
            return "";
        }
        if (text.length() <= max) {
            return text;
        }
        int cut = Math.max(1, max - 1);
        if (Character.isHighSurrogate(text.charAt(cut - 1))) {
            cut--; // never split a character in two
        }
        return text.substring(0, cut) + "…";
    }
}
