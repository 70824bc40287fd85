package io.fencelab.bench;

import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.databind.ObjectWriter;
import com.fasterxml.jackson.databind.SequenceWriter;
import com.fasterxml.jackson.databind.SerializationFeature;
import io.fencelab.app.cli.ExitCodes;
import io.fencelab.engine.event.Event;
import io.fencelab.engine.event.EventBus;
import io.fencelab.engine.event.EventJson;
import io.fencelab.engine.event.EventLog;
import io.fencelab.engine.resource.TargetKind;
import java.io.BufferedWriter;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Callable;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CountDownLatch;
import java.util.function.LongFunction;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * Event pipeline benchmark. (a) Events per second sustained through the asynchronous {@link EventBus}
 * with the {@link EventLog} recorder writing a temp file, against one thread writing the same
 * events straight to a BufferedWriter with Jackson (no bus). (b) Nanoseconds a producer spends in
 * {@code publish}, against a plain {@link ConcurrentLinkedQueue#offer} of the same objects. Each
 * figure is the median of alternating rounds, and each is printed with its ratio to its baseline.
 */
@Command(name = "bench-events", mixinStandardHelpOptions = true,
        description = "Measure events/s through the event bus with the JSON Lines recorder, and the cost of one "
                + "publish, against a direct Jackson writer and a plain queue offer; print the ratios.")
public final class EventBenchCommand implements Callable<Integer> {

    @Option(names = "--events", defaultValue = "1000000", description = "Events per round (default: ${DEFAULT-VALUE}).")
    int events;

    @Option(names = "--producers", split = ",", defaultValue = "1,4",
            description = "Producer thread counts (default: ${DEFAULT-VALUE}).")
    List<Integer> producers;

    @Option(names = "--rounds", defaultValue = "5",
            description = "Alternating rounds per point, after one warm-up round; each figure is the median "
                    + "(default: ${DEFAULT-VALUE}).")
    int rounds;

    @Option(names = {"-v", "--verbose"}, description = "Print every round's figures.")
    boolean verbose;

    @Spec
    CommandSpec spec;

    @Override
    public Integer call() throws Exception {
        if (rounds < 1 || producers.stream().anyMatch(p -> p < 1 || p > events)) {
            throw new IllegalArgumentException("--rounds must be at least 1, and every --producers count from 1 to "
                    + "--events (" + events + ")");
        }
        PrintWriter out = spec.commandLine().getOut();
        Path dir = Files.createTempDirectory("fencelab-bench-events");
        try {
            out.printf(Locale.ROOT, "Fencelab event bench: %,d events per round, median of %d alternating rounds after "
                    + "1 warm-up round; %d cores; Java %s%n", events, rounds,
                    Runtime.getRuntime().availableProcessors(), Runtime.version());
            out.println();
            out.println("(a) sustained events/s, recorder on (JSON Lines to a temp file)");
            out.println("    baseline: one thread writing the same events with Jackson to a BufferedWriter, no bus");
            out.printf(Locale.ROOT, "%-10s %14s %14s %12s%n", "producers", "bus+log/s", "baseline/s", "bus÷baseline");
            for (int p : producers) {
                List<Double> bus = new ArrayList<>();
                List<Double> base = new ArrayList<>();
                for (int r = -1; r < rounds; r++) { // round -1 warms up
                    double b = busThroughput(dir, p, evenly(p));
                    double j = jacksonThroughput(dir, evenly(p));
                    if (r >= 0) {
                        bus.add(b);
                        base.add(j);
                    }
                }
                printRounds(out, bus, base);
                double busRate = median(bus);
                double baseRate = median(base);
                out.printf(Locale.ROOT, "%-10d %,14.0f %,14.0f %12.2f%n", p, busRate, baseRate, busRate / baseRate);
                out.flush();
            }

            out.println();
            out.println("(b) producer-side cost per publish, recorder on");
            out.println("    baseline: ConcurrentLinkedQueue.offer of the same event objects, from as many threads");
            out.printf(Locale.ROOT, "%-10s %14s %14s %12s%n", "producers", "publish ns", "offer ns", "publish÷offer");
            for (int p : producers) {
                List<Double> publish = new ArrayList<>();
                List<Double> offer = new ArrayList<>();
                for (int r = -1; r < rounds; r++) {
                    Event[] prebuilt = prebuilt(evenly(p));
                    double b = publishNanos(dir, p, prebuilt);
                    double q = offerNanos(p, prebuilt);
                    if (r >= 0) {
                        publish.add(b);
                        offer.add(q);
                    }
                }
                printRounds(out, publish, offer);
                double publishNs = median(publish);
                double offerNs = median(offer);
                out.printf(Locale.ROOT, "%-10d %14.1f %14.1f %12.2f%n", p, publishNs, offerNs, publishNs / offerNs);
                out.flush();
            }
            return ExitCodes.OK;
        } finally {
            try (var files = Files.list(dir)) {
                for (Path f : files.toList()) {
                    Files.deleteIfExists(f);
                }
            }
            Files.deleteIfExists(dir);
        }
    }

    private void printRounds(PrintWriter out, List<Double> measured, List<Double> baseline) {
        if (verbose) {
            out.printf(Locale.ROOT, "  rounds: measured %s, baseline %s%n", rounded(measured), rounded(baseline));
        }
    }

    /** (a) Events/s from the first publish until close() has delivered and logged the last one. */
    private double busThroughput(Path dir, int producerCount, int total) throws Exception {
        Path file = dir.resolve("bus.jsonl");
        try (EventLog log = EventLog.create(file)) {
            EventBus bus = EventBus.async();
            bus.subscribe("recorder", log);
            bus.start();
            long elapsed = runProducers(producerCount, total, (producer, count) -> {
                for (int i = 0; i < count; i++) {
                    bus.publish(EventBenchCommand::eventAt);
                }
            }, bus::close);
            if (log.written() != total) {
                throw new IllegalStateException("the recorder wrote " + log.written() + " of " + total + " events");
            }
            return total * 1e9 / elapsed;
        }
    }

    /** (a) baseline: the same events, built and written by one thread, straight to a BufferedWriter. */
    private double jacksonThroughput(Path dir, int total) throws IOException {
        Path file = dir.resolve("baseline.jsonl");
        ObjectWriter writer = EventJson.writer().without(SerializationFeature.FLUSH_AFTER_WRITE_VALUE);
        long start = System.nanoTime();
        try (BufferedWriter out = Files.newBufferedWriter(file, StandardCharsets.UTF_8);
             JsonGenerator json = EventJson.mapper().createGenerator(out)) {
            json.setRootValueSeparator(null);
            SequenceWriter values = writer.writeValues(json); // as EventLog serializes
            for (long seq = 1; seq <= total; seq++) {
                values.write(eventAt(seq));
                json.writeRaw('\n');
            }
        }
        return total * 1e9 / (System.nanoTime() - start);
    }

    /** (b) Mean nanoseconds per publish call, timed on each producer thread. */
    private double publishNanos(Path dir, int producerCount, Event[] prebuilt) throws Exception {
        Path file = dir.resolve("publish.jsonl");
        try (EventLog log = EventLog.create(file)) {
            EventBus bus = EventBus.async();
            bus.subscribe("recorder", log);
            bus.start();
            LongFunction<Event> same = seq -> prebuilt[(int) (seq - 1)];
            double[] perThread = new double[producerCount];
            runProducers(producerCount, prebuilt.length, (producer, count) -> {
                long start = System.nanoTime();
                for (int i = 0; i < count; i++) {
                    bus.publish(same);
                }
                perThread[producer] = (System.nanoTime() - start) / (double) count;
            }, bus::close);
            return mean(perThread);
        }
    }

    /** (b) baseline: offering the same objects to a plain lock-free queue. */
    private double offerNanos(int producerCount, Event[] prebuilt) throws Exception {
        ConcurrentLinkedQueue<Event> queue = new ConcurrentLinkedQueue<>();
        double[] perThread = new double[producerCount];
        runProducers(producerCount, prebuilt.length, (producer, count) -> {
            long start = System.nanoTime();
            for (int i = 0; i < count; i++) {
                queue.offer(prebuilt[i * producerCount + producer]);
            }
            perThread[producer] = (System.nanoTime() - start) / (double) count;
        }, () -> { });
        if (queue.size() != prebuilt.length) {
            throw new IllegalStateException("the queue holds " + queue.size() + " events");
        }
        return mean(perThread);
    }

    /** The number of events rounded down to a multiple of the producer count, so each does an equal share. */
    private int evenly(int producerCount) {
        return events - events % producerCount;
    }

    private static Event[] prebuilt(int total) {
        Event[] all = new Event[total];
        for (int i = 0; i < total; i++) {
            all[i] = eventAt(i + 1);
        }
        return all;
    }

    /** A realistic mix of the most frequent events of a run, with tokens in the high range. */
    static Event eventAt(long seq) {
        long token = 9_007_199_254_740_993L + seq / 4; // above 2^53, as tokens may be
        long at = seq * 250;
        return switch ((int) (seq & 3)) {
            case 0 -> new Event.LeaseRenewed(seq, at, "worker-3", "report", token, at + 30_000_000);
            case 1 -> new Event.WriteAttempted(seq, at, "worker-3", "report", token, TargetKind.ROW, "report-1", seq);
            case 2 -> new Event.WriteAccepted(seq, at, "worker-3", "report", token, TargetKind.ROW, "report-1",
                    "sha256:3f1a9c0d");
            default -> new Event.WriteRejectedStale(seq, at, "worker-1", "report", token - 1, TargetKind.ROW,
                    "report-1", token);
        };
    }

    @FunctionalInterface
    private interface Producer {
        void run(int producer, int count) throws Exception;
    }

    /**
     * Runs the producers together, each doing {@code total / producerCount}, then {@code finish};
     * returns nanoseconds from the start signal until {@code finish} returned.
     */
    private static long runProducers(int producerCount, int total, Producer body, Runnable finish) throws Exception {
        CountDownLatch ready = new CountDownLatch(producerCount);
        CountDownLatch go = new CountDownLatch(1);
        List<Thread> threads = new ArrayList<>();
        List<Throwable> failures = java.util.Collections.synchronizedList(new ArrayList<>());
        for (int p = 0; p < producerCount; p++) {
            int producer = p;
            int count = total / producerCount;
            threads.add(Thread.ofPlatform().name("bench-producer-" + p).start(() -> {
                try {
                    ready.countDown();
                    go.await();
                    body.run(producer, count);
                } catch (Throwable e) {
                    failures.add(e);
                }
            }));
        }
        ready.await();
        long start = System.nanoTime();
        go.countDown();
        for (Thread t : threads) {
            t.join();
        }
        finish.run();
        long elapsed = System.nanoTime() - start;
        if (!failures.isEmpty()) {
            Throwable first = failures.getFirst();
            if (first instanceof IOException io) {
                throw new UncheckedIOException(io);
            }
            throw new IllegalStateException("a bench producer failed: " + first, first);
        }
        return elapsed;
    }

    private static double mean(double[] values) {
        double sum = 0;
        for (double v : values) {
            sum += v;
        }
        return sum / values.length;
    }

    private static double median(List<Double> values) {
        return Spread.of(values).median();
    }

    private static List<Long> rounded(List<Double> values) {
        return values.stream().map(Math::round).toList();
    }
}
