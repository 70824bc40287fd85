package io.fencelab.engine.check;

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
}
