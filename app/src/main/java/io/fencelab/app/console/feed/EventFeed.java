package io.fencelab.app.console.feed;

import io.fencelab.engine.event.Event;
import java.util.List;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Consumer;

/**
 * The console's consumer on a run's event bus: batches (and driver notices) go into a lock-free
 * queue from whatever thread delivers them; the frame loop drains it once per frame on the FX
 * thread. Producers never wait for the screen, and the screen never handles one event at a time.
 */
public final class EventFeed implements Consumer<List<Event>> {

    /** What the frame loop hands drained items to, in arrival order. */
    public interface Target {
        void events(List<Event> batch);

        void notice(Notice notice);
    }

    private final ConcurrentLinkedQueue<Object> queue = new ConcurrentLinkedQueue<>();
    private final AtomicLong received = new AtomicLong();
    /** Events handed over so far; written by the draining thread only. */
    private volatile long drained;
    private volatile boolean closed;

    /** The bus's entry point. Batches are immutable and kept as they are. */
    @Override
    public void accept(List<Event> batch) {
        if (!closed && !batch.isEmpty()) {
            received.addAndGet(batch.size());
            queue.add(batch);
        }
    }

    public void notice(Notice notice) {
        if (!closed) {
            queue.add(notice);
        }
    }

    /** Events received so far (including those not yet drained). */
    public long received() {
        return received.get();
    }

    /** Events received but not yet handed over. */
    public long backlog() {
        return received.get() - drained;
    }

    /**
     * Hands everything queued to {@code target}, stopping once {@code maxEvents} events have been
     * handed over (the rest waits for the next frame, so one frame never takes too long).
     *
     * @return the number of events handed over
     */
    public long drain(Target target, long maxEvents) {
        long handed = 0;
        Object item;
        while (handed < maxEvents && (item = queue.poll()) != null) {
            if (item instanceof Notice n) {
                target.notice(n);
            } else {
                @SuppressWarnings("unchecked")
                List<Event> batch = (List<Event>) item;
                target.events(batch);
                handed += batch.size();
            }
        }
        drained += handed;
        return handed;
    }

    /** Drops whatever is queued and ignores what comes later (the run is no longer shown). */
    public void close() {
        closed = true;
        queue.clear();
    }
}
