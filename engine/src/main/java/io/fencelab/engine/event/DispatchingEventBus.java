package io.fencelab.engine.event;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;
import java.util.function.LongFunction;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The asynchronous bus. A producer takes a number from an {@link AtomicLong}, builds its event and
 * offers it to a lock-free queue: no lock, no wait for consumers. One dispatcher thread drains the
 * queue and delivers in sequence order. Two producers can take n and n+1 and enqueue them in the
 * opposite order, so the dispatcher holds an event back (in a {@link ReorderBuffer}) until every
 * lower number has arrived.
 *
 * <p>The queue is unbounded: producers are never slowed down, so consumers that cannot keep up
 * cost memory, not throughput.
 */
final class DispatchingEventBus extends AbstractEventBus {

    private static final Logger log = LoggerFactory.getLogger(EventBus.class);

    /** Set in {@link #next} by close: every later publish draws a negative number and is refused. */
    private static final long CLOSED = Long.MIN_VALUE;
    /** Busy-wait this many empty polls before parking: cheap latency while events keep coming. */
    private static final int SPINS = 200;
    /** Park at most this long, as a backstop; producers normally wake the dispatcher at once. */
    private static final long PARK_NANOS = TimeUnit.MILLISECONDS.toNanos(10);

    /** The next sequence number to assign, with the {@link #CLOSED} bit once closed. */
    private final AtomicLong next = new AtomicLong(1);
    private final ConcurrentLinkedQueue<Event> queue = new ConcurrentLinkedQueue<>();
    /** Numbers taken by publishes whose factory failed: delivered as nothing, so no one waits for them. */
    private final ConcurrentLinkedQueue<Long> skipped = new ConcurrentLinkedQueue<>();
    private final AtomicBoolean parked = new AtomicBoolean();
    private final Object lifecycle = new Object();
    private final Object flushed = new Object();

    /** The last number assigned before close, or -1 while open. */
    private volatile long lastSeq = -1;
    /** Every number up to this one has been handed to the consumers (or skipped). */
    private volatile long delivered;
    private volatile int flushWaiters;
    /** The thread running the delivery loop: the dispatcher, or a closer draining a never-started bus. */
    private volatile Thread deliverer;
    private Thread dispatcher; // guarded by lifecycle

    DispatchingEventBus(int maxBatch) {
        super(maxBatch);
    }

    @Override
    public long publish(LongFunction<? extends Event> factory) {
        long seq = next.getAndIncrement();
        if (seq < 0) {
            throw new IllegalStateException("the event bus is closed");
        }
        Event event;
        try {
            event = factory.apply(seq);
            checkBuilt(event, seq);
        } catch (RuntimeException | Error e) {
            // The number is taken; without a marker the dispatcher would wait for it forever.
            skip(seq, e);
            throw e;
        }
        queue.offer(event);
        wake();
        return seq;
    }

    private void skip(long seq, Throwable cause) {
        log.error("Event seq {} was not published (its factory failed: {}); delivery skips it", seq, cause.toString());
        skipped.offer(seq);
        wake();
    }

    private void wake() {
        // One volatile read on the fast path; only a producer that finds the dispatcher asleep
        // pays for the unpark.
        if (parked.get() && parked.compareAndSet(true, false)) {
            Thread t = deliverer;
            if (t != null) {
                LockSupport.unpark(t);
            }
        }
    }

    @Override
    public void start() {
        synchronized (lifecycle) {
            if (dispatcher != null) {
                throw new IllegalStateException("the event bus is already started");
            }
            if (next.get() < 0) {
                throw new IllegalStateException("the event bus is closed");
            }
            dispatcher = Thread.ofPlatform().daemon().name("fencelab-event-dispatcher").unstarted(this::deliverAll);
            deliverer = dispatcher;
            dispatcher.start();
        }
    }

    @Override
    public void flush() {
        if (Thread.currentThread() == deliverer) {
            throw new IllegalStateException("an event consumer must not flush the bus that calls it");
        }
        long target = published();
        if (delivered >= target) {
            return;
        }
        Thread t;
        synchronized (lifecycle) {
            t = dispatcher;
        }
        if (t == null) {
            throw new IllegalStateException("the event bus is not started, so nothing is delivered");
        }
        while (delivered < target) {
            if (!t.isAlive()) {
                throw new IllegalStateException("the event dispatcher has stopped; delivered up to seq "
                        + delivered + " of " + target);
            }
            LockSupport.unpark(t);
            synchronized (flushed) {
                flushWaiters++;
                try {
                    if (delivered < target) {
                        flushed.wait(PARK_NANOS / 1_000_000);
                    }
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    throw new IllegalStateException("interrupted while waiting for event delivery", e);
                } finally {
                    flushWaiters--;
                }
            }
        }
    }

