package io.fencelab.app.console.probe;

import io.fencelab.app.console.model.ConsoleModel;
import io.fencelab.app.console.model.ProbeModel;
import io.fencelab.app.console.model.ProbeModel.Phase;
import io.fencelab.app.console.model.ProbeModel.Row;
import io.fencelab.app.console.run.RunSessions;
import io.fencelab.app.console.ui.Problems;
import io.fencelab.app.service.ProbeRuns;
import io.fencelab.engine.db.Database;
import io.fencelab.engine.fence.SqlFence;
import io.fencelab.engine.fence.SqlFenceException;
import io.fencelab.engine.probe.ChecklistItem;
import io.fencelab.engine.probe.ItemVerdict;
import io.fencelab.engine.probe.ProbeOptions;
import io.fencelab.engine.probe.ProbeReport;
import io.fencelab.scenarios.Scenario;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CancellationException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.function.Function;
import javafx.application.Platform;

/**
 * Starts and stops the probe of the scenario on show: its own SQL fences tried against the
 * checklist, on the console's database, off the FX thread, as {@code fencelab probe} runs it
 * ({@link ProbeRuns}: the same probe and the same {@code probe.json}). Each verdict is handed to the FX
 * thread as it is found and fills in its row of {@link ProbeModel}.
 */
public final class ProbeController {

    private final ConsoleModel model;
    private final RunSessions sessions;
    private final Path runsDir;
    private final ExecutorService worker = Executors.newSingleThreadExecutor(r -> {
        Thread t = new Thread(r, "fencelab-probe");
        t.setDaemon(true);
        return t;
    });
    /** The probe's options for its output folder: those of {@code fencelab probe} unless a test makes it shorter. */
    private Function<Path, ProbeOptions> options = ProbeOptions::defaults;
    private Future<?> running;
    /** Stop was pressed: what the interrupted item throws is the stop, not a failure. */
    private volatile boolean stopping;

    public ProbeController(ConsoleModel model, RunSessions sessions, Path runsDir) {
        this.model = model;
        this.sessions = sessions;
        this.runsDir = runsDir;
        // Another scenario's checklist starts empty; a probe under way keeps its own until it ends.
        model.scenarioProperty().addListener((o, was, now) -> {
            model.probe().availableProperty().set(now != null && !now.fences().isEmpty());
            if (!model.probe().phaseProperty().get().busy()) {
                clear();
            }
        });
    }

    /** The options each probe runs with, given its output folder (tests run fewer race schedules). */
    public void setOptions(Function<Path, ProbeOptions> value) {
        options = value;
    }

    /** Probes the scenario on show; says in the status why not when it has no fence of its own or the database is not ready. */
    public void start() {
        ProbeModel p = model.probe();
        if (p.phaseProperty().get().busy()) {
            return;
        }
        Scenario scenario = model.scenario();
        if (scenario == null || scenario.fences().isEmpty()) {
            p.statusProperty().set("Probe tries your own SQL fences, and this scenario has none: add a targets: "
                    + "section with a SQL target (see docs/FENCES.md).");
            return;
        }
        Database db = sessions.database();
        if (db == null) {
            p.statusProperty().set("No probe yet: the database is still starting.");
            return;
        }
        List<Row> rows = new ArrayList<>();
        for (SqlFence fence : scenario.fences()) {
            for (ChecklistItem item : ChecklistItem.values()) {
                rows.add(new Row(fence.name(), item, null));
            }
        }
        p.rows().setAll(rows);
        p.outDirProperty().set(null);
        p.phaseProperty().set(Phase.RUNNING);
        p.statusProperty().set("Probing " + fenceCount(rows) + " on " + db.describe() + "…");
        ProbeOptions o = options.apply(outDir(scenario));
        stopping = false;
        running = worker.submit(() -> work(db, scenario, o));
    }

    /** Stops the probe after the item under way (a race's run ends at once); the verdicts found stay. */
    public void stop() {
        if (running != null && model.probe().phaseProperty().get() == Phase.RUNNING) {
            model.probe().phaseProperty().set(Phase.STOPPING);
            model.probe().statusProperty().set("Stopping the probe…");
            stopping = true;
            running.cancel(true);
        }
    }

