package io.fencelab.engine.check;

import io.fencelab.engine.clock.RunTimes;
import io.fencelab.engine.event.Event;
import java.util.Locale;

/**
 * How the judged history ends: with the run's {@code RunEnded}, or cut short without it (the
 * recorder died, or the run is still going). A verdict on an incomplete history is a verdict on what
 * it holds: a violation found in it stands, but SAFE only means "safe so far".
 */
public sealed interface LogEnd {

    /** The seq of the last event judged, 0 for none. */
    long lastSeq();

    /** The run time of the last event judged. */
    long lastAtMicros();

    /** Before any event. */
    LogEnd NOTHING = new Incomplete(0, 0);

    /** The history ends with {@code RunEnded}. */
    record Ended(long lastSeq, long lastAtMicros, Event.RunEnded.Reason reason) implements LogEnd {}

    /** The history stops at {@code lastSeq} with no {@code RunEnded}. */
    record Incomplete(long lastSeq, long lastAtMicros) implements LogEnd {

        /** The one wording: {@code ends at seq 5, 41.2s, without RunEnded}. */
        public String describe() {
            return String.format(Locale.ROOT, "ends at seq %d, %s, without RunEnded", lastSeq,
                    RunTimes.rounded(lastAtMicros));
        }
    }
}
