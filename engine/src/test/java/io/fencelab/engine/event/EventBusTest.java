package io.fencelab.engine.event;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.fencelab.engine.event.Event.PauseEnded;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

@Timeout(value = 60, unit = TimeUnit.SECONDS)
class EventBusTest {

    @TempDir
    Path dir;

    /** A lossless consumer: keeps every event and every batch. Called from one thread at a time. */
    static final class Recorder implements Consumer<List<Event>> {
        final List<Event> events = Collections.synchronizedList(new ArrayList<>());
        final List<Thread> threads = Collections.synchronizedList(new ArrayList<>());
        volatile int batches;

        @Override
        public void accept(List<Event> batch) {
            assertThat(batch).isNotEmpty();
            events.addAll(batch);
            threads.add(Thread.currentThread());
            batches++;
        }

        List<Long> seqs() {
            synchronized (events) {
                return events.stream().map(Event::seq).toList();
            }
        }
    }

    private static Event pauseEnded(long seq, long at, String holder) {
        return new PauseEnded(seq, at, holder);
    }

    @Test
    void nothingPublishedAfterRunEndedReachesAConsumer() {
        Recorder recorder = new Recorder();
        try (EventBus bus = EventBus.async()) {
            bus.subscribe("recorder", recorder);
            bus.start();
            bus.publish(seq -> new Event.RunStarted(seq, 0, "r", "live", "FENCED", "MONOTONIC", 1, null));
            bus.publish(seq -> new Event.RunEnded(seq, 10, Event.RunEnded.Reason.failed("database unreachable")));
            // An action the end could not wait for, landing after it:
            bus.publish(seq -> new Event.OperationFailed(seq, 11, "A", "write", "late"));
            bus.flush();
        }
        assertThat(recorder.seqs()).as("the run's history ends at its RunEnded").containsExactly(1L, 2L);
    }

    @Test
    void eightProducersGetEveryEventDeliveredOnceInSeqOrderWithoutGaps() throws Exception {
        int producers = 8;
        int perProducer = 25_000;
        Recorder recorder = new Recorder();
        Recorder second = new Recorder();
        try (EventBus bus = EventBus.async()) {
            bus.subscribe("recorder", recorder);
            bus.subscribe("second", second);
            bus.start();
            runProducers(bus, producers, perProducer);
            bus.flush();
            assertThat(bus.published()).isEqualTo(producers * perProducer);
            assertThat(bus.delivered()).isEqualTo(producers * perProducer);
        }

        List<Long> seqs = recorder.seqs();
        assertThat(seqs).as("events delivered to the recorder").hasSize(producers * perProducer);
        for (int i = 0; i < seqs.size(); i++) {
            if (seqs.get(i) != i + 1) {
                throw new AssertionError("delivery position " + i + " holds seq " + seqs.get(i) + ", expected " + (i + 1));
            }
        }
        assertThat(second.seqs()).as("the second consumer sees the same sequence").isEqualTo(seqs);
        // Each producer's own events keep its publishing order (atMicros counts per producer).
        for (int p = 0; p < producers; p++) {
            String holder = "p" + p;
            List<Long> mine = recorder.events.stream().filter(e -> e.holder().equals(holder))
                    .map(Event::atMicros).toList();
            assertThat(mine).as("events of %s", holder).hasSize(perProducer).isSorted();
        }
        assertThat(recorder.threads).as("one dispatcher thread delivers").allMatch(t -> t.getName()
                .equals("fencelab-event-dispatcher"));
    }

    @Test
    void aHigherSeqIsHeldBackUntilTheLowerOneArrives() throws Exception {
        Recorder recorder = new Recorder();
        CountDownLatch firstTookItsNumber = new CountDownLatch(1);
        CountDownLatch releaseFirst = new CountDownLatch(1);
        try (EventBus bus = EventBus.async()) {
            bus.subscribe("recorder", recorder);
            bus.start();
            Thread slow = Thread.ofPlatform().start(() -> bus.publish(seq -> {
                firstTookItsNumber.countDown();
                await(releaseFirst);
                return pauseEnded(seq, 0, "slow");
            }));
            firstTookItsNumber.await();
            assertThat(bus.publish(seq -> pauseEnded(seq, 1, "fast"))).isEqualTo(2);
            Thread.sleep(50); // give the dispatcher every chance to deliver seq 2 early
            assertThat(recorder.events).as("nothing delivered while seq 1 is missing").isEmpty();

            releaseFirst.countDown();
            slow.join();
            bus.flush();
        }
        assertThat(recorder.seqs()).containsExactly(1L, 2L);
    }

