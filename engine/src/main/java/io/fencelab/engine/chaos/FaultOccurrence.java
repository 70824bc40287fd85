package io.fencelab.engine.chaos;

import java.time.Duration;

/** One concrete fault: {@code kind} on {@code target} from {@code start} for {@code length}. */
public record FaultOccurrence(FaultKind kind, String target, Duration start, Duration length, Duration amount) {

    public Duration end() {
        return start.plus(length);
    }

    public boolean activeAt(Duration t) {
        return t.compareTo(start) >= 0 && t.compareTo(end()) < 0;
    }
}
