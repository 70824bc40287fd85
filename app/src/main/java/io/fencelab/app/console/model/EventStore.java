package io.fencelab.app.console.model;

import io.fencelab.engine.event.Event;
import java.util.AbstractList;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.RandomAccess;

/**
 * Every event of a shown run, in seq order, appended once per frame on the FX thread. Lookups by
 * seq are direct while the log has no gaps (the normal case) and a binary search otherwise.
 *
 * <p>{@link #snapshot()} gives a fixed-size view other threads may read (the timeline is rebuilt
 * off the FX thread): elements are never replaced and the backing array is only ever replaced by
 * a bigger copy, so a view of the first {@code n} events stays valid.
 */
public final class EventStore {

    private Event[] events = new Event[1024];
    private volatile int size;

    public void addAll(List<Event> batch) {
        int n = size;
        if (n + batch.size() > events.length) {
            events = Arrays.copyOf(events, Math.max(events.length * 2, n + batch.size()));
        }
        for (Event e : batch) {
            events[n++] = e;
        }
        size = n;
    }

    /** Starts again empty (a new array, so snapshots handed out stay valid). */
    public void clear() {
        events = new Event[1024];
        size = 0;
    }

    public int size() {
        return size;
    }

    public Event get(int index) {
        return events[index];
    }

    public Event last() {
        return size == 0 ? null : events[size - 1];
    }

    /** The event with this seq, or null. */
    public Event bySeq(long seq) {
        int n = size;
        if (seq >= 1 && seq <= n && events[(int) seq - 1].seq() == seq) {
            return events[(int) seq - 1];
        }
        int lo = 0;
        int hi = n - 1;
        while (lo <= hi) {
            int mid = (lo + hi) >>> 1;
            long s = events[mid].seq();
            if (s < seq) {
                lo = mid + 1;
            } else if (s > seq) {
                hi = mid - 1;
            } else {
                return events[mid];
            }
        }
        return null;
    }

    /** The first {@code size()} events as an unmodifiable list that does not change afterwards. */
    public List<Event> snapshot() {
        return new Snapshot(events, size);
    }

    /** A copy of all events, for export. */
    public List<Event> toList() {
        return new ArrayList<>(snapshot());
    }

    private static final class Snapshot extends AbstractList<Event> implements RandomAccess {
        private final Event[] array;
        private final int size;

        Snapshot(Event[] array, int size) {
            this.array = array;
            this.size = size;
        }

        @Override
        public Event get(int index) {
            if (index < 0 || index >= size) {
                throw new IndexOutOfBoundsException(index);
            }
            return array[index];
        }

        @Override
        public int size() {
            return size;
        }
    }
}
