package io.fencelab.engine.event;

import java.util.List;

/**
 * Puts events that arrive slightly out of order back in sequence order. Events wait in a ring
 * indexed by seq, so storing one and taking the next in line are O(1); the ring grows if a
 * straggler holds up more events than it has room for. Used by one thread only.
 */
final class ReorderBuffer {

    /** Stands in the ring for a number that will never get an event. */
    private static final Object SKIPPED = new Object();

    private Object[] slots = new Object[1024];
    private long next = 1;
    private int held;

    /** The seq that must come next. */
    long next() {
        return next;
    }

    /** Events (and skipped numbers) waiting for a lower number. */
    int held() {
        return held;
    }

    void add(Event event) {
        put(event.seq(), event);
    }

    /** Marks {@code seq} as never coming, so the numbers after it are not held up. */
    void skip(long seq) {
        put(seq, SKIPPED);
    }

    /** Moves the events that are next in line into {@code batch}, stopping at {@code limit} events. */
    void takeReady(List<Event> batch, int limit) {
        int mask = slots.length - 1;
        while (held > 0 && batch.size() < limit) {
            int i = (int) (next & mask);
            Object o = slots[i];
            if (o == null) {
                return;
            }
            slots[i] = null;
            held--;
            next++;
            if (o != SKIPPED) {
                batch.add((Event) o);
            }
        }
    }

    private void put(long seq, Object o) {
        if (seq < next) {
            throw new IllegalStateException("seq " + seq + " arrived after " + (next - 1) + " was delivered");
        }
        while (seq - next >= slots.length) {
            grow();
        }
        int i = (int) (seq & (slots.length - 1));
        if (slots[i] != null) {
            throw new IllegalStateException("seq " + seq + " arrived twice");
        }
        slots[i] = o;
        held++;
    }

    private void grow() {
        Object[] bigger = new Object[slots.length * 2];
        int oldMask = slots.length - 1;
        int newMask = bigger.length - 1;
        // Every held entry lies in [next, next + old length): re-index each by its seq.
        for (long seq = next; seq < next + slots.length; seq++) {
            bigger[(int) (seq & newMask)] = slots[(int) (seq & oldMask)];
        }
        slots = bigger;
    }
}
