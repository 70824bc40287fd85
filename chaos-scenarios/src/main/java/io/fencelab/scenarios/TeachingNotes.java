package io.fencelab.scenarios;

import java.util.List;
import java.util.Objects;

/**
 * What a scenario teaches, for people: a title, a one-paragraph summary and the story as numbered
 * steps (the list order is the numbering), each tied to the moment of the run it tells.
 */
public record TeachingNotes(String title, String summary, List<StoryStep> steps) {

    public TeachingNotes {
        Objects.requireNonNull(title, "title");
        Objects.requireNonNull(summary, "summary");
        steps = List.copyOf(steps);
    }

    /** The steps' texts, in order. */
    public List<String> story() {
        return steps.stream().map(StoryStep::text).toList();
    }

    /** The summary's first sentence, for one-line listings. */
    public String firstSentence() {
        return CatalogEntry.firstSentence(summary);
    }
}
