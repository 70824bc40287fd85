package io.fencelab.engine.event;

import java.util.List;
import java.util.function.Consumer;

/**
 * What both buses share: their consumers, added and removed by name and handed each batch through
 * {@link Subscribers}, and the check of an event a publisher's factory built. The buses differ only
 * in how events get from publishers to {@link Subscribers#deliver}.
 */
abstract sealed class SubscribedBus implements EventBus permits DirectEventBus, DispatchingEventBus {

    final Subscribers subscribers = new Subscribers();

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
