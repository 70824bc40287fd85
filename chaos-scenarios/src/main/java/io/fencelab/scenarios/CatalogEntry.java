package io.fencelab.scenarios;

import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * One scenario of the catalog, as a listing shows it.
 *
 * @param name        what to pass to {@code fencelab run} ({@code paused-holder})
 * @param title       the file's title
 * @param summary     the file's one-paragraph summary
 * @param expectation the expectation in words ("SAFE with exactly 1 stale rejection")
 */
public record CatalogEntry(String name, String title, String summary, String expectation) {

    private static final Pattern SENTENCE_END = Pattern.compile("[.!?](?=\\s|$)");

    /** The summary's first sentence, for a one-line listing. */
    public String oneLine() {
        return firstSentence(summary);
    }

    static String firstSentence(String text) {
        String flat = text.strip().replaceAll("\\s+", " ");
        Matcher m = SENTENCE_END.matcher(flat);
        return m.find() ? flat.substring(0, m.end()) : flat;
    }
}
