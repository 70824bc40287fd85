package io.fencelab.engine.check;

import io.fencelab.engine.event.Event;
import java.util.List;
import java.util.Objects;

/**
 * One broken invariant and the shortest stretch of the log that shows it: {@code eventSeqs} in
 * ascending order, {@code summary} in plain language naming holders, tokens and times.
 */
public record Witness(Invariant invariant, String summary, List<Long> eventSeqs) {

    public Witness {
        Objects.requireNonNull(invariant, "invariant");
        Objects.requireNonNull(summary, "summary");
        eventSeqs = List.copyOf(eventSeqs);
    }

    /**
     * The event the online checker publishes for this witness. The log assigns {@code seq} and the
     * run's clock {@code atMicros}; the checker knows neither.
     */
    public Event.Violation toViolation(long seq, long atMicros) {
        return new Event.Violation(seq, atMicros, invariant.name(), summary, eventSeqs);
    }
}
