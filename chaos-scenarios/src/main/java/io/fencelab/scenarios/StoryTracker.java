package io.fencelab.scenarios;

import io.fencelab.engine.event.Event;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

/**
 * Follows a run through its story: fed the run's events in log order (batch by batch, like the
 * checker), it says which steps have been reached and where. Steps are reached in order: an
 * {@code on:} step at the first matching event after the step before it (one event reaches at most
 * one such step), an {@code at:} step once the run's time has passed its instant (all events at or
 * before it come first), a step without a cue together with the step before it.
 */
public final class StoryTracker {

    /**
     * Where step {@code step} (0-based) was reached: at run time {@code atMicros}, with the events up
     * to and including {@code throughSeq} shown (0 before the first event).
     */
    public record Reached(int step, long atMicros, long throughSeq) {}

    private final List<StoryStep> steps;
    private final List<Reached> reached = new ArrayList<>();
    private long lastSeq;
    private long lastMicros;

    public StoryTracker(List<StoryStep> steps) {
        this.steps = List.copyOf(steps);
    }

    /** The steps of {@code events}, reached as a whole run (the log ended: {@code at:} steps past its end are not reached). */
    public static List<Reached> of(List<StoryStep> steps, List<? extends Event> events) {
        StoryTracker t = new StoryTracker(steps);
        t.accept(events);
        t.end(events.isEmpty() ? 0 : events.getLast().atMicros());
        return t.reached();
    }

    public void accept(List<? extends Event> events) {
        for (Event e : events) {
            accept(e);
        }
    }

    public void accept(Event e) {
        // Time-cued steps whose instant this event has passed are reached just before it.
        reachWhile(e.atMicros(), false, null);
        reachWhile(e.atMicros(), true, e);
        lastSeq = e.seq();
        lastMicros = e.atMicros();
    }

    /**
     * Reaches every step that is due. Before the event ({@code after} false): {@code at:} steps with an
     * instant before the event's time. After it: the one {@code on:} step it matches (and the steps
     * without a cue that follow); {@code at:} steps at exactly its time wait for a later event, since
     * more events may share the instant.
     */
    private void reachWhile(long micros, boolean after, Event e) {
        boolean matchedOne = false;
        while (reached.size() < steps.size()) {
            int i = reached.size();
            Cue cue = steps.get(i).cue();
            long shownSeq = after ? e.seq() : lastSeq;
            switch (cue) {
                case Cue.WithPrevious w -> {
                    if (i > 0) {
                        Reached prev = reached.get(i - 1);
                        reached.add(new Reached(i, prev.atMicros(), prev.throughSeq()));
                    } else if (after) {
                        reached.add(new Reached(i, e.atMicros(), e.seq()));
                    } else {
                        return;
                    }
                }
                case Cue.At at -> {
                    if (!(at.micros() < micros)) {
                        return;
                    }
                    reached.add(new Reached(i, Math.max(at.micros(), floor()), shownSeq));
                }
                case Cue.On on -> {
                    if (!after || matchedOne || !on.matches(e)) {
                        return;
                    }
                    matchedOne = true;
                    reached.add(new Reached(i, e.atMicros(), e.seq()));
                }
            }
        }
    }

    /** A step is never reached earlier than the one before it. */
    private long floor() {
        return reached.isEmpty() ? 0 : reached.getLast().atMicros();
    }

    /**
     * The run ended at {@code endMicros}: {@code at:} steps up to that instant are reached (with every
     * event shown).
     */
    public void end(long endMicros) {
        while (reached.size() < steps.size()) {
            int i = reached.size();
            Cue cue = steps.get(i).cue();
            if (cue instanceof Cue.At at && at.micros() <= endMicros) {
                reached.add(new Reached(i, Math.max(at.micros(), floor()), lastSeq));
            } else if (cue instanceof Cue.WithPrevious && i > 0) {
                Reached prev = reached.get(i - 1);
                reached.add(new Reached(i, prev.atMicros(), prev.throughSeq()));
            } else {
                return;
            }
        }
    }

    /** The steps reached so far, in order (a prefix of the story). */
    public List<Reached> reached() {
        return Collections.unmodifiableList(new ArrayList<>(reached));
    }

    /** How many steps have been reached. */
    public int count() {
        return reached.size();
    }
}
