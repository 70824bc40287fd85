package io.fencelab.engine.event;

import java.util.List;
import java.util.function.Consumer;
import java.util.function.LongFunction;

/**
 * Carries a run's events from the workers that produce them to the consumers that record, check or
 * show them. Every event gets the next sequence number (1, 2, 3, …) when it is published, and every
 * consumer receives the events in batches, in sequence order, with no gaps and no repeats.
 *
 * <p>Two forms:
 * <ul>
 *   <li>{@link #async()}: producers never block and never wait for consumers; one dispatcher
 *       thread delivers. For live runs with concurrent workers.</li>
 *   <li>{@link #direct()}: delivery happens on the publishing thread, inside {@link #publish}. For
 *       single-threaded simulated runs, which must be deterministic.</li>
 * </ul>
 *
 * <p>A consumer that throws is logged and skipped for that batch; the others still receive it, and
 * it receives the next one. A consumer that needs every event (the recorder) must subscribe before
 * the first publish; one that subscribes later sees only what is delivered after it subscribed.
 */
public sealed interface EventBus extends EventSink, AutoCloseable permits AbstractEventBus {

    /** Largest batch handed to a consumer at once by default. */
    int DEFAULT_MAX_BATCH = 4096;

    /** A bus with its own dispatcher thread; call {@link #start()} before expecting deliveries. */
    static EventBus async() {
        return new DispatchingEventBus(DEFAULT_MAX_BATCH);
    }

    /** As {@link #async()}, with batches of at most {@code maxBatch} events. */
    static EventBus async(int maxBatch) {
        return new DispatchingEventBus(maxBatch);
    }

    /** A synchronous bus: each publish is delivered at once, as a batch of one, on the caller's thread. */
    static EventBus direct() {
        return new DirectEventBus(1);
    }

    /**
     * A synchronous bus that collects up to {@code maxBatch} events and delivers them on the caller's
     * thread when the batch is full, on {@link #flush()} and on {@link #close()}. Fewer, larger
     * batches make recording cheaper; delivery is still deterministic.
     */
    static EventBus direct(int maxBatch) {
        return new DirectEventBus(maxBatch);
    }

    /**
     * Assigns the next sequence number, builds the event with it and queues it for delivery.
     * {@code factory} must return an event whose {@link Event#seq()} is the number it was given;
     * it should be quick and must not publish. Never blocks on consumers.
     *
     * @return the sequence number assigned
     * @throws IllegalStateException after {@link #close()}, or if the factory returned null or an
     *     event with another seq. If the factory fails on the asynchronous bus, its number is already
     *     taken and is skipped (delivery goes on, with a gap the error log explains); the direct bus
     *     simply does not use the number.
     */
    long publish(LongFunction<? extends Event> factory);

    /**
     * Adds a consumer. Its batches are unmodifiable, in sequence order, and never reused, so it may
     * keep them. It is called from one thread at a time.
     *
     * @throws IllegalArgumentException if a consumer with this name is already subscribed
     */
    void subscribe(String name, Consumer<List<Event>> batchConsumer);

    /** Removes the consumer with this name; returns whether there was one. */
    boolean unsubscribe(String name);

    /** Starts delivering. Only the asynchronous bus has anything to start. */
    void start();

    /**
     * Returns once every event published before the call has been delivered to every consumer.
     * Must not be called by a consumer of this bus.
     */
    void flush();

    /** Sequence numbers assigned so far: the seq of the last event published. */
    long published();

    /** Events delivered to the consumers so far: all seqs up to this one have been handed out. */
    long delivered();

    /**
     * Refuses further publishes, delivers everything already published, and stops. Closing twice is
     * harmless. Consumers are not closed: their owner closes them.
     */
    @Override
    void close();
}
