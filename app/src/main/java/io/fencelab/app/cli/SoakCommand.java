package io.fencelab.app.cli;

import io.fencelab.engine.db.Database;
import io.fencelab.engine.files.FileProblem;
import io.fencelab.engine.soak.Soak;
import io.fencelab.engine.soak.SoakTally;
import io.fencelab.scenarios.SoakFiles;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * {@code fencelab soak}: random schedules on PostgreSQL, each checker verdict held against the
 * database's own record of what it applied (docs/RELIABILITY.md). Every disagreement is saved as a
 * scenario file that {@code fencelab run FILE} replays.
 */
@Command(name = "soak", mixinStandardHelpOptions = true,
        description = "Run random schedules and compare the checker's verdicts with the database's own record "
                + "(the fence audit); save every disagreement as a replayable scenario file.",
        footer = {"", "Exit codes: 0 no disagreement, 1 at least one disagreement (each saved in --out), "
                + "2 bad input or usage, 3 no disagreement but a schedule could not be run to its end "
                + "(also saved), or no database."})
public final class SoakCommand implements Callable<Integer> {

    @Option(names = "--schedules", paramLabel = "N", defaultValue = "100",
            description = "Simulated schedules to run (default: ${DEFAULT-VALUE}).")
    int schedules;

    @Option(names = "--live", paramLabel = "M", defaultValue = "0",
            description = "Live schedules to run after them, in real time scaled by --time-scale (default: ${DEFAULT-VALUE}).")
    int live;

    @Option(names = "--seed", paramLabel = "S", defaultValue = "1",
            description = "The soak's seed: the same seed runs the same schedules (default: ${DEFAULT-VALUE}).")
    long seed;

    @Option(names = "--parallel", paramLabel = "P",
            description = "Schedules run at once (default: the processors, at most 4).")
    Integer parallel;

    @Option(names = "--time-scale", paramLabel = "X", defaultValue = "0.05",
            description = "Live runs: real seconds per run second (default: ${DEFAULT-VALUE}, a 20 s schedule in 1 s).")
    double timeScale;

    @Option(names = "--out", paramLabel = "DIR", defaultValue = "soak-disagreements",
            description = "Where disagreements are saved as scenario files (default: ${DEFAULT-VALUE}).")
    Path out;

    @Mixin
    DatabaseOptions database = new DatabaseOptions();

    @Spec
    CommandSpec spec;

    @Override
    public Integer call() throws Exception {
        PrintWriter out = spec.commandLine().getOut();
        PrintWriter err = spec.commandLine().getErr();
        if (schedules < 0 || live < 0 || schedules + live == 0) {
            throw new IllegalArgumentException("--schedules and --live: give at least one schedule, none negative "
                    + "(got --schedules " + schedules + ", --live " + live + ")");
        }
        if (parallel != null && (parallel < 1 || parallel > 16)) {
            throw new IllegalArgumentException("--parallel " + parallel + ": allowed 1 to 16");
        }
        FileProblem.requireDirectoryOrAbsent("--out", this.out);
        int threads = parallel != null ? parallel : Math.min(4, Runtime.getRuntime().availableProcessors());
        Path work = Files.createTempDirectory("fencelab-soak");
        Soak.Options options = new Soak.Options(schedules, live, seed, threads, timeScale, work);
        int total = schedules + live;
        int every = Math.max(1, total / 20);
        long start = System.nanoTime();
        SoakTally tally;
        try (Database db = Database.open(database.resolve(), Soak.poolSize(threads))) {
            out.printf(Locale.ROOT, "soak: %d simulated + %d live schedules (seed %d), %d at a time, on %s%n",
                    schedules, live, seed, threads, db.describe());
            out.flush();
            int[] done = {0};
            tally = Soak.on(db, options).run(outcome -> {
                done[0]++;
                if (outcome.disagrees() || outcome.failed()) {
                    try {
                        Path file = SoakFiles.save(this.out, seed, outcome);
                        err.printf("%s %d: %s%n  saved: %s%n", outcome.failed() ? "could not run schedule"
                                        : "disagreement in schedule", outcome.index(),
                                outcome.failed() ? outcome.error() : outcome.comparison().problems().getFirst(), file);
                    } catch (IOException e) {
                        throw new UncheckedIOException("cannot save a disagreement: " + FileProblem.of(this.out, e), e);
                    }
                }
                if (done[0] % every == 0 || done[0] == total) {
                    err.printf(Locale.ROOT, "%d/%d schedules, %.1f s%n", done[0], total, seconds(start));
                }
                err.flush();
            });
        } finally {
            Files.deleteIfExists(work);
        }
        print(out, tally, seconds(start));
        if (tally.disagreeingRuns() > 0) {
            return ExitCodes.UNEXPECTED_VERDICT;
        }
        return tally.errors() > 0 ? ExitCodes.RUN_INCOMPLETE : ExitCodes.OK;
    }

    private static double seconds(long startNanos) {
        return (System.nanoTime() - startNanos) / 1e9;
    }

    private void print(PrintWriter out, SoakTally t, double seconds) {
        out.printf(Locale.ROOT, "runs %d: SAFE %d, VIOLATED %d, could not be run %d%n", t.runs(), t.safe(),
                t.violated(), t.errors());
        out.printf(Locale.ROOT, "false SAFE %d, false VIOLATED %d, write classes disagreeing %d, "
                        + "witnesses not confirmed by the audit %d%n",
                t.falseSafe(), t.falseViolated(), t.classMismatches(), t.witnessesNotConfirmed());
        out.printf(Locale.ROOT, "applied writes compared %d; applied but not logged %d; logged but not applied %d%n",
                t.writesCompared(), t.appliedNotLogged(), t.loggedNotApplied());
        out.printf(Locale.ROOT, "witnesses confirmed by the audit %d; outside what it records %d "
                        + "(grant order, values); runs with tokens it cannot place in grant order %d%n",
                t.witnessesConfirmed(), t.witnessesOutside(), t.runsWithUnorderedResources());
        boolean saved = t.disagreeingRuns() + t.errors() > 0;
        out.printf(Locale.ROOT, "disagreements: %d run(s)%s; %.1f s%n", t.disagreeingRuns(),
                saved ? "; these and the runs that could not be run are saved in " + this.out : "", seconds);
        out.flush();
    }
}
