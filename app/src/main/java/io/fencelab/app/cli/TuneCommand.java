package io.fencelab.app.cli;

import io.fencelab.app.service.SweepSetup;
import io.fencelab.engine.db.Database;
import io.fencelab.engine.db.DatabaseConfig;
import io.fencelab.engine.files.FileProblem;
import io.fencelab.engine.run.Backend;
import io.fencelab.engine.tune.Axis;
import io.fencelab.engine.tune.BackendCheck;
import io.fencelab.engine.tune.Point;
import io.fencelab.engine.tune.PointSummary;
import io.fencelab.engine.tune.Recommendation;
import io.fencelab.engine.tune.Requirement;
import io.fencelab.engine.tune.ResultRow;
import io.fencelab.engine.tune.RunDone;
import io.fencelab.engine.tune.SweepListener;
import io.fencelab.engine.tune.SweepPlan;
import io.fencelab.engine.tune.SweepResults;
import io.fencelab.engine.tune.SweepRunner;
import io.fencelab.report.SweepDirectory;
import io.fencelab.scenarios.Catalog;
import io.fencelab.scenarios.ScenarioSource;
import io.fencelab.scenarios.ScenarioVariation;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/**
 * {@code fencelab tune}: sweeps numeric scenario parameters over a grid, runs every point with N
 * seeds in parallel on PostgreSQL, and writes sweep.csv, sweep.json, sweep.html and each point's
 * worst-seed report into {@code --out}. Run again with the same arguments, it resumes.
 */
@Command(name = "tune", mixinStandardHelpOptions = true,
        description = "Sweep lease settings (or any numeric scenario parameter) over a grid and show the trade-off.",
        footer = {"", "Examples:",
            "  fencelab tune paused-holder --vary lease.ttl=10s..40s:4 --seeds 2 --out sweep/",
            "  fencelab tune gc-storm --vary lease.ttl=500ms..4s:6log --vary lease.renewEvery=100ms..1s:4 \\",
            "      --seeds 5 --require leaseLossesPerHour<=60 --require unavailability<=0.05 --out sweep/",
            "",
            "Run it again with the same arguments to resume an interrupted sweep. docs/TUNING.md explains",
            "every option, the files written and how to read the pictures.",
            "", "Exit codes: 0 done, 2 bad input or usage, 3 the runs could not complete (for example the database "
                + "went away), 130 stopped (resume by running the same command)."})
public final class TuneCommand implements Callable<Integer> {

    static final int STOPPED = 130;

    @Parameters(paramLabel = "SCENARIO", description = "A catalog name (see 'fencelab list') or a scenario file.")
    String scenario;

    @Option(names = "--vary", paramLabel = "PATH=FROM..TO[:STEPS][log]", required = true,
            description = {"A parameter to vary, by its path in the scenario (lease.ttl, lease.renewEvery, "
                    + "faults[0].duration, workers[1].count); FROM..TO in STEPS steps (default "
                    + ScenarioVariation.DEFAULT_STEPS + "), evenly or with 'log' by a constant factor; or a list "
                    + "V1,V2,…. Repeat for a grid."})
    List<String> vary = new ArrayList<>();

    @Option(names = "--seeds", paramLabel = "N", defaultValue = "3",
            description = "Seeds per point, from the scenario's own seed on (default: ${DEFAULT-VALUE}).")
    int seeds;

    @Option(names = "--jobs", paramLabel = "N",
            description = "Runs at once (default: the number of cores).")
    Integer jobs;

    @Option(names = "--require", paramLabel = "METRIC<=VALUE",
            description = "A constraint every seed of a setting must meet (>= works too), for the feasible region "
                    + "and the recommended setting; repeatable. Metrics: failoverP99Seconds, unavailability, "
                    + "leaseLossesPerHour, … (docs/TUNING.md).")
    List<String> require = new ArrayList<>();

    @Option(names = "--backend", paramLabel = "memory|postgres", converter = BackendName.class,
            description = {"Where runs keep their leases and resources: 'memory', the in-memory model of PostgreSQL "
                    + "(proven byte-identical; simulated scenarios only; the default for them, and the sweep then "
                    + "runs its recommended setting again on PostgreSQL and compares the logs), or 'postgres'."})
    Backend backend;