    @Test
    void aThrowingConsumerDoesNotStopTheRecorder() throws Exception {
        Recorder recorder = new Recorder();
        Recorder afterAFailure = new Recorder();
        try (EventBus bus = EventBus.async(64)) {
            bus.subscribe("broken", batch -> {
                throw new IllegalStateException("this consumer always fails");
            });
            int[] calls = {0};
            bus.subscribe("sometimes", batch -> {
                if (calls[0]++ % 2 == 0) {
                    throw new IllegalStateException("every other batch fails");
                }
                afterAFailure.accept(batch);
            });
            bus.subscribe("recorder", recorder);
            bus.start();
            runProducers(bus, 2, 5_000);
        }
        assertThat(recorder.seqs()).hasSize(10_000).isSorted().doesNotHaveDuplicates();
        assertThat(afterAFailure.batches).as("a consumer that failed still gets later batches").isPositive();
    }

    @Test
    void closeDeliversEverythingPublishedBeforeIt() throws Exception {
        Recorder recorder = new Recorder();
        EventBus bus = EventBus.async();
        bus.subscribe("recorder", recorder);
        bus.start();
        runProducers(bus, 4, 20_000);
        bus.close(); // no flush first
        assertThat(recorder.seqs()).hasSize(80_000);
        assertThat(recorder.seqs().getLast()).isEqualTo(80_000);
        assertThat(bus.delivered()).isEqualTo(80_000);
    }

    @Test
    void closeWithoutStartStillDelivers() {
        Recorder recorder = new Recorder();
        EventBus bus = EventBus.async();
        bus.subscribe("recorder", recorder);
        for (int i = 0; i < 10; i++) {
            bus.publish(seq -> pauseEnded(seq, 0, "A"));
        }
        bus.close();
        assertThat(recorder.seqs()).containsExactly(1L, 2L, 3L, 4L, 5L, 6L, 7L, 8L, 9L, 10L);
        assertThat(recorder.threads).containsOnly(Thread.currentThread());
    }

    @Test
    void publishAfterCloseIsRefused() {
        for (EventBus bus : List.of(EventBus.async(), EventBus.direct())) {
            bus.start();
            bus.publish(seq -> pauseEnded(seq, 0, "A"));
            bus.close();
            assertThatThrownBy(() -> bus.publish(seq -> pauseEnded(seq, 0, "A")))
                    .isInstanceOf(IllegalStateException.class).hasMessageContaining("closed");
            assertThat(bus.published()).isEqualTo(1);
            bus.close(); // harmless
        }
    }

    @Test
    void aFailingFactoryDoesNotStallDelivery() {
        Recorder recorder = new Recorder();
        try (EventBus bus = EventBus.async()) {
            bus.subscribe("recorder", recorder);
            bus.start();
            assertThatThrownBy(() -> bus.publish(seq -> {
                throw new IllegalArgumentException("cannot build");
            })).isInstanceOf(IllegalArgumentException.class);
            assertThatThrownBy(() -> bus.publish(seq -> pauseEnded(seq + 100, 0, "A")))
                    .isInstanceOf(IllegalStateException.class).hasMessageContaining("was given seq 2");
            assertThat(bus.publish(seq -> pauseEnded(seq, 0, "A"))).isEqualTo(3);
            bus.flush();
        }
        assertThat(recorder.seqs()).as("numbers 1 and 2 were skipped, 3 delivered").containsExactly(3L);
    }

    @Test
    void consumersGetUnmodifiableBatchesAndNamesAreUnique() {
        List<List<Event>> batches = new ArrayList<>();
        try (EventBus bus = EventBus.direct(10)) {
            bus.subscribe("keep", batches::add);
            assertThatThrownBy(() -> bus.subscribe("keep", b -> { }))
                    .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("'keep'");
            bus.publish(seq -> pauseEnded(seq, 0, "A"));
            bus.publish(seq -> pauseEnded(seq, 0, "A"));
            bus.flush();
            bus.publish(seq -> pauseEnded(seq, 0, "A"));
            bus.flush();
            assertThat(bus.unsubscribe("keep")).isTrue();
            bus.publish(seq -> pauseEnded(seq, 0, "A"));
        }
        assertThat(batches).hasSize(2);
        assertThat(batches.get(0)).hasSize(2);
        assertThatThrownBy(() -> batches.get(0).add(null)).isInstanceOf(UnsupportedOperationException.class);
        assertThatThrownBy(() -> batches.get(1).add(null)).isInstanceOf(UnsupportedOperationException.class);
    }

