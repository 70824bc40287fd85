package io.fencelab.engine.tune;

import io.fencelab.engine.event.Event;
import io.fencelab.engine.run.RunResult;
import io.fencelab.engine.run.RunSpec;
import java.util.List;

/** A finished run of a sweep, whole: what a report of it is made from. Its event log is {@code result.eventLog()}. */
public record RunDone(Point point, long seed, RunSpec spec, RunResult result, List<Event> events) {

    public RunDone {
        events = List.copyOf(events);
    }
}
