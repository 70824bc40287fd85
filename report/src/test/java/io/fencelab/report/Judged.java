package io.fencelab.report;

import io.fencelab.engine.check.SafetyChecker;
import io.fencelab.engine.event.Event;
import java.util.List;

/** A log's timeline with the log judged offline, as a reader of a saved log gets it. */
final class Judged {

    private Judged() {
    }

    static Timeline timeline(List<? extends Event> events) {
        return Timeline.from(events, SafetyChecker.judgement(events));
    }
}