    @Override
    public long published() {
        long n = next.get();
        if (n >= 0) {
            return n - 1;
        }
        long last;
        while ((last = lastSeq) < 0) {
            Thread.onSpinWait(); // close has set the bit and is about to record the number
        }
        return last;
    }

    @Override
    public long delivered() {
        return delivered;
    }

    @Override
    public void close() {
        long before = next.getAndUpdate(v -> v < 0 ? v : v | CLOSED);
        if (before >= 0) {
            lastSeq = before - 1;
        }
        if (Thread.currentThread() == deliverer) {
            return; // a consumer closing the bus: the loop ends by itself once drained
        }
        synchronized (lifecycle) {
            if (dispatcher == null) {
                // Never started: deliver what was published here, so close still drains.
                deliverer = Thread.currentThread();
                try {
                    deliverAll();
                } finally {
                    deliverer = null;
                }
                return;
            }
            LockSupport.unpark(dispatcher);
            boolean interrupted = false;
            while (dispatcher.isAlive()) {
                try {
                    dispatcher.join();
                } catch (InterruptedException e) {
                    interrupted = true; // closing must finish, or events would be lost
                }
            }
            if (interrupted) {
                Thread.currentThread().interrupt();
            }
        }
    }

    /** The delivery loop: runs until the bus is closed and every number up to the last is delivered. */
    private void deliverAll() {
        ReorderBuffer inOrder = new ReorderBuffer();
        List<Event> batch = new ArrayList<>();
        int idle = 0;
        while (true) {
            for (Long s; (s = skipped.poll()) != null; ) {
                inOrder.skip(s);
            }
            // Take at most a batch's worth from the queue per round, so a flood cannot make the
            // held-back part grow without bound before anything is delivered.
            for (int i = 0; i < maxBatch; i++) {
                Event e = queue.poll();
                if (e == null) {
                    break;
                }
                inOrder.add(e);
            }
            inOrder.takeReady(batch, maxBatch);
            endAtRunEnded(batch);
            if (!batch.isEmpty()) {
                subscribers.deliver(Collections.unmodifiableList(batch));
                batch = new ArrayList<>(); // consumers may keep the one they got
            }
            long done = inOrder.next() - 1;
            if (done != delivered) {
                delivered = done;
                if (flushWaiters > 0) {
                    synchronized (flushed) {
                        flushed.notifyAll();
                    }
                }
                idle = 0;
                continue;
            }
            long last = lastSeq;
            if (last >= 0 && done >= last) {
                return;
            }
            if (++idle < SPINS) {
                Thread.onSpinWait();
            } else {
                park();
            }
        }
    }

    /**
     * A run's history ends at its {@code RunEnded}: an event numbered after it (an action the end
     * could not wait for, on a database that no longer answered) is not delivered, so the log, the
     * checker and the console all see the same whole run.
     */
    private void endAtRunEnded(List<Event> batch) {
        if (endedAt >= 0) {
            droppedAfterEnd += batch.size();
            batch.clear();
        } else {
            for (int i = 0; i < batch.size(); i++) {
                if (batch.get(i) instanceof Event.RunEnded end) {
                    endedAt = end.seq();
                    droppedAfterEnd += batch.size() - i - 1;
                    batch.subList(i + 1, batch.size()).clear();
                    break;
                }
            }
        }
        if (droppedAfterEnd > 0 && !warnedAfterEnd) {
            warnedAfterEnd = true;
            log.warn("events published after RunEnded (seq {}) are not part of the run and were not delivered", endedAt);
        }
    }

    /** Seq of the delivered {@code RunEnded}, or -1; touched by the delivering thread only. */
    private long endedAt = -1;
    private long droppedAfterEnd;
    private boolean warnedAfterEnd;

    private void park() {
        parked.set(true);
        // Re-check after announcing: a producer that enqueued before seeing `parked` is caught here.
        // (close and flush unpark directly; a permit given before parking is not lost.)
        if (queue.isEmpty() && skipped.isEmpty()) {
            LockSupport.parkNanos(this, PARK_NANOS);
        }
        parked.set(false);
    }
}
