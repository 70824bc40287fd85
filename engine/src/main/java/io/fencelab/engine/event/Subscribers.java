package io.fencelab.engine.event;

import java.util.List;
import java.util.Objects;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Consumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A bus's consumers, and the one loop that hands each batch to all of them so that a failing
 * consumer never keeps a batch from the others.
 */
final class Subscribers {

    private static final Logger log = LoggerFactory.getLogger(EventBus.class);

    private final List<Subscriber> subscribers = new CopyOnWriteArrayList<>();

    void add(String name, Consumer<List<Event>> consumer) {
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(consumer, "consumer");
        synchronized (subscribers) {
            if (subscribers.stream().anyMatch(s -> s.name.equals(name))) {
                throw new IllegalArgumentException("an event consumer named '" + name + "' is already subscribed");
            }
            subscribers.add(new Subscriber(name, consumer));
        }
    }

    boolean remove(String name) {
        synchronized (subscribers) {
            return subscribers.removeIf(s -> s.name.equals(name));
        }
    }

    /** Gives {@code batch} (unmodifiable, in seq order, not empty) to every consumer. */
    void deliver(List<Event> batch) {
        for (Subscriber s : subscribers) {
            try {
                s.consumer.accept(batch);
            } catch (VirtualMachineError e) {
                throw e;
            } catch (Throwable e) {
                s.failed(batch, e);
            }
        }
    }

    private static final class Subscriber {
        final String name;
        final Consumer<List<Event>> consumer;
        private long failures;

        Subscriber(String name, Consumer<List<Event>> consumer) {
            this.name = name;
            this.consumer = consumer;
        }

        void failed(List<Event> batch, Throwable e) {
            failures++;
            long first = batch.getFirst().seq();
            long last = batch.getLast().seq();
            // The first failure with its stack; then a line at the 2nd, 4th, 8th… so a consumer
            // failing on every batch cannot flood the log.
            if (failures == 1) {
                log.error("Event consumer '{}' failed on events {}..{}; the other consumers still get them", name,
                        first, last, e);
            } else if (Long.bitCount(failures) == 1) {
                log.error("Event consumer '{}' has failed {} times, latest on events {}..{}: {}", name, failures,
                        first, last, e.toString());
            }
        }
    }
}