    @Test
    void directBusDeliversEachEventBeforePublishReturns() {
        Recorder recorder = new Recorder();
        EventBus bus = EventBus.direct();
        bus.subscribe("recorder", recorder);
        for (int i = 1; i <= 5; i++) {
            long seq = bus.publish(s -> pauseEnded(s, 0, "A"));
            assertThat(seq).isEqualTo(i);
            assertThat(recorder.seqs()).as("delivered inside publish").hasSize(i);
        }
        assertThat(recorder.batches).isEqualTo(5);
        assertThat(recorder.threads).containsOnly(Thread.currentThread());
        bus.close();
    }

    @Test
    void batchingDirectBusDeliversWhenFullOrFlushed() {
        Recorder recorder = new Recorder();
        EventBus bus = EventBus.direct(3);
        bus.subscribe("recorder", recorder);
        bus.publish(s -> pauseEnded(s, 0, "A"));
        bus.publish(s -> pauseEnded(s, 0, "A"));
        assertThat(recorder.events).isEmpty();
        bus.publish(s -> pauseEnded(s, 0, "A"));
        assertThat(recorder.seqs()).containsExactly(1L, 2L, 3L);
        bus.publish(s -> pauseEnded(s, 0, "A"));
        bus.flush();
        assertThat(recorder.seqs()).containsExactly(1L, 2L, 3L, 4L);
        bus.publish(s -> pauseEnded(s, 0, "A"));
        bus.close();
        assertThat(recorder.seqs()).containsExactly(1L, 2L, 3L, 4L, 5L);
    }

    @Test
    void directBusKeepsOrderWhenAConsumerPublishes() {
        EventBus bus = EventBus.direct();
        // The first consumer reacts to seq 1 by publishing; the second must still see 1 before 2.
        bus.subscribe("reacts", batch -> {
            if (batch.getFirst().seq() == 1) {
                bus.publish(s -> pauseEnded(s, 1, "reaction"));
            }
        });
        Recorder recorder = new Recorder();
        bus.subscribe("recorder", recorder);
        bus.publish(s -> pauseEnded(s, 0, "A"));
        assertThat(recorder.seqs()).containsExactly(1L, 2L);
    }

    @Test
    void directBusIsDeterministic() {
        assertThat(directRun()).isEqualTo(directRun());
    }

    private static List<List<Long>> directRun() {
        List<List<Long>> batches = new ArrayList<>();
        try (EventBus bus = EventBus.direct(7)) {
            bus.subscribe("batches", b -> batches.add(b.stream().map(Event::seq).toList()));
            for (int i = 0; i < 50; i++) {
                bus.publish(s -> pauseEnded(s, s * 10, "A"));
                if (i % 11 == 0) {
                    bus.flush();
                }
            }
        }
        return batches;
    }

    @Test
    void eventLogRecordsEveryEventFromConcurrentProducers() throws Exception {
        Path file = dir.resolve("run.jsonl");
        Recorder recorder = new Recorder();
        try (EventLog log = EventLog.create(file)) {
            try (EventBus bus = EventBus.async()) {
                bus.subscribe("log", log);
                bus.subscribe("recorder", recorder);
                bus.start();
                runProducers(bus, 4, 5_000);
            }
            assertThat(log.written()).isEqualTo(20_000);
        }
        List<Event> read = EventLogReader.read(file);
        assertThat(read).hasSize(20_000).isEqualTo(recorder.events);
        for (int i = 0; i < read.size(); i++) {
            assertThat(read.get(i).seq()).isEqualTo(i + 1);
        }
    }

    @Test
    void aBrokenLogDoesNotStopOtherConsumers() throws IOException {
        Path file = dir.resolve("closed.jsonl");
        EventLog log = EventLog.create(file);
        log.close();
        Recorder recorder = new Recorder();
        try (EventBus bus = EventBus.direct()) {
            bus.subscribe("log", log);
            bus.subscribe("recorder", recorder);
            bus.publish(s -> pauseEnded(s, 0, "A"));
        }
        assertThat(recorder.seqs()).containsExactly(1L);
    }

    /** Starts {@code producers} threads together, each publishing {@code perProducer} events, and waits. */
    private static void runProducers(EventBus bus, int producers, int perProducer) throws InterruptedException {
        CountDownLatch go = new CountDownLatch(1);
        List<Thread> threads = new ArrayList<>();
        for (int p = 0; p < producers; p++) {
            String holder = "p" + p;
            threads.add(Thread.ofPlatform().name("producer-" + p).start(() -> {
                await(go);
                for (int i = 0; i < perProducer; i++) {
                    long at = i;
                    bus.publish(seq -> pauseEnded(seq, at, holder));
                }
            }));
        }
        go.countDown();
        for (Thread t : threads) {
            t.join();
        }
    }

    private static void await(CountDownLatch latch) {
        try {
            latch.await();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }
}
