package io.fencelab.bench;

import io.fencelab.app.cli.DatabaseOptions;
import io.fencelab.app.cli.ExitCodes;
import io.fencelab.engine.db.Database;
import io.fencelab.engine.event.Event;
import io.fencelab.engine.event.EventBus;
import io.fencelab.engine.event.EventSink;
import io.fencelab.engine.fence.FencingMode;
import io.fencelab.engine.run.ExecutorKind;
import io.fencelab.engine.run.LiveExecutor;
import io.fencelab.engine.run.RunSpec;
import io.fencelab.engine.run.SimulatedExecutor;
import io.fencelab.engine.run.Workloads;
import java.io.PrintWriter;
import java.time.Duration;
import java.util.Locale;
import java.util.concurrent.Callable;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.LongAdder;
import java.util.function.LongFunction;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * Executor benchmark: the simulated executor's event and statement rate on a 50-worker storm, against
 * the raw single-client fenced-write rate measured in the same run (the SQL is its ceiling), and a
 * live run of 1,000 workers with its achieved write rate, and the start of a process run's agents
 * against the same workers as threads ({@link ProcessStartBench}).
 */
@Command(name = "bench-runs", mixinStandardHelpOptions = true,
        description = "Measure the simulated executor (50 workers) against the raw fenced-write rate, a "
                + "live run of 1,000 workers, and how fast a process run's 50 agents are ready.")
public final class RunBenchCommand implements Callable<Integer> {

    @Mixin
    DatabaseOptions database = new DatabaseOptions();

    @Option(names = "--sim-seconds", defaultValue = "120", description = "Virtual seconds of the simulated storm (default: ${DEFAULT-VALUE}).")
    int simSeconds;

    @Option(names = "--live-seconds", defaultValue = "10", description = "Seconds of the live run (default: ${DEFAULT-VALUE}).")
    int liveSeconds;

    @Option(names = "--live-workers", defaultValue = "1000", description = "Workers in the live run; 0 skips it (default: ${DEFAULT-VALUE}).")
    int liveWorkers;

    @Option(names = "--process-agents", defaultValue = "50", description = "Agents (worker JVMs) in the process "
            + "run whose start is measured, beside as many live workers; 0 skips it (default: ${DEFAULT-VALUE}).")
    int processAgents;

    @Option(names = "--process-seconds", defaultValue = "2", description = "Seconds each of those runs goes on "
            + "once started (default: ${DEFAULT-VALUE}).")
    int processSeconds;

    @Spec
    CommandSpec spec;

    /** Counts events by kind without keeping them. */
    private static final class CountingSink implements EventSink {
        final AtomicLong seq = new AtomicLong();
        final LongAdder statements = new LongAdder();
        final LongAdder accepted = new LongAdder();

        @Override
        public long publish(LongFunction<? extends Event> factory) {
            long s = seq.incrementAndGet();
            count(factory.apply(s));
            return s;
        }

        void count(Event e) {
            switch (e) {
                case Event.LeaseAcquired x -> statements.increment();
                case Event.LeaseBusy x -> statements.increment();
                case Event.LeaseExhausted x -> statements.increment();
                case Event.LeaseRenewed x -> statements.increment();
                case Event.LeaseReleased x -> statements.increment();
                case Event.WriteAccepted x -> {
                    statements.increment();
                    accepted.increment();
                }
                case Event.WriteRejectedStale x -> statements.increment();
                case Event.WriteMissing x -> statements.increment();
                case Event.WriteOutOfOrder x -> statements.increment();
                default -> { }
            }
        }
    }

    private static double percentile(long[] sorted, double q) {
        if (sorted.length == 0) {
            return 0;
        }
        return sorted[Math.min(sorted.length - 1, (int) Math.ceil(q * sorted.length) - 1)];
    }

