package io.fencelab.engine.event;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.function.LongFunction;

/**
 * The synchronous bus of simulated runs: everything happens on the one thread that publishes, so a
 * run with the same seed delivers the same batches in the same order. Not thread-safe by design.
 */
final class DirectEventBus extends AbstractEventBus {

    private List<Event> pending = new ArrayList<>();
    private long published;
    private long delivered;
    private boolean building;
    private boolean delivering;
    private boolean closed;

    DirectEventBus(int maxBatch) {
        super(maxBatch);
    }

    @Override
    public long publish(LongFunction<? extends Event> factory) {
        if (closed) {
            throw new IllegalStateException("the event bus is closed");
        }
        if (building) {
            throw new IllegalStateException("an event factory must not publish");
        }
        long seq = published + 1;
        Event event;
        building = true;
        try {
            event = factory.apply(seq);
        } finally {
            building = false;
        }
        // Single-threaded, so a broken factory costs no number: nothing was taken yet.
        checkBuilt(event, seq);
        published = seq;
        pending.add(event);
        if (pending.size() >= maxBatch) {
            deliverPending();
        }
        return seq;
    }

    @Override
    public void start() {
        // Nothing runs in the background.
    }

    @Override
    public void flush() {
        deliverPending();
    }

    @Override
    public long published() {
        return published;
    }

    @Override
    public long delivered() {
        return delivered;
    }

    @Override
    public void close() {
        closed = true;
        deliverPending();
    }

    private void deliverPending() {
        // A consumer that publishes while being called adds to `pending`; the outer loop delivers
        // it after the current batch has reached every consumer, so no one sees events out of order.
        if (delivering) {
            return;
        }
        delivering = true;
        try {
            while (!pending.isEmpty()) {
                List<Event> batch;
                if (pending.size() == 1) {
                    batch = List.of(pending.getFirst());
                    pending.clear();
                } else {
                    batch = Collections.unmodifiableList(pending); // handed over, never touched again
                    pending = new ArrayList<>();
                }
                subscribers.deliver(batch);
                delivered = batch.getLast().seq();
            }
        } finally {
            delivering = false;
        }
    }
}