    /** Stops a probe under way and its thread (the console is closing). */
    public void shutdown() {
        worker.shutdownNow();
    }

    private void work(Database db, Scenario scenario, ProbeOptions o) {
        try {
            // A verdict takes a second or more to find: one hand-over each is few, unlike a run's events.
            ProbeReport report = ProbeRuns.run(ProbeRuns.probe(db, scenario, o), o,
                    v -> Platform.runLater(() -> heard(v)));
            Platform.runLater(() -> finished(report, o.outDir()));
        } catch (CancellationException e) {
            Platform.runLater(() -> ended(Phase.STOPPED, "Stopped: the items tried so far keep their verdicts."));
        } catch (SqlFenceException e) {
            // Located in the user's file (file:line:column), one line: the checklist cannot start, so
            // no row is left waiting for a verdict that will not come.
            Platform.runLater(() -> {
                model.probe().rows().clear();
                ended(Phase.FAILED, e.getMessage().lines().findFirst().orElse(""));
            });
        } catch (IOException | RuntimeException e) {
            if (stopping) {
                Platform.runLater(() -> ended(Phase.STOPPED, "Stopped: the items tried so far keep their verdicts."));
                return;
            }
            String why = Problems.describe("The probe could not go on", e);
            Platform.runLater(() -> ended(Phase.FAILED, why));
        }
    }

    /** Fills in the verdict's row. */
    private void heard(ItemVerdict v) {
        List<Row> rows = model.probe().rows();
        int tried = 0;
        for (int i = 0; i < rows.size(); i++) {
            Row r = rows.get(i);
            if (r.fence().equals(v.fence()) && r.item() == v.item()) {
                rows.set(i, new Row(r.fence(), r.item(), v));
            }
            tried += rows.get(i).pending() ? 0 : 1;
        }
        if (model.probe().phaseProperty().get() == Phase.RUNNING) {
            model.probe().statusProperty().set("Probing: " + tried + " of " + rows.size() + " tried (last: "
                    + v.fence() + ", " + v.item().title() + ").");
        }
    }

    private void finished(ProbeReport report, Path out) {
        long fails = report.verdicts().stream().filter(v -> v.status() == ItemVerdict.Status.FAILS).count();
        long notApplicable = report.verdicts().stream()
                .filter(v -> v.status() == ItemVerdict.Status.NOT_APPLICABLE).count();
        model.probe().outDirProperty().set(out);
        ended(Phase.DONE, "On " + report.database() + ": " + (report.allHold()
                ? "every item holds (" + notApplicable + " do not apply)."
                : fails + (fails == 1 ? " item FAILS" : " items FAIL") + "; open a failure for its witness."));
    }

    private void ended(Phase phase, String status) {
        model.probe().phaseProperty().set(phase);
        model.probe().statusProperty().set(status);
        running = null;
    }

    private void clear() {
        model.probe().rows().clear();
        model.probe().outDirProperty().set(null);
        model.probe().phaseProperty().set(Phase.IDLE);
        model.probe().statusProperty().set("");
    }

    /**
     * Where the outputs go: beside a scenario file, as {@code fencelab probe FILE} run in its folder
     * writes them ({@code probe-<stem>}); a catalog scenario's in the console's folder of runs.
     */
    private Path outDir(Scenario scenario) {
        String source = model.sourceProperty().get();
        boolean file = source != null && !source.isEmpty() && !"catalog".equals(source)
                && java.nio.file.Files.isRegularFile(Path.of(source));
        if (file) {
            Path folder = Path.of(source).toAbsolutePath().getParent();
            return folder.resolve(ProbeRuns.defaultOut(source).getFileName().toString());
        }
        return runsDir.resolve(ProbeRuns.defaultOut(scenario.name()).getFileName().toString());
    }

    private static String fenceCount(List<Row> rows) {
        long fences = rows.stream().map(Row::fence).distinct().count();
        return fences == 1 ? "fence " + rows.getFirst().fence() : fences + " fences";
    }
}
