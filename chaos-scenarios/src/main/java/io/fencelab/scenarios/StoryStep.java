package io.fencelab.scenarios;

import java.util.Objects;

/**
 * One numbered step of a scenario's story: its text, the moment of the run it narrates (its
 * {@link Cue}), an optional question to ask the room before that moment plays out, and optional
 * notes for the teacher. {@code line} is where the step is written in its file (0 when built in
 * code), so a step that a run never reaches can be reported there.
 */
public record StoryStep(String text, Cue cue, Question question, String notes, int line) {

    public StoryStep {
        Objects.requireNonNull(text, "text");
        Objects.requireNonNull(cue, "cue");
        notes = notes == null ? "" : notes;
    }

    /** A step told without a cue: it is reached together with the step before it. */
    public static StoryStep plain(String text) {
        return new StoryStep(text, Cue.WITH_PREVIOUS, null, "", 0);
    }

    public boolean asks() {
        return question != null;
    }
}
