package io.fencelab.app.console.run;

import io.fencelab.engine.event.Event;
import io.fencelab.scenarios.StoryStep;
import io.fencelab.scenarios.StoryTracker;
import java.util.List;

/**
 * Where a run that follows a story stops: in guided mode at every step, when seeking at the step
 * sought. Used on the driver's thread only, between the run and the console's feed: it is asked how
 * many of the next events may be shown, follows the story through each of them with a
 * {@link StoryTracker} (the same rule the console marks steps by), and cuts exactly at a stop, so
 * nothing after a step's event is shown while the run waits there, not even events at the same
 * instant. A step cued {@code at:} a run time stops before the first event past that time.
 */
final class StoryGate {

    /** A stop: story step {@code step} (0-based) reached at run time {@code atMicros}. */
    record Stop(int step, long atMicros) {}

    private final int size;
    private final StoryTracker tracker;
    private boolean guided;
    private int seekTo = -1;
    private boolean passing;
    /** The event last fed to the tracker, and whether a step reached at it (after it) stops there. */
    private Event judged;
    private Stop afterJudged;
    private Stop stop;
    private volatile int reached;

    StoryGate(List<StoryStep> steps) {
        this.size = steps.size();
        this.tracker = new StoryTracker(steps);
    }

    /** A gate that never stops (no story). */
    static StoryGate none() {
        return new StoryGate(List.of());
    }

    /** Whether every step stops the run. */
    void guided(boolean on) {
        guided = on;
    }

    /** Stop at step {@code step} (0-based) and nowhere before it; -1 for no such stop. */
    void seekTo(int step) {
        seekTo = step;
    }

    int seekingTo() {
        return seekTo;
    }

    /** While on, nothing stops the run (fast-forwarding to a run time); the story is still followed. */
    void passAll(boolean on) {
        passing = on;
    }

    /** How many story steps the events let through so far have reached (any thread). */
    int reached() {
        return reached;
    }

    /** Whether a stop could happen at all (no story, or all of it told: events pass untouched). */
    boolean active() {
        return (guided || seekTo >= 0) && !passing && (tracker.count() < size || afterJudged != null);
    }

    /**
     * How many of {@code events} (the next ones of the run, in order) may be shown now: all of them,
     * or those before the next stop, which {@link #takeStop()} then gives. An event held back is
     * asked about again next time; it is followed through the story only once.
     */
    int cut(List<Event> events) {
        for (int i = 0; i < events.size(); i++) {
            Event e = events.get(i);
            if (e != judged) {
                if (tracker.count() == size) {
                    judged = e;
                    afterJudged = null;
                    reached = size;
                    return events.size();
                }
                int before = tracker.count();
                tracker.accept(e);
                judged = e;
                afterJudged = null;
                reached = tracker.count();
                Stop beforeEvent = null;
                if (tracker.count() > before) {
                    List<StoryTracker.Reached> all = tracker.reached();
                    for (StoryTracker.Reached r : all.subList(before, all.size())) {
                        if (!wanted(r.step())) {
                            continue;
                        }
                        Stop s = new Stop(r.step(), r.atMicros());
                        if (r.throughSeq() < e.seq()) {
                            beforeEvent = beforeEvent == null ? s : beforeEvent;
                        } else {
                            afterJudged = s;
                        }
                    }
                }
                if (beforeEvent != null) {
                    found(beforeEvent);
                    return i;
                }
            }
            if (afterJudged != null) {
                Stop s = afterJudged;
                afterJudged = null;
                if (wanted(s.step())) {
                    found(s);
                    return i + 1;
                }
            }
        }
        return events.size();
    }

    private boolean wanted(int step) {
        if (passing) {
            return false;
        }
        return seekTo >= 0 ? step >= seekTo : guided;
    }

    private void found(Stop s) {
        stop = s;
        if (seekTo >= 0 && s.step() >= seekTo) {
            seekTo = -1;
        }
    }

    /** Whether the last {@link #cut} found a stop not yet taken. */
    boolean hasStop() {
        return stop != null;
    }

    /** The stop the last {@link #cut} found, once (null if none). */
    Stop takeStop() {
        Stop s = stop;
        stop = null;
        return s;
    }
}
