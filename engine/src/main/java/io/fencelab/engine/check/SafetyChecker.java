package io.fencelab.engine.check;

import io.fencelab.engine.event.Event;
import io.fencelab.engine.resource.ResourceState;
import java.util.List;

/**
 * The safety checker on a finished run's log: the same code as {@link OnlineChecker}, fed the
 * whole log at once, so the two cannot disagree.
 */
public final class SafetyChecker {

    private SafetyChecker() {
    }

    /** The judgement of a log on its own (the final state not judged). */
    public static Judgement judgement(List<? extends Event> events) {
        return fed(events).judgement();
    }

    /** The judgement of a log and the run's final state. */
    public static Judgement judgement(List<? extends Event> events, List<ResourceState> finalState) {
        return fed(events).judgement(finalState);
    }

    /** Judges invariants 1, 2 and 4 (fencing-token order, stale overwrites, with minimal witnesses). */
    public static Verdict judge(List<? extends Event> events) {
        return fed(events).verdict();
    }

    /** As {@link #judge(List)}, plus invariant 3 against the run's final state. */
    public static Verdict judge(List<? extends Event> events, List<ResourceState> finalState) {
        return fed(events).judgement(finalState).verdict();
    }

    private static OnlineChecker fed(List<? extends Event> events) {
        OnlineChecker checker = new OnlineChecker();
        checker.accept(events);
        return checker;
    }
}
