package io.fencelab.app.cli;

import io.fencelab.app.service.ProbeRuns;
import io.fencelab.engine.db.Database;
import io.fencelab.engine.files.FileProblem;
import io.fencelab.engine.probe.ChecklistItem;
import io.fencelab.engine.probe.ItemVerdict;
import io.fencelab.engine.probe.Probe;
import io.fencelab.engine.probe.ProbeOptions;
import io.fencelab.engine.probe.ProbeReport;
import io.fencelab.report.ProbeHtml;
import io.fencelab.scenarios.Scenario;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Locale;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/**
 * {@code fencelab probe FILE}: the design note's checklist against each of the file's own SQL fences,
 * one verdict per item as it is found, then {@code probe.json} and {@code probe.html}.
 */
@Command(name = "probe", mixinStandardHelpOptions = true,
        description = "Try the fencing checklist against your own SQL fences (a scenario's targets: section), "
                + "each item in a scratch schema of its own, and print a verdict per item with a witness for "
                + "every failure.",
        footer = {"", "Exit codes: 0 every item holds (or does not apply), 1 an item fails, 2 bad input or usage "
                + "(a located error in your SQL), 3 the probe could not complete (for example the database went away)."})
public final class ProbeCommand implements Callable<Integer> {

    @Parameters(paramLabel = "FILE", description = "A scenario file with a targets: section (or a catalog name).")
    String file;

    @Option(names = "--out", paramLabel = "DIR",
            description = "Where probe.json, probe.html and a failing race's events go (default: probe-<file stem>).")
    Path out;

    @Option(names = "--seed", defaultValue = "1", description = "The first seed of the simulated races (default ${DEFAULT-VALUE}).")
    long seed;

    @Option(names = "--schedules", paramLabel = "N", defaultValue = "" + ProbeOptions.DEFAULT_SCHEDULES,
            description = "Simulated race runs, one seed each (default ${DEFAULT-VALUE}; 0: none).")
    int schedules;

    @Option(names = "--live", paramLabel = "SECONDS", defaultValue = "" + ProbeOptions.DEFAULT_LIVE_SECONDS,
            description = "Length of the live race run in seconds (default ${DEFAULT-VALUE}; 0: none).")
    double liveSeconds;

    @Option(names = "--keep", description = "Keep each item's scratch schema after the probe, to look at what it left.")
    boolean keep;

    @Mixin
    DatabaseOptions database = new DatabaseOptions();

    @Spec
    CommandSpec spec;

    @Override
    public Integer call() throws Exception {
        PrintWriter out = spec.commandLine().getOut();
        Scenario sc = ProbeRuns.load(file);
        ProbeOptions options = options();
        FileProblem.requireDirectoryOrAbsent("--out", options.outDir());
        // A located SqlFenceException (bad SQL in the file) leaves through FencelabCommand's handler: exit 2.
        try (Database db = ProbeRuns.open(database.resolve())) {
            Probe probe = ProbeRuns.probe(db, sc, options);
            out.printf("probing %s on %s: %s%n", file, probe.databaseName(),
                    String.join(", ", sc.spec().userFences().fences().stream().map(f -> f.name()).toList()));
            out.printf("  your statements run only in scratch schemas %s* (one per item, %s); nothing else of "
                    + "yours is written%n", probe.scratchSchemas(), keep ? "kept after" : "dropped after");
            out.flush();
            ProbeReport report = ProbeRuns.run(probe, options, v -> print(out, v));
            printSummary(out, report, options.outDir());
            return report.allHold() ? ExitCodes.OK : ExitCodes.UNEXPECTED_VERDICT;
        }
    }

    private ProbeOptions options() {
        if (schedules < 0) {
            throw new IllegalArgumentException("--schedules must be 0 or more, was " + schedules);
        }
        if (!(liveSeconds >= 0) || Double.isInfinite(liveSeconds)) {
            throw new IllegalArgumentException("--live must be a number of seconds, 0 or more, was " + liveSeconds);
        }
        Path dir = out != null ? out : ProbeRuns.defaultOut(file);
        return new ProbeOptions(dir, seed, schedules, Duration.ofMillis(Math.round(liveSeconds * 1000)), keep);
    }

    private static void print(PrintWriter out, ItemVerdict v) {
        out.printf("  %-14s  %-10s %-42s %s%n", ProbeHtml.word(v.status()), v.fence(), v.item().title(), v.summary());
        if (v.status() == ItemVerdict.Status.FAILS && !v.witness().isEmpty()) {
            out.printf("         at %s%n", line(v.witness().getLast()));
        }
        out.flush();
    }

    /** A witness step in one line: the step that shows a failure, under its item. */
    static String line(ItemVerdict.WitnessStep step) {
        StringBuilder b = new StringBuilder(step.action());
        if (step.statement() != null) {
            b.append(" [").append(step.statement()).append(']');
        }
        if (step.said() != null) {
            b.append(": said ").append(step.said());
        }
        if (step.heldToken() != null || step.heldBody() != null) {
            b.append("; row holds token ").append(step.heldToken()).append(", body '").append(step.heldBody()).append('\'');
        } else if (step.said() != null && step.eventsFile() == null) {
            b.append("; no row");
        }
        if (step.eventsFile() != null) {
            b.append(" (events: ").append(step.eventsFile()).append(')');
        }
        return b.toString();
    }

    private static void printSummary(PrintWriter out, ProbeReport report, Path dir) {
        long fails = count(report, ItemVerdict.Status.FAILS);
        long holds = count(report, ItemVerdict.Status.HOLDS);
        long na = count(report, ItemVerdict.Status.NOT_APPLICABLE);
        out.printf(Locale.ROOT, "%s: %d of %d items hold, %d fail, %d do not apply (%d fences x %d items)%n",
                report.allHold() ? "every item holds" : "HOLES FOUND", holds, report.verdicts().size(), fails, na,
                report.fences().size(), ChecklistItem.values().length);
        out.printf("probe: %s, %s%n", dir.resolve(ProbeRuns.JSON), dir.resolve(ProbeRuns.HTML));
    }

    private static long count(ProbeReport report, ItemVerdict.Status status) {
        return report.verdicts().stream().filter(v -> v.status() == status).count();
    }
}
