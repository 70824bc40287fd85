package io.fencelab.bench;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;
import javafx.application.Platform;

/**
 * How quickly the FX thread answers: a thread of its own posts a {@link Platform#runLater} every
 * {@code every} (10 ms by default) and notes how long each took from being posted to running on
 * the FX thread. That is what a click or a key press waits for before the console handles it.
 * Probes are posted whether or not the previous one has run, so a stall of one second shows as a
 * hundred slow probes, not as one.
 */
public final class FxProbe {

    private final long everyNanos;
    private final List<Long> nanos = new ArrayList<>();
    /** When each answered probe was posted, in ns since the probe started, in the same order as {@link #nanos}. */
    private final List<Long> postedAt = new ArrayList<>();
    private final long startNanos = System.nanoTime();
    private final AtomicLong posted = new AtomicLong();
    private final AtomicLong answered = new AtomicLong();
    private final Thread thread;
    private volatile boolean running = true;

    private FxProbe(Duration every) {
        this.everyNanos = every.toNanos();
        this.thread = Thread.ofPlatform().daemon().name("fencelab-fx-probe").unstarted(this::post);
    }

    /** Starts probing every 10 ms. */
    public static FxProbe start() {
        return start(Duration.ofMillis(10));
    }

    public static FxProbe start(Duration every) {
        FxProbe probe = new FxProbe(every);
        probe.thread.start();
        return probe;
    }

    private void post() {
        while (running) {
            long t0 = System.nanoTime();
            posted.incrementAndGet();
            Platform.runLater(() -> {
                long took = System.nanoTime() - t0;
                synchronized (nanos) {
                    nanos.add(took);
                    postedAt.add(t0 - startNanos);
                }
                answered.incrementAndGet();
            });
            LockSupport.parkNanos(everyNanos);
        }
    }

    /**
     * Stops posting, waits (up to 30 s) for the probes still queued to run, and returns every
     * probe's time in milliseconds. A probe that has not run by then counts as 30 s.
     */
    public Samples stop() throws InterruptedException {
        running = false;
        thread.join();
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        while (answered.get() < posted.get() && System.nanoTime() < deadline) {
            Thread.sleep(5);
        }
        List<Long> copy;
        List<Long> at;
        synchronized (nanos) {
            copy = new ArrayList<>(nanos);
            at = new ArrayList<>(postedAt);
        }
        long lost = posted.get() - copy.size();
        for (long i = 0; i < lost; i++) {
            copy.add(TimeUnit.SECONDS.toNanos(30));
            at.add(System.nanoTime() - startNanos);
        }
        return new Samples(copy.stream().mapToDouble(n -> n / 1e6).toArray(),
                at.stream().mapToDouble(n -> n / 1e6).toArray());
    }

    /**
     * Measured values (milliseconds, or any unit the caller says), with their percentiles; for
     * probes, also when each was posted (ms since probing started), to tell where the slow ones fall.
     */
    public record Samples(double[] values, double[] postedAtMillis) {

        public Samples(double[] values) {
            this(values, null);
        }

        /**
         * How many values are over {@code limit}, by second of the window they were posted in, as
         * "second: count" pairs in time order ("none" if none).
         */
        public String overBySecond(double limit) {
            if (postedAtMillis == null) {
                return "";
            }
            java.util.TreeMap<Integer, Integer> bySecond = new java.util.TreeMap<>();
            for (int i = 0; i < values.length; i++) {
                if (values[i] > limit) {
                    bySecond.merge((int) (postedAtMillis[i] / 1000), 1, Integer::sum);
                }
            }
            if (bySecond.isEmpty()) {
                return "none";
            }
            StringBuilder b = new StringBuilder();
            bySecond.forEach((s, n) -> b.append(b.isEmpty() ? "" : ", ").append(s).append("s: ").append(n));
            return b.toString();
        }

        public int count() {
            return values.length;
        }

        /** The {@code p}th percentile (nearest rank), NaN when there are no values. */
        public double percentile(double p) {
            return ConsoleBenchCommand.percentile(values, p);
        }

        public double p50() {
            return percentile(50);
        }

        public double p99() {
            return percentile(99);
        }

        public double max() {
            return percentile(100);
        }
    }
}
