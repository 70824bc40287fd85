package io.fencelab.bench;

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.LongAdder;
import java.util.function.IntFunction;

/**
 * Runs N client threads in a closed loop and measures the window after the warm-up: operations per
 * second, and the CPU time and heap allocation the client threads spent per operation. Several
 * drivers of one operation can share the window, taking turns ({@link #interleaved}).
 *
 * <p>The CPU figure is each client thread's own CPU time ({@link ThreadMXBean#getCurrentThreadCpuTime}),
 * read by the thread itself where its measured operations begin and end, summed over the clients and
 * divided by their operations. Per thread rather than the whole process's CPU time because the
 * window is then exact for each thread and nothing else is in it: no JIT compiler or GC thread, no
 * warm-up, no other benchmark thread. Unlike throughput, it does not depend on how two saturated
 * cores are shared between the clients and the server, which is what makes it hold still. Garbage
 * collection is left out of it, so the bytes each operation allocates are reported beside it.
 */
final class Load {

    /** How long one driver keeps the turn when several take turns, unless the caller says otherwise. */
    static final Duration SLICE = Duration.ofMillis(100);
    private static final int STOP = -1;

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

    /**
     * One measured window: the operations begun in it, the wall time, and the CPU nanoseconds and
     * heap bytes the client threads spent on those operations ({@code allocatedBytes} is negative
     * when the JVM cannot count allocation per thread).
     */
    record Measurement(long operations, long elapsedNanos, long cpuNanos, long allocatedBytes) {

        double perSecond() {
            return operations * 1e9 / elapsedNanos;
        }

        double cpuMicrosPerOperation() {
            return cpuNanos / 1e3 / Math.max(1, operations);
        }

        /** Bytes allocated per operation, or NaN if the JVM does not count them. */
        double bytesPerOperation() {
            return allocatedBytes < 0 ? Double.NaN : (double) allocatedBytes / Math.max(1, operations);
        }
    }

    private Load() {
    }

    /** Operations per second over the measured window. */
    static double run(int clients, Duration warmup, Duration measure, IntFunction<ClientLoop> factory) {
        return interleaved(clients, warmup, measure, SLICE, List.of(factory)).getFirst().perSecond();
    }

    /**
     * Measures several drivers of the same operation (the engine and its baseline) in one window,
     * taking turns in slices of {@code slice}: every client thread holds one loop per driver and runs
     * the one whose turn it is. Drift on the machine (a build starting, the server's caches, table
     * growth) then falls on all drivers alike, where whole rounds one after the other would see it
     * land on one of them. Each driver gets {@code warmup} and then {@code measure} of turns in all.
     *
     * @return one measurement per driver, in the order given
     */
    static List<Measurement> interleaved(int clients, Duration warmup, Duration measure, Duration slice,
                                         List<IntFunction<ClientLoop>> drivers) {
        ThreadMXBean threads = ManagementFactory.getThreadMXBean();
        if (!threads.isCurrentThreadCpuTimeSupported()) {
            throw new IllegalStateException("this JVM cannot measure a thread's CPU time");
        }
        if (!threads.isThreadCpuTimeEnabled()) {
            threads.setThreadCpuTimeEnabled(true);
        }
        Allocation allocation = Allocation.of(threads);
        int n = drivers.size();
        // Whose turn it is: d while driver d warms up, n + d while it is measured, STOP at the end.
        AtomicInteger turn = new AtomicInteger(0);
        Tally[] tallies = new Tally[n];
        for (int d = 0; d < n; d++) {
            tallies[d] = new Tally();
        }
        CountDownLatch ready = new CountDownLatch(clients);
        List<Thread> started = new ArrayList<>();
        List<Throwable> failures = Collections.synchronizedList(new ArrayList<>());
        Turns shared = new Turns(turn, tallies, threads, allocation, ready, failures);
        for (int c = 0; c < clients; c++) {
            int client = c;
            started.add(Thread.ofPlatform().name("bench-client-" + c).start(() -> client(client, drivers, shared)));
        }
        try {
            ready.await();
            long[] wall = new long[n];
            takeTurns(turn, 0, n, warmup.toNanos() * n, slice.toNanos(), new long[n]);
            takeTurns(turn, n, n, measure.toNanos() * n, slice.toNanos(), wall);
            turn.set(STOP);
            for (Thread t : started) {
                t.join();
            }
            if (!failures.isEmpty()) {
                throw new IllegalStateException("a bench client failed: " + failures.getFirst(), failures.getFirst());
            }
            List<Measurement> out = new ArrayList<>();
            for (int d = 0; d < n; d++) {
                Tally t = tallies[d];
                out.add(new Measurement(t.ops.sum(), wall[d], t.cpu.sum(), allocation.counted() ? t.bytes.sum() : -1));
            }
            return out;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted", e);
        }
    }

