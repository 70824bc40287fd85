package io.fencelab.scenarios;

import java.util.List;
import java.util.Objects;

/**
 * What a scenario teaches, for people: a title, a one-paragraph summary and the story as numbered
 * steps (the list order is the numbering).
 */
public record TeachingNotes(String title, String summary, List<String> story) {

    public TeachingNotes {
        Objects.requireNonNull(title, "title");
        Objects.requireNonNull(summary, "summary");
        story = List.copyOf(story);
    }

    /** The summary's first sentence, for one-line listings. */
    public String firstSentence() {
        return CatalogEntry.firstSentence(summary);
    }
}
