package io.fencelab.engine.event;

import java.util.function.LongFunction;

/**
 * Where producers put events. The sink assigns the sequence number and hands it to the factory, so
 * numbering and enqueueing are one step and producers never wait for consumers.
 */
@FunctionalInterface
public interface EventSink {
    /** Builds the event with the next sequence number and publishes it; returns that number. */
    long publish(LongFunction<? extends Event> factory);
}
