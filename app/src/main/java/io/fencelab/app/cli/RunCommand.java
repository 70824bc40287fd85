package io.fencelab.app.cli;

import io.fencelab.engine.check.Verdict;
import io.fencelab.engine.check.Witness;
import io.fencelab.engine.db.Database;
import io.fencelab.engine.db.RestartCommand;
import io.fencelab.engine.event.Event;
import io.fencelab.engine.event.EventLogReader;
import io.fencelab.engine.files.FileProblem;
import io.fencelab.engine.fence.FencingMode;
import io.fencelab.engine.fence.TokenScheme;
import io.fencelab.engine.metrics.EventCounts;
import io.fencelab.engine.metrics.TuningMetrics;
import io.fencelab.engine.run.ExecutorKind;
import io.fencelab.engine.run.Run;
import io.fencelab.engine.run.RunResult;
import io.fencelab.engine.run.RunSpec;
import io.fencelab.report.ReportBundle;
import io.fencelab.report.ReportInput;
import io.fencelab.report.StagedDirectory;
import io.fencelab.report.TuningText;
import io.fencelab.report.VerdictText;
import io.fencelab.scenarios.Catalog;
import io.fencelab.scenarios.Expectation;
import io.fencelab.scenarios.Scenario;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/** {@code fencelab run}: runs a catalog scenario or a scenario file headless, judges it, and reports. */
@Command(name = "run", mixinStandardHelpOptions = true,
        description = "Run a scenario (a catalog name or a file), print what happened, and optionally write a report.",
        footer = {"", "Exit codes: 0 the verdict matched the scenario's expectation (or --expect), 1 it did not, "
                + "2 bad input or usage, 3 the run could not complete (for example the database went away)."})
public final class RunCommand implements Callable<Integer> {

    @Parameters(paramLabel = "SCENARIO", description = "A catalog name (see 'fencelab list') or a scenario file.")
    String scenario;

    @Option(names = "--seed", description = "Override the scenario's seed.")
    Long seed;

    @Option(names = "--executor", description = "simulated, live or process (default: the scenario's).")
    String executor;

    @Option(names = "--fencing", description = "Override the fencing mode: ${COMPLETION-CANDIDATES}.")
    FencingMode fencing;

    @Option(names = "--token-scheme", description = "Override the token scheme: ${COMPLETION-CANDIDATES}.")
    TokenScheme tokenScheme;

    @Option(names = "--expect", paramLabel = "VERDICT",
            description = "Expect this verdict instead of the scenario's expectation: ${COMPLETION-CANDIDATES}. "
                    + "For a run you override (--fencing UNFENCED on a fenced scenario), so the verdict you mean to "
                    + "show counts as met and exits 0.")
    Verdict.Kind expect;

    @Option(names = "--report", paramLabel = "DIR",
            description = "Write report.html, events.jsonl, judgement.json, metrics.csv and summary.json into DIR, "
                    + "all together at the end (an earlier report there is replaced whole; a failed run leaves its "
                    + "events in .fencelab-partial-DIR beside it).")
    Path reportDir;

    @Option(names = "--durable",
            description = "Force the event log to disk (fsync) at the end of the run and every --fsync-every "
                    + "seconds while it runs, so a power failure loses at most that much. Off by default.")
    boolean durable;

    @Option(names = "--fsync-every", paramLabel = "SECONDS", defaultValue = "1",
            description = "With --durable: the most real time between forces to disk (default ${DEFAULT-VALUE}; "
                    + "0 forces after every batch of events).")
    double fsyncEverySeconds;

    @Mixin
    DatabaseOptions database = new DatabaseOptions();

    @Mixin
    ServiceOptions services = new ServiceOptions();

    @Option(names = "--db-restart-command", paramLabel = "'PROGRAM ARGS'",
            description = "With --jdbc-url: how a DATABASE_RESTART fault restarts that server. Run at the fault's time "
                    + "as a program and arguments split at spaces (no shell); it must restart the server and return, "
                    + "then Fencelab waits (up to 60 s) until the server answers. Without it, such a fault on an "
                    + "external server is refused before the run starts.")
    String dbRestartCommand;

    @Spec
    CommandSpec spec;

