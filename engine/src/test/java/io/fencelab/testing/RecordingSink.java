package io.fencelab.testing;

import io.fencelab.engine.event.Event;
import io.fencelab.engine.event.EventSink;
import java.util.ArrayList;
import java.util.List;
import java.util.function.LongFunction;

/** Keeps every event in memory, numbered in publish order. Thread-safe. */
public final class RecordingSink implements EventSink {
    private final List<Event> events = new ArrayList<>();
    private long next = 1;

    @Override
    public synchronized long publish(LongFunction<? extends Event> factory) {
        long seq = next++;
        events.add(factory.apply(seq));
        return seq;
    }

    public synchronized List<Event> events() {
        return List.copyOf(events);
    }

    public <T extends Event> List<T> ofType(Class<T> type) {
        return events().stream().filter(type::isInstance).map(type::cast).toList();
    }
}
