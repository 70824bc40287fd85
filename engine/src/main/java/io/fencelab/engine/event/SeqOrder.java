package io.fencelab.engine.event;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

/** Putting a batch of events in log order, for consumers that judge or count each event once. */
public final class SeqOrder {

    private SeqOrder() {
    }

    /**
     * {@code batch} sorted by seq (it may come in any order), checked to hold each event once and to
     * come after {@code lastSeq}, the last event the consumer accepted.
     *
     * @param consumer what the events are for, named in the error (for example {@code the checker})
     * @throws IllegalArgumentException if an event's seq is not after the one before it
     */
    public static List<Event> after(long lastSeq, List<? extends Event> batch, String consumer) {
        List<Event> ordered = new ArrayList<>(batch);
        ordered.sort(Comparator.comparingLong(Event::seq));
        long previous = lastSeq;
        for (Event e : ordered) {
            if (e.seq() <= previous) {
                throw new IllegalArgumentException("event seq " + e.seq() + " is not after seq " + previous
                        + ": events must reach " + consumer + " once each, in seq order");
            }
            previous = e.seq();
        }
        return ordered;
    }
}
