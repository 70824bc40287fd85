package io.fencelab.bench;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.LongAdder;
import java.util.function.IntFunction;

/** Runs N client threads in a closed loop and reports operations per second over the measured window. */
final class Load {

    /** One client's operation; built once per client thread, so it may hold a connection. */
    @FunctionalInterface
    interface ClientLoop {
        void once() throws Exception;

        /** Releases what the loop holds. */
        default void close() throws Exception {
        }

        /** A loop that closes {@code resource} when the client stops. */
        static ClientLoop closing(AutoCloseable resource, ClientLoop body) {
            return new ClientLoop() {
                @Override
                public void once() throws Exception {
                    body.once();
                }

                @Override
                public void close() throws Exception {
                    resource.close();
                }
            };
        }
    }

    private Load() {
    }

    static double run(int clients, Duration warmup, Duration measure, IntFunction<ClientLoop> factory) {
        AtomicBoolean counting = new AtomicBoolean(false);
        AtomicBoolean stop = new AtomicBoolean(false);
        LongAdder ops = new LongAdder();
        CountDownLatch ready = new CountDownLatch(clients);
        List<Thread> threads = new ArrayList<>();
        List<Throwable> failures = java.util.Collections.synchronizedList(new ArrayList<>());
        for (int c = 0; c < clients; c++) {
            int client = c;
            threads.add(Thread.ofPlatform().name("bench-client-" + c).start(() -> {
                ClientLoop loop = null;
                try {
                    loop = factory.apply(client);
                    ready.countDown();
                    while (!stop.get()) {
                        loop.once();
                        if (counting.get()) {
                            ops.increment();
                        }
                    }
                } catch (Throwable e) {
                    failures.add(e);
                    ready.countDown();
                } finally {
                    closeQuietly(loop);
                }
            }));
        }
        try {
            ready.await();
            Thread.sleep(warmup);
            counting.set(true);
            long start = System.nanoTime();
            Thread.sleep(measure);
            counting.set(false);
            long elapsed = System.nanoTime() - start;
            stop.set(true);
            for (Thread t : threads) {
                t.join();
            }
            if (!failures.isEmpty()) {
                throw new IllegalStateException("a bench client failed: " + failures.getFirst(), failures.getFirst());
            }
            return ops.sum() * 1e9 / elapsed;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted", e);
        }
    }

    private static void closeQuietly(ClientLoop loop) {
        if (loop != null) {
            try {
                loop.close();
            } catch (Exception ignored) {
                // the measurement is over; a failing close changes nothing
            }
        }
    }
}
