package io.fencelab.app.console.export;

import io.fencelab.app.console.model.ConsoleModel;
import io.fencelab.app.console.model.RunModel;
import io.fencelab.app.console.ui.Problems;
import io.fencelab.engine.check.SafetyChecker;
import io.fencelab.engine.clock.RunTimes;
import io.fencelab.engine.event.Event;
import io.fencelab.engine.event.EventLog;
import io.fencelab.engine.metrics.TuningFigures;
import io.fencelab.engine.run.RunResult;
import io.fencelab.engine.run.RunSpec;
import io.fencelab.report.ReportBundle;
import io.fencelab.report.ReportInput;
import io.fencelab.report.StagedDirectory;
import io.fencelab.scenarios.Scenario;
import java.io.IOException;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.function.Consumer;
import javafx.application.Platform;

/**
 * Writes the report bundle of a run on show, the same files {@code fencelab run --report} writes:
 * report.html, events.jsonl, metrics.csv, summary.json. The events are the ones the console shows,
 * so a run that is still going, was stopped, or lost its database exports what happened so far.
 */
final class Exporter {

    private final ConsoleModel console;
    private final ExecutorService io;

    Exporter(ConsoleModel console, ExecutorService io) {
        this.console = console;
        this.io = io;
    }

    /** Gathers what to write on the FX thread, writes it on the I/O thread, reports back on the FX thread. */
    void export(Path dir, RunModel run, RunSpec spec, Path replayFile, Consumer<String> done) {
        List<Event> events = run.events().toList();
        if (events.isEmpty()) {
            finish("Nothing to export yet: the run has no events.", done);
            return;
        }
        RunResult finished = run.resultProperty().get();
        Scenario scenario = console.scenario();
        long now = run.nowMicrosProperty().get();
        // A run under way is exported as judged so far: the judgement of exactly the events written.
        var judgement = SafetyChecker.judgement(events);
        var metrics = run.metricsProperty().get();
        io.execute(() -> {
            String message;
            try (StagedDirectory staged = ReportBundle.stage(dir)) {
                Path log = staged.staged(ReportBundle.EVENTS);
                try (EventLog out = EventLog.create(log)) {
                    out.append(events);
                }
                Event.RunStarted started = events.getFirst() instanceof Event.RunStarted s ? s : null;
                RunResult result = finished != null
                        ? new RunResult(finished.spec(), finished.runId(), finished.end(), finished.judgement(),
                                finished.metrics(), finished.tuning(), log, events.size(), finished.database())
                        : new RunResult(spec, 0, inProgress(events), judgement, metrics,
                                TuningFigures.of(events, judgement), log, events.size(),
                                started != null ? started.database() : "unknown database");
                String end = finished == null && !(events.getLast() instanceof Event.RunEnded)
                        ? "exported while running, at " + RunTimes.precise(now) : result.endReason();
                ReportBundle.write(staged, input(scenario, spec, replayFile, started, result, events, end));
                message = "Report written to " + dir.resolve(ReportBundle.HTML);
            } catch (IOException | RuntimeException e) {
                message = Problems.describe("The report could not be written to " + dir, e);
            }
            finish(message, done);
        });
    }

    /** Tells the outcome of an export on the FX thread: as the console's message, and to {@code done} if given. */
    void finish(String message, Consumer<String> done) {
        Runnable tell = () -> {
            console.messageProperty().set(message);
            if (done != null) {
                done.accept(message);
            }
        };
        if (Platform.isFxApplicationThread()) {
            tell.run();
        } else {
            Platform.runLater(tell);
        }
    }

    /**
     * How the exported events end: as their {@code RunEnded} says, or, for a run still going, as a
     * stopped one (the report covers what happened until now; nothing failed).
     */
    private static Event.RunEnded.Reason inProgress(List<Event> events) {
        return events.getLast() instanceof Event.RunEnded end ? end.ending() : Event.RunEnded.Reason.STOPPED;
    }

    private static ReportInput input(Scenario scenario, RunSpec spec, Path replayFile, Event.RunStarted started,
                                     RunResult result, List<Event> events, String end) {
        if (replayFile != null || scenario == null) {
            String name = started != null ? started.scenario() : "saved run";
            return new ReportInput(name, "Saved run " + (replayFile == null ? "" : replayFile.getFileName()),
                    "A saved event log, replayed in the Fencelab console.", List.of(), result, events,
                    configuration(spec, result, started, end), "no expectation (a saved log replayed in the console)",
                    true, List.of());
        }
        return ReportInput.of(scenario, spec != null ? spec : scenario.spec(), result, events,
                Map.of("end", end, "exported from", FROM_CONSOLE));
    }

    private static final String FROM_CONSOLE = "the Fencelab console";

    private static Map<String, String> configuration(RunSpec s, RunResult result, Event.RunStarted started,
                                                     String end) {
        Map<String, String> c = s != null ? ReportInput.configurationOf(s) : new LinkedHashMap<>();
        if (s == null && started != null) {
            c.put("scenario", started.scenario());
            c.put("executor", started.executor());
            c.put("seed", Long.toString(started.seed()));
            c.put("fencing", started.fencing());
            c.put("token scheme", started.tokenScheme());
        }
        c.put("database", result.database());
        c.put("end", end);
        c.put("exported from", FROM_CONSOLE);
        return c;
    }
}