    /** What the client threads share with the thread that gives the turns. */
    private record Turns(AtomicInteger turn, Tally[] tallies, ThreadMXBean threads, Allocation allocation,
                         CountDownLatch ready, List<Throwable> failures) {
    }

    /** One client thread: runs the loop of the driver whose turn it is, tallying each measured turn. */
    private static void client(int client, List<IntFunction<ClientLoop>> drivers, Turns shared) {
        int n = drivers.size();
        AtomicInteger turn = shared.turn();
        Tally[] tallies = shared.tallies();
        ThreadMXBean threads = shared.threads();
        Allocation allocation = shared.allocation();
        ClientLoop[] loops = new ClientLoop[n];
        try {
            for (int d = 0; d < n; d++) {
                loops[d] = drivers.get(d).apply(client);
            }
            shared.ready().countDown();
            int current = Integer.MIN_VALUE;
            long done = 0;
            long cpuAtStart = 0;
            long bytesAtStart = 0;
            while (true) {
                int now = turn.get();
                if (now != current) {
                    if (current >= n) {
                        // Read first thing: the window holds exactly the operations counted in it.
                        tallies[current - n].add(done, threads.getCurrentThreadCpuTime() - cpuAtStart,
                                allocation.current() - bytesAtStart);
                    }
                    if (now == STOP) {
                        break;
                    }
                    current = now;
                    done = 0;
                    cpuAtStart = threads.getCurrentThreadCpuTime();
                    bytesAtStart = allocation.current();
                }
                loops[now % n].once();
                done++;
            }
        } catch (Throwable e) {
            shared.failures().add(e);
            shared.ready().countDown();
        } finally {
            for (ClientLoop loop : loops) {
                closeQuietly(loop);
            }
        }
    }

    /** Gives the turn to each of the {@code n} drivers in slices for {@code total} ns, adding each one's wall time. */
    private static void takeTurns(AtomicInteger turn, int base, int n, long total, long slice, long[] wall)
            throws InterruptedException {
        long start = System.nanoTime();
        long sliceStart = start;
        int d = 0;
        turn.set(base);
        while (sliceStart - start < total) {
            Thread.sleep(Duration.ofNanos(Math.min(slice, total - (sliceStart - start))));
            long now = System.nanoTime();
            wall[d] += now - sliceStart;
            sliceStart = now;
            d = (d + 1) % n;
            turn.set(base + d);
        }
    }

    /** What the clients did in one driver's turns. */
    private static final class Tally {
        final LongAdder ops = new LongAdder();
        final LongAdder cpu = new LongAdder();
        final LongAdder bytes = new LongAdder();

        void add(long operations, long cpuNanos, long allocatedBytes) {
            ops.add(operations);
            cpu.add(cpuNanos);
            bytes.add(allocatedBytes);
        }
    }

    /** The current thread's allocated bytes, where the JVM counts them (HotSpot does). */
    private record Allocation(com.sun.management.ThreadMXBean bean) {

        static Allocation of(ThreadMXBean threads) {
            if (threads instanceof com.sun.management.ThreadMXBean hotspot && hotspot.isThreadAllocatedMemorySupported()) {
                if (!hotspot.isThreadAllocatedMemoryEnabled()) {
                    hotspot.setThreadAllocatedMemoryEnabled(true);
                }
                return new Allocation(hotspot);
            }
            return new Allocation(null);
        }

        boolean counted() {
            return bean != null;
        }

        long current() {
            return bean == null ? 0 : bean.getCurrentThreadAllocatedBytes();
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
