package io.fencelab.scenarios;

import java.util.List;
import java.util.Objects;

/**
 * A workshop: lessons in the order they are taught, each a scenario with the teacher's notes and the
 * minutes it is planned to take ({@code workshop.yaml}; docs/WORKSHOP.md).
 */
public record Workshop(String name, String title, String summary, List<Lesson> lessons) {

    /** How a lesson is taught: its guided story, or the scenario's suggested tuning sweep. */
    public enum Kind { STORY, SWEEP }

    /**
     * One lesson: {@code source} as written (a catalog name, or a file beside the workshop file),
     * {@code file} the scenario's text and {@code scenario} the scenario itself; {@code line} is where
     * the lesson is written.
     */
    public record Lesson(String source, ScenarioSource file, Scenario scenario, Kind kind, int minutes, String notes,
                         int line) {
        public Lesson {
            Objects.requireNonNull(scenario, "scenario");
            Objects.requireNonNull(kind, "kind");
            notes = notes == null ? "" : notes;
        }

        public String title() {
            return scenario.notes().title();
        }
    }

    public Workshop {
        lessons = List.copyOf(lessons);
    }

    /** The planned length of the whole workshop, in minutes. */
    public int minutes() {
        return lessons.stream().mapToInt(Lesson::minutes).sum();
    }
}