    @Override
    public Integer call() throws Exception {
        PrintWriter out = spec.commandLine().getOut();
        try (BenchDatabase bench = BenchDatabase.open(database)) {
            Database db = bench.db();
            out.printf(Locale.ROOT, "Fencelab run bench: PostgreSQL %s%n", db.serverVersion());
            double raw = Load.run(1, Duration.ofSeconds(1), Duration.ofSeconds(3),
                    client -> RawJdbc.fencedWrite(db, db.newRun("bench-raw").runId(), "raw"));

            RunSpec sim = Workloads.storm(50, 5, FencingMode.FENCED, 1, Duration.ofSeconds(simSeconds));
            CountingSink simSink = new CountingSink();
            long t0 = System.nanoTime();
            try (SimulatedExecutor run = new SimulatedExecutor(db, sim, simSink)) {
                run.runToEnd();
            }
            double simSeconds = (System.nanoTime() - t0) / 1e9;
            double simStatements = simSink.statements.sum() / simSeconds;
            out.printf(Locale.ROOT, "simulated, 50 workers: %.0f events/s, %.0f statements/s; raw fenced write "
                            + "(1 client) %.0f/s; events ÷ raw = %.2f (aim ≥ 0.80); statements ÷ raw = %.2f%n",
                    simSink.seq.get() / simSeconds, simStatements, raw, simSink.seq.get() / simSeconds / raw,
                    simStatements / raw);

            if (liveWorkers > 0) {
                live(out, db);
            }
            if (processAgents > 0) {
                out.flush();
                ProcessStartBench.print(out, db, processAgents, Duration.ofSeconds(processSeconds));
            }
            return ExitCodes.OK;
        }
    }

    /** The live run of {@code --live-workers} workers: its write rate and the bus's event latency. */
    private void live(PrintWriter out, Database db) throws InterruptedException {
        RunSpec live = Workloads.storm(liveWorkers, 50, FencingMode.FENCED, 1, Duration.ofSeconds(liveSeconds))
                .withExecutor(ExecutorKind.LIVE);
        // Event latency: from the moment a producer publishes to the moment the bus delivers it.
        ConcurrentHashMap<Long, Long> publishedAt = new ConcurrentHashMap<>();
        LongAdder delivered = new LongAdder();
        long[] latencies = new long[4_000_000];
        AtomicLong latencyCount = new AtomicLong();
        CountingSink liveCounts = new CountingSink();
        try (EventBus bus = EventBus.async()) {
            bus.subscribe("latency", batch -> {
                long now = System.nanoTime();
                for (Event e : batch) {
                    Long at = publishedAt.remove(e.seq());
                    long i = latencyCount.getAndIncrement();
                    if (at != null && i < latencies.length) {
                        latencies[(int) i] = now - at;
                    }
                    liveCounts.count(e);
                }
                delivered.add(batch.size());
            });
            bus.start();
            EventSink stamped = factory -> bus.publish(seq -> {
                publishedAt.put(seq, System.nanoTime());
                return factory.apply(seq);
            });
            try (LiveExecutor run = new LiveExecutor(db, live, stamped, 48)) {
                String end = run.runToEnd().words();
                bus.flush();
                int n = (int) Math.min(latencyCount.get(), latencies.length);
                long[] sorted = java.util.Arrays.copyOf(latencies, n);
                java.util.Arrays.sort(sorted);
                out.printf(Locale.ROOT, "live, %d workers, %d s (%s): %.0f statements/s, %.0f accepted writes/s, "
                                + "%d events; event latency (publish to delivery) p50 %.2f ms, p99 %.2f ms, max %.2f ms%n",
                        liveWorkers, liveSeconds, end, liveCounts.statements.sum() / (double) liveSeconds,
                        liveCounts.accepted.sum() / (double) liveSeconds, delivered.sum(),
                        percentile(sorted, 0.50) / 1e6, percentile(sorted, 0.99) / 1e6,
                        n == 0 ? 0 : sorted[n - 1] / 1e6);
            }
        }
    }
}
