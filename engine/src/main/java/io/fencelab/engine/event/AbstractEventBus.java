package io.fencelab.engine.event;

import java.util.List;
import java.util.function.Consumer;

/**
 * What both buses share: their consumers, added and removed by name and handed each batch through
 * {@link Subscribers}, the largest batch, and the check of an event a publisher's factory built. The
 * buses differ only in how events get from publishers to {@link Subscribers#deliver}.
 */
abstract sealed class AbstractEventBus implements EventBus permits DirectEventBus, DispatchingEventBus {

    final Subscribers subscribers = new Subscribers();
    /** Largest batch handed to a consumer at once. */
    final int maxBatch;

    AbstractEventBus(int maxBatch) {
        if (maxBatch < 1) {
            throw new IllegalArgumentException("maxBatch must be at least 1, was " + maxBatch);
        }
        this.maxBatch = maxBatch;
    }

    @Override
    public final void subscribe(String name, Consumer<List<Event>> batchConsumer) {
        subscribers.add(name, batchConsumer);
    }

    @Override
    public final boolean unsubscribe(String name) {
        return subscribers.remove(name);
    }

    /** A factory must build the event it was given the number of. */
    static void checkBuilt(Event event, long seq) {
        if (event == null) {
            throw new IllegalStateException("the event factory returned null for seq " + seq);
        }
        if (event.seq() != seq) {
            throw new IllegalStateException("the event factory was given seq " + seq + " but built "
                    + event.getClass().getSimpleName() + " with seq " + event.seq());
        }
    }
}