    @Override
    public Integer call() throws Exception {
        PrintWriter out = spec.commandLine().getOut();
        Duration fsyncEvery = fsyncEvery();
        RestartCommand restart = restartCommand();
        Scenario resolved = Catalog.shipped().resolve(scenario);
        // --expect replaces what is checked, and with it what the report and the summary say was expected.
        Scenario sc = expect == null ? resolved
                : new Scenario(resolved.name(), resolved.notes(), resolved.spec(), Expectation.verdict(expect));
        RunSpec runSpec = overridden(sc.spec());
        if (reportDir != null) {
            FileProblem.requireDirectoryOrAbsent("--report", reportDir);
        }
        out.printf(Locale.ROOT, "running %s: %s (%s, seed %d, fencing %s, tokens %s)%n", sc.name(), sc.notes().title(),
                runSpec.executor().name().toLowerCase(Locale.ROOT), runSpec.seed(), runSpec.fencing(),
                runSpec.tokenScheme());
        SetupLines.print(out, runSpec);
        out.flush();
        // With --report the run records straight into the bundle's staging directory: a run killed
        // midway leaves its log there, never a half-report in DIR.
        try (StagedDirectory staged = reportDir == null ? null : ReportBundle.stage(reportDir)) {
            Path eventLog = staged != null ? staged.staged(ReportBundle.EVENTS) : temporaryLog();
            RunResult result;
            Optional<Event.RunEnded.Reason> recordingFailure;
            try (Database db = Database.open(database.resolve(), 64, restart);
                 Run run = fsyncEvery == null ? Run.prepare(db, runSpec, eventLog)
                         : Run.prepareDurable(db, runSpec, eventLog, fsyncEvery)) {
                result = run.runToEnd();
                recordingFailure = run.recordingFailure();
            }
            List<Event> events = EventLogReader.read(result.eventLog());
            ReportInput report = ReportInput.of(sc, runSpec, result, events, Map.of());
            List<String> mismatches = report.mismatches();
            printSummary(out, sc, result, mismatches);
            out.flush();
            if (recordingFailure.isPresent()) {
                // The log on disk is cut short: neither the story nor a report is told from it.
                failed("run " + recordingFailure.get().words(), staged);
                return ExitCodes.RUN_INCOMPLETE;
            }
            VerdictText.of(events, result.judgement()).forEach(line -> out.printf("  %s%n", line));
            printTuning(out, result.tuning().totals());
            if (staged != null) {
                try {
                    ReportBundle.write(staged, report);
                } catch (IOException e) {
                    failed("no report written: " + FileProblem.of(e), staged);
                    return ExitCodes.RUN_INCOMPLETE;
                }
                out.printf("report: %s%n", reportDir.resolve(ReportBundle.HTML));
            }
            if (result.failed()) {
                // One line on stderr for whoever reads only the exit status and its message.
                spec.commandLine().getErr().printf("fencelab: the run failed: %s; its verdict covers only what "
                        + "happened before the failure%n", result.failureCause().orElseThrow());
                return ExitCodes.RUN_INCOMPLETE;
            }
            return mismatches.isEmpty() ? ExitCodes.OK : ExitCodes.UNEXPECTED_VERDICT;
        }
    }

    /** One line on stderr: what failed and, with --report, where the events recorded so far are kept. */
    private void failed(String what, StagedDirectory staged) throws IOException {
        Optional<Path> kept = staged == null ? Optional.empty() : staged.discardAllBut(ReportBundle.EVENTS);
        PrintWriter err = spec.commandLine().getErr();
        err.println("fencelab: " + what + kept.map(log -> "; the events recorded so far are in " + log).orElse(""));
        err.flush();
    }

    /** The parsed --db-restart-command, or null without it. */
    private RestartCommand restartCommand() {
        if (dbRestartCommand == null) {
            return null;
        }
        if (dbRestartCommand.isBlank()) {
            throw new IllegalArgumentException("--db-restart-command is empty; give a program and its arguments");
        }
        if (database.resolve().isEmbedded()) {
            throw new IllegalArgumentException("--db-restart-command applies only to an external database "
                    + "(--jdbc-url); Fencelab restarts the embedded one itself");
        }
        return RestartCommand.parse(dbRestartCommand);
    }

    /** The interval of --durable, or null without it. */
    private Duration fsyncEvery() {
        if (!(fsyncEverySeconds >= 0) || Double.isInfinite(fsyncEverySeconds)) {
            throw new IllegalArgumentException("--fsync-every must be a number of seconds, 0 or more, was "
                    + fsyncEverySeconds);
        }
        if (!durable) {
            if (spec.commandLine().getParseResult().hasMatchedOption("--fsync-every")) {
                throw new IllegalArgumentException("--fsync-every applies only with --durable");
            }
            return null;
        }
        return Duration.ofNanos(Math.round(fsyncEverySeconds * 1e9));
    }

    private static Path temporaryLog() throws IOException {
        Path tmp = Files.createTempFile("fencelab-events", ".jsonl");
        tmp.toFile().deleteOnExit();
        return tmp;
    }

    private RunSpec overridden(RunSpec base) {
        RunSpec s = base;
        if (seed != null) {
            s = s.withSeed(seed);
        }
        if (executor != null) {
            s = s.withExecutor(switch (executor.toLowerCase(Locale.ROOT)) {
                case "simulated" -> ExecutorKind.SIMULATED;
                case "live" -> ExecutorKind.LIVE;
                case "process" -> ExecutorKind.PROCESS;
                default -> throw new IllegalArgumentException("--executor must be simulated, live or process, was '"
                        + executor + "'");
            });
        }
        if (fencing != null) {
            s = s.withFencing(fencing);
        }
        if (tokenScheme != null) {
            s = s.toBuilder().tokenScheme(tokenScheme).build();
        }
        return services.apply(s);
    }

    /** The tuning figures in the report's words ({@link TuningText}), labels aligned. */
    private static void printTuning(PrintWriter out, TuningMetrics tuning) {
        out.printf("tuning, %s:%n", TuningText.span(tuning));
        for (TuningText.Row row : TuningText.summary(tuning)) {
            out.printf("  %-19s %s%n", row.label(), row.value());
        }
    }

    private static void printSummary(PrintWriter out, Scenario sc, RunResult result, List<String> mismatches) {
        EventCounts t = result.metrics().totals();
        out.printf(Locale.ROOT, "%s after %d events: %d acquisitions, %d renewals, %d renewal failures, "
                        + "%d accepted writes, %d stale rejections%n",
                result.endReason(), result.events(), t.acquisitions(), t.renewals(), t.renewalFailures(),
                t.acceptedWrites(), t.staleRejections());
        out.printf("verdict: %s%s%n", result.verdict().kind(), result.failed() ? " up to the failure (from the events before it)"
                : result.finalStateJudged() ? "" : " (from the events only: the database could not be read at the end)");
        for (Witness w : result.verdict().witnesses()) {
            out.printf("  %s: %s%n", w.invariant(), w.summary());
        }
        out.printf("expected: %s -> %s%n", sc.expectation().describe(), mismatches.isEmpty() ? "met" : "NOT met");
        mismatches.forEach(m -> out.printf("  %s%n", m));
    }
}
