package io.fencelab.bench;

import io.fencelab.app.cli.DatabaseOptions;
import io.fencelab.app.cli.ExitCodes;
import io.fencelab.engine.chaos.Distribution;
import io.fencelab.engine.chaos.FaultKind;
import io.fencelab.engine.chaos.FaultSpec;
import io.fencelab.engine.chaos.FaultStart;
import io.fencelab.engine.db.Database;
import io.fencelab.engine.fence.FencingMode;
import io.fencelab.engine.fence.FirstWritePolicy;
import io.fencelab.engine.fence.TokenScheme;
import io.fencelab.engine.resource.TargetKind;
import io.fencelab.engine.run.Backend;
import io.fencelab.engine.run.ExecutorKind;
import io.fencelab.engine.run.Run;
import io.fencelab.engine.run.RunResult;
import io.fencelab.engine.run.RunSpec;
import io.fencelab.engine.worker.StalePolicy;
import io.fencelab.engine.worker.TargetWrite;
import io.fencelab.engine.worker.WorkerSpec;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.LongAdder;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * Sweep benchmark (issue 10, section 6): the runs of a 10 × 10 grid × 10 seeds of a 10-worker,
 * 10-minute gc-storm-like scenario with crashes. It measures its own baseline, single runs back to
 * back on one thread on the in-memory backend; then the sweep's runs in parallel on every core, and
 * the ratio of the two (target: parallel runs/s ≥ 0.8 × baseline × cores); the time 1,000 runs take
 * (target: under 2 minutes); and a few runs on PostgreSQL for comparison. Every run is a full
 * {@link Run}: event log written, checker and metrics fed.
 */
@Command(name = "bench-tune", mixinStandardHelpOptions = true,
        description = "Measure a tuning sweep's runs (10 workers, gc-storm pauses and crashes) on the in-memory "
                + "backend, one thread against all cores, and against PostgreSQL.")
public final class TuneBenchCommand implements Callable<Integer> {

    /** Lease ttls of the grid's first axis: 0.5 s to 5 s, ten steps, evenly on a log scale. */
    static final int AXIS = 10;

    @Mixin
    DatabaseOptions database = new DatabaseOptions();

    @Option(names = "--run-seconds", defaultValue = "600", description = "Simulated length of each run (default: ${DEFAULT-VALUE}).")
    int runSeconds;

    @Option(names = "--runs", defaultValue = "1000", description = "Runs of the sweep measured in parallel, "
            + "taken from the 10 × 10 × 10 plan in order (default: ${DEFAULT-VALUE}).")
    int runs;

    @Option(names = "--baseline-runs", defaultValue = "10", description = "Runs back to back on one thread "
            + "for the baseline (default: ${DEFAULT-VALUE}).")
    int baselineRuns;

    @Option(names = "--threads", description = "Threads of the sweep (default: the machine's cores).")
    Integer threads;

    @Option(names = "--postgres-runs", defaultValue = "2", description = "Runs on PostgreSQL for comparison "
            + "(default: ${DEFAULT-VALUE}).")
    int postgresRuns;

    @Spec
    CommandSpec spec;

    /**
     * The sweep's plan: lease ttl (0.5–5 s, log steps) × renew interval (10 %–55 % of the ttl) × seeds
     * 1–10, in the order a sweep runs them (point by point, every seed of a point together).
     */
    static List<RunSpec> plan(Duration length) {
        List<RunSpec> plan = new ArrayList<>();
        for (int t = 0; t < AXIS; t++) {
            long ttlMillis = Math.round(500 * Math.pow(10, t / (double) (AXIS - 1)));
            for (int r = 0; r < AXIS; r++) {
                Duration ttl = Duration.ofMillis(ttlMillis);
                Duration renew = Duration.ofMillis(ttlMillis * (10 + 5 * r) / 100);
                for (long seed = 1; seed <= AXIS; seed++) {
                    plan.add(workload(ttl, renew, seed, length));
                }
            }
        }
        return plan;
    }

    /**
     * The gc-storm scenario at a tenth of its workers, for ten minutes, with crashes: ten workers on
     * one scope writing row, object and pointer; Pareto pauses (scale 200 ms, shape 1.2, cap 5 s)
     * every ~2 s on each; and each worker crashing every ~60 s, restarting as a new holder 1–5 s later.
     */
    static RunSpec workload(Duration ttl, Duration renewEvery, long seed, Duration length) {
        List<TargetWrite> boundary = List.of(new TargetWrite(TargetKind.ROW, "record"),
                new TargetWrite(TargetKind.OBJECT, "blob"), new TargetWrite(TargetKind.POINTER, "current"));
        List<WorkerSpec> workers = new ArrayList<>();
        for (int i = 0; i < 10; i++) {
            workers.add(new WorkerSpec("w-" + (i + 1), "scope-a", Duration.ofMillis(37L * i), Duration.ofMillis(300),
                    boundary, 0, Duration.ofMillis(200), StalePolicy.ABANDON, false));
        }
        FaultSpec pauses = new FaultSpec(FaultKind.PAUSE, FaultSpec.ALL,
                new FaultStart.Every(new Distribution.Exponential(Duration.ofSeconds(2))),
                new Distribution.Pareto(Duration.ofMillis(200), 1.2, Duration.ofSeconds(5)), Duration.ZERO);
        FaultSpec crashes = new FaultSpec(FaultKind.CRASH, FaultSpec.ALL,
                new FaultStart.Every(new Distribution.Exponential(Duration.ofSeconds(60))),
                new Distribution.Uniform(Duration.ofSeconds(1), Duration.ofSeconds(5)), Duration.ZERO,
                FaultSpec.Identity.NEW);
        return new RunSpec("bench-tune", workers, Map.of(), ttl, renewEvery, FencingMode.FENCED,
                TokenScheme.MONOTONIC, FirstWritePolicy.CREATE, List.of(pauses, crashes), seed, length,
                ExecutorKind.SIMULATED, 1.0);
    }