    @Option(names = "--out", paramLabel = "DIR", required = true,
            description = "Where sweep.csv, sweep.json, sweep.html and points/ go.")
    Path out;

    @Mixin
    DatabaseOptions database = new DatabaseOptions();

    @Spec
    CommandSpec spec;

    @Override
    public Integer call() throws Exception {
        PrintWriter stdout = spec.commandLine().getOut();
        PrintWriter err = spec.commandLine().getErr();
        FileProblem.requireDirectoryOrAbsent("--out", out);
        ScenarioSource source = Catalog.shipped().source(scenario);
        SweepSetup setup = SweepSetup.of(source, vary, seeds, require);
        int parallel = jobs != null ? jobs : Runtime.getRuntime().availableProcessors();
        if (parallel < 1) {
            throw new IllegalArgumentException("--jobs must be at least 1, was " + parallel);
        }
        SweepPlan plan = setup.plan();

        stdout.printf(Locale.ROOT, "sweeping %s: %d points x %d seeds = %d runs, %d at a time%n", plan.describe(),
                plan.pointCount(), plan.seeds().size(), plan.runCount(), parallel);
        stdout.flush();
        try (SweepDirectory dir = setup.open(out);
             Database db = Database.open(database.resolve(), parallel * 2 + 4)) {
            Backend used = setup.backend(backend);
            stdout.printf("backend: %s%n", used == Backend.MEMORY
                    ? "in-memory model of PostgreSQL (--backend postgres to run every statement on the database)"
                    : "PostgreSQL");
            stdout.flush();
            SweepRunner runner = setup.runner(db, dir, parallel, used);
            Progress progress = new Progress(err, plan.axes());
            // Ctrl-C stops the runs; the hook then waits until the command has said what it kept, since
            // the JVM halts as soon as its hooks are done.
            CountDownLatch said = new CountDownLatch(1);
            Thread hook = new Thread(() -> {
                runner.stop();
                try {
                    said.await(30, TimeUnit.SECONDS);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            }, "tune-stop");
            Runtime.getRuntime().addShutdownHook(hook);
            try {
                boolean completed = runner.run(SweepListener.all(dir, progress));
                progress.end();
                BackendCheck check = setup.finish(db, dir, used, completed).orElse(null);
                summary(stdout, dir.snapshot(), dir);
                if (check != null) {
                    stdout.printf("checked on PostgreSQL: %s, seed %d: %s%n", check.point().label(plan.axes()),
                            check.seed(), check.identical() ? "the event log is identical to the in-memory run's ("
                                    + check.bytes() + " bytes)" : "DIFFERS from the in-memory run at byte "
                                    + check.mismatch() + "; run the sweep with --backend postgres");
                }
                if (!completed) {
                    stdout.println(stoppedLine(progress.done, progress.total, out,
                            spec.commandLine().getParseResult().originalArgs()));
                    stdout.flush();
                    return STOPPED;
                }
                return ExitCodes.OK;
            } finally {
                said.countDown();
                try {
                    Runtime.getRuntime().removeShutdownHook(hook);
                } catch (IllegalStateException shuttingDown) {
                    // the hook is running: it stopped the sweep, which has now ended
                }
            }
        }
    }

    /**
     * The line a stopped sweep ends with: how many runs the folder keeps and the command that goes on
     * from them (the same arguments, a password in a JDBC URL masked).
     *
     * @param args the command line as given, from {@code tune} on (anything before it is left out)
     */
    static String stoppedLine(int kept, int total, Path out, List<String> args) {
        int tune = args.indexOf("tune");
        List<String> command = new ArrayList<>(List.of("fencelab"));
        for (String a : args.subList(Math.max(0, tune), args.size())) {
            command.add(shellWord(DatabaseConfig.redactAll(a)));
        }
        if (tune < 0) {
            command.add(1, "tune");
        }
        return String.format(Locale.ROOT, "stopped: %d of %d runs kept in %s; resume with: %s", kept, total, out,
                String.join(" ", command));
    }

    /** {@code word} as a POSIX shell reads it back: as is when plain, else in single quotes. */
    private static String shellWord(String word) {
        return word.matches("[A-Za-z0-9_./=:,@%+-]+") ? word : "'" + word.replace("'", "'\\''") + "'";
    }

    private static void summary(PrintWriter out, SweepResults r, SweepDirectory dir) {
        List<Axis> axes = r.plan().axes();
        r.skipped().forEach((index, reason) -> out.printf("skipped %s: %s%n",
                r.points().get(index).label(axes), reason));
        if (!r.requirements().isEmpty()) {
            Optional<Recommendation.Assessment> best = r.recommended();
            if (best.isPresent()) {
                out.printf(Locale.ROOT, "recommended: %s (margin %d %% to every constraint)%n",
                        best.get().point().point().label(axes), Math.round(best.get().margin() * 100));
                // never silently: a bound its seeds went past is said with the recommendation
                best.get().pastBounds().forEach((seed, past) -> past.forEach(b -> out.printf(
                        "  seed %d went past the bound on the %s: %s%n", seed, b.bound().words(), b.why())));
            } else {
                out.printf("no setting meets %s on every seed%n", String.join(" and ",
                        r.requirements().stream().map(Requirement::toString).toList()));
            }
        }
        long suspect = r.done().values().stream().filter(io.fencelab.engine.tune.PointSummary::pastBoundUnexplained)
                .count();
        if (suspect > 0) {
            out.printf("%d setting(s) went past a bound for no reason the bound leaves out (a bug: please report it) "
                    + "and are not recommended; the report says which%n", suspect);
        }
        out.printf("results: %s%nreport: %s%n", dir.dir().resolve(SweepDirectory.CSV), dir.html());
        out.flush();
    }

    /** The progress bar on stderr: runs done of all, runs per second, time left. */
    static final class Progress implements SweepListener {
        private static final int WIDTH = 30;
        private final PrintWriter err;
        private final List<Axis> axes;
        private long startNanos;
        /** Runs in the sweep (the settings that can run, times the seeds). */
        int total;
        /** Runs done, with those an earlier, stopped sweep kept. */
        int done;
        private int doneHere;
        private int points;
        private int pointsDone;
        private long lastDraw;

        Progress(PrintWriter err, List<Axis> axes) {
            this.err = err;
            this.axes = axes;
        }

        @Override
        public void started(SweepPlan plan, int runs, int alreadyDone) {
            startNanos = System.nanoTime();
            total = runs;
            done = alreadyDone;
            points = plan.pointCount();
            if (alreadyDone > 0) {
                err.printf("resuming: %d of %d runs already done%n", alreadyDone, runs);
            }
        }

        @Override
        public void pointSkipped(Point point, String reason) {
            pointsDone++;
            err.printf("skipping %s: %s%n", point.label(axes), reason);
        }

        @Override
        public void runFinished(ResultRow row) {
            done++;
            doneHere++;
            draw(false);
        }

        @Override
        public void pointFinished(PointSummary summary, RunDone worst) {
            pointsDone++;
            draw(false);
        }

        void end() {
            draw(true);
            err.println();
            err.flush();
        }

        private void draw(boolean force) {
            long now = System.nanoTime();
            if (!force && now - lastDraw < 200_000_000L && done < total) {
                return;
            }
            lastDraw = now;
            double seconds = Math.max(1e-9, (now - startNanos) / 1e9);
            double rate = doneHere / seconds;
            int filled = total == 0 ? WIDTH : (int) Math.round((double) done / total * WIDTH);
            String left = rate > 0 ? duration((total - done) / rate) : "?";
            err.printf(Locale.ROOT, "\r[%s%s] %d/%d runs, %d/%d points, %.1f runs/s, %s left   ",
                    "#".repeat(filled), ".".repeat(WIDTH - filled), done, total, pointsDone, points, rate, left);
            err.flush();
        }

        private static String duration(double s) {
            long t = Math.round(s);
            return t >= 3600 ? (t / 3600) + "h" + (t % 3600 / 60) + "m" : t >= 60 ? (t / 60) + "m" + (t % 60) + "s"
                    : t + "s";
        }
    }

    /** {@code memory} or {@code postgres}, case-insensitive, for {@code --backend}. */
    static final class BackendName implements CommandLine.ITypeConverter<Backend> {
        @Override
        public Backend convert(String value) {
            return switch (value.strip().toLowerCase(Locale.ROOT)) {
                case "memory" -> Backend.MEMORY;
                case "postgres", "postgresql" -> Backend.POSTGRES;
                default -> throw new CommandLine.TypeConversionException(
                        "--backend must be memory or postgres, was '" + value + "'");
            };
        }
    }
}
