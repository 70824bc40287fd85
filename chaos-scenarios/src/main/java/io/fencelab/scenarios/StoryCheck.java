package io.fencelab.scenarios;

import io.fencelab.engine.event.Event;
import java.util.ArrayList;
import java.util.List;

/**
 * Whether a run tells its scenario's whole story: every step reached. A step that is not gives a
 * {@link Problem} at the line the step is written, saying what the run never did.
 */
public final class StoryCheck {

    private StoryCheck() {
    }

    /**
     * The problems of {@code scenario}'s story against {@code events}, its run's log: the first step
     * never reached (the steps after it cannot be reached either), or none.
     */
    public static List<Problem> unreached(Scenario scenario, String file, List<? extends Event> events) {
        List<StoryStep> steps = scenario.notes().steps();
        List<StoryTracker.Reached> reached = StoryTracker.of(steps, events);
        if (reached.size() == steps.size()) {
            return List.of();
        }
        int i = reached.size();
        StoryStep step = steps.get(i);
        String what = switch (step.cue()) {
            case Cue.On on -> "the run has no " + on.describe() + " event"
                    + (i == 0 ? "" : " after step " + i + " (reached at seq " + reached.getLast().throughSeq() + ")");
            case Cue.At at -> "the run ends at " + Durations.format(java.time.Duration.ofNanos(
                    (events.isEmpty() ? 0 : events.getLast().atMicros()) * 1_000)) + ", before " + Durations.format(at.at());
            case Cue.WithPrevious w -> "the run has no events";
        };
        List<Problem> problems = new ArrayList<>();
        problems.add(new Problem(file, step.line(), 1, "story[" + i + "]", "step " + (i + 1)
                + " is never reached: " + what + (steps.size() - i > 1 ? " (nor are the " + (steps.size() - i - 1)
                + " steps after it)" : "")));
        return problems;
    }
}