    /** What a batch of runs did: how many, how long, how many events. */
    private record Timed(int runs, double seconds, long events) {
        double perSecond() {
            return runs / seconds;
        }
    }

    @Override
    public Integer call() throws Exception {
        PrintWriter out = spec.commandLine().getOut();
        int cores = threads != null ? threads : Runtime.getRuntime().availableProcessors();
        List<RunSpec> plan = plan(Duration.ofSeconds(runSeconds));
        Path logs = Files.createTempDirectory("fencelab-bench-tune");
        try (BenchDatabase bench = BenchDatabase.open(database)) {
            Database db = bench.db();
            out.printf(Locale.ROOT, "Fencelab sweep bench: %d-run plan (10 ttl × 10 renew × 10 seeds) of a 10-worker, "
                    + "%d s gc-storm with crashes; %d threads; PostgreSQL %s%n", plan.size(), runSeconds, cores,
                    db.serverVersion());
            out.flush();
            // Warm the JIT on full runs outside the measured ones (seeds the plan does not use).
            List<RunSpec> warmUp = new ArrayList<>();
            for (long seed = 101; seed <= 103; seed++) {
                warmUp.add(workload(Duration.ofSeconds(1), Duration.ofMillis(300), seed, Duration.ofSeconds(runSeconds)));
            }
            sequential(db, warmUp, Backend.MEMORY, logs);

            List<RunSpec> baselinePlan = plan.subList(0, Math.min(baselineRuns, plan.size()));
            Timed before = sequential(db, baselinePlan, Backend.MEMORY, logs);
            out.printf(Locale.ROOT, "(a) baseline, memory, one thread, back to back: %d runs in %.1f s = %.2f runs/s "
                    + "(%.0f events a run)%n", before.runs(), before.seconds(), before.perSecond(),
                    before.events() / (double) before.runs());
            out.flush();

            Timed sweep = parallel(db, plan.subList(0, Math.min(runs, plan.size())), cores, logs);
            // The baseline again, after the sweep: the machine may have been busier or quieter; the
            // faster of the two is the demanding one to compare with.
            Timed after = sequential(db, baselinePlan, Backend.MEMORY, logs);
            Timed single = after.perSecond() > before.perSecond() ? after : before;
            out.printf(Locale.ROOT, "(a') baseline again after the sweep: %.2f runs/s; using %.2f runs/s%n",
                    after.perSecond(), single.perSecond());
            double ratio = sweep.perSecond() / (single.perSecond() * cores);
            double thousand = 1_000 / sweep.perSecond();
            out.printf(Locale.ROOT, "(b) sweep, memory, %d threads: %d runs in %.1f s = %.2f runs/s; "
                            + "÷ (baseline × %d) = %.2f (target ≥ 0.80: %s); 1,000 runs %s %.0f s (target < 120 s: %s)%n",
                    cores, sweep.runs(), sweep.seconds(), sweep.perSecond(), cores, ratio, ratio >= 0.8 ? "met" : "MISSED",
                    sweep.runs() >= 1_000 ? "took" : "would take", thousand, thousand < 120 ? "met" : "MISSED");
            out.flush();

            if (postgresRuns > 0) {
                Timed postgres = sequential(db, plan.subList(0, Math.min(postgresRuns, plan.size())), Backend.POSTGRES,
                        logs);
                out.printf(Locale.ROOT, "(c) PostgreSQL, one thread: %d runs in %.1f s = %.3f runs/s; memory is %.0f× "
                                + "faster per run; 1,000 runs on PostgreSQL on one thread would take %.0f min%n",
                        postgres.runs(), postgres.seconds(), postgres.perSecond(),
                        single.perSecond() / postgres.perSecond(), 1_000 / postgres.perSecond() / 60);
            }
            return ExitCodes.OK;
        } finally {
            try (var paths = Files.walk(logs)) {
                paths.sorted(java.util.Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
            }
        }
    }

    private static Timed sequential(Database db, List<RunSpec> specs, Backend backend, Path logs) throws Exception {
        long events = 0;
        long t0 = System.nanoTime();
        for (RunSpec s : specs) {
            events += runOne(db, s, backend, logs);
        }
        return new Timed(specs.size(), (System.nanoTime() - t0) / 1e9, events);
    }

    private static Timed parallel(Database db, List<RunSpec> specs, int threads, Path logs) throws Exception {
        LongAdder events = new LongAdder();
        long t0 = System.nanoTime();
        ExecutorService pool = Executors.newFixedThreadPool(threads);
        try {
            List<Future<?>> done = new ArrayList<>();
            for (RunSpec s : specs) {
                done.add(pool.submit(() -> {
                    events.add(runOne(db, s, Backend.MEMORY, logs));
                    return null;
                }));
            }
            for (Future<?> f : done) {
                f.get();
            }
        } finally {
            pool.shutdown();
        }
        return new Timed(specs.size(), (System.nanoTime() - t0) / 1e9, events.sum());
    }

    /** One full run (event log on disk, checker, metrics); returns its event count. */
    private static long runOne(Database db, RunSpec s, Backend backend, Path logs) throws IOException, InterruptedException {
        Path log = Files.createTempFile(logs, "run", ".jsonl");
        try (Run run = Run.prepare(db, s, log, backend)) {
            RunResult result = run.runToEnd();
            return result.events();
        } finally {
            Files.deleteIfExists(log);
        }
    }
}
