package io.fencelab.app.console.control;

import io.fencelab.engine.clock.RunTimes;
import io.fencelab.app.console.feed.FrameLoop;
import io.fencelab.app.console.model.Comparison;
import io.fencelab.app.console.model.ConsoleModel;
import io.fencelab.app.console.model.Parameters;
import io.fencelab.app.console.model.RunModel;
import io.fencelab.app.console.model.RunPhase;
import io.fencelab.app.console.model.TimeWindow;
import io.fencelab.app.console.run.LiveDriver;
import io.fencelab.app.console.run.Problems;
import io.fencelab.app.console.run.ReplayDriver;
import io.fencelab.app.console.run.RunDriver;
import io.fencelab.app.console.run.SimulatedDriver;
import io.fencelab.app.console.run.SpecEditor;
import io.fencelab.engine.chaos.FaultKind;
import io.fencelab.engine.chaos.FaultSpec;
import io.fencelab.engine.clock.Pacer;
import io.fencelab.engine.db.Database;
import io.fencelab.engine.event.Event;
import io.fencelab.engine.fence.FencingMode;
import io.fencelab.engine.run.ExecutorKind;
import io.fencelab.engine.run.RunSpec;
import io.fencelab.engine.worker.WorkerSpec;
import io.fencelab.scenarios.Catalog;
import io.fencelab.scenarios.CatalogEntry;
import io.fencelab.scenarios.Scenario;
import io.fencelab.scenarios.ScenarioException;
import io.fencelab.scenarios.ScenarioLoader;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Consumer;
import java.util.random.RandomGenerator;
import javafx.application.Platform;

/**
 * Drives the engine for the console: opens the database, loads scenarios, starts, steers and
 * restarts runs, injects faults, exports. Called on the FX thread; anything slow (database, files)
 * happens on driver threads or the console's I/O thread, and results come back as model changes.
 * It never touches a view.
 */
public final class ConsoleController implements io.fencelab.app.console.view.TimelineView.Intents {

    /** A fault a user can add by hand, with the key that adds it. */
    public enum HandFault {
        PAUSE(FaultKind.PAUSE, "pause now", "P"),
        DELAY(FaultKind.REQUEST_DELAY, "delay network", "D"),
        DROP_RENEWALS(FaultKind.RENEWAL_LOSS, "drop renewals", "R"),
        KILL_CONNECTION(FaultKind.CONNECTION_KILL, "kill connection", "K");

        public final FaultKind kind;
        public final String words;
        public final String key;

        HandFault(FaultKind kind, String words, String key) {
            this.kind = kind;
            this.words = words;
            this.key = key;
        }
    }

    private final ConsoleModel model;
    private final FrameLoop loop;
    private final DatabaseSource databaseSource;
    private final Path runsDir;
    private final ExecutorService io = Executors.newSingleThreadExecutor(
            Thread.ofPlatform().daemon().name("fencelab-io").factory());
    private final AtomicInteger runNumber = new AtomicInteger();
    private final Exporter exporter;
    private final RandomGenerator seeds = RandomGenerator.getDefault();

    private volatile Database db;
    private final List<RunSession> sessions = new ArrayList<>();
    /** The scenario's spec with the sheet's parameters applied. */
    private RunSpec baseSpec;
    /** Faults added by hand, applied after the parameters. */
    private final List<FaultSpec> handFaults = new ArrayList<>();
    private Path replayFile;
    private boolean closed;

    public ConsoleController(ConsoleModel model, FrameLoop loop, DatabaseSource databaseSource, Path runsDir) {
        this.model = model;
        this.loop = loop;
        this.databaseSource = databaseSource;
        this.runsDir = runsDir;
        this.exporter = new Exporter(model, io);
    }

    public ConsoleModel model() {
        return model;
    }

    /** Starts the frame loop, loads the catalog and opens the database in the background. */
    public void start() {
        loop.addUpdate(now -> follow());
        loop.start();
        try {
            model.catalog().setAll(Catalog.shipped().entries());
        } catch (RuntimeException e) {
            model.scenarioProblemProperty().set(Problems.describe("the scenario catalog could not be loaded", e));
        }
        io.execute(() -> {
            try {
                Database opened = databaseSource.open();
                String described = opened.describe();
                Platform.runLater(() -> databaseOpened(opened, described));
            } catch (RuntimeException e) {
                String problem = Problems.reason(e);
                Platform.runLater(() -> {
                    model.databaseProperty().set("no database");
                    model.databaseProblemProperty().set("The database could not be opened: " + problem
                            + ". Check --jdbc-url or FENCELAB_JDBC_URL (or leave both unset for the embedded one)."
                            + " Saved runs can still be opened and replayed.");
                });
            }
        });
    }

    private void databaseOpened(Database opened, String described) {
        if (closed) {
            if (databaseSource.owned()) {
                io.execute(opened::close);
            }
            return;
        }
        db = opened;
        model.databaseProperty().set(described);
        model.databaseReadyProperty().set(true);
        if (model.scenario() != null && replayFile == null) {
            restartRuns(0, false);
        }
    }

    /** The open database, or null while it is starting (or could not be opened). */
    public Database database() {
        return db;
    }

    // ---- choosing what to run ------------------------------------------------------------------

    /** Shows a catalog scenario, prepared and paused at its start. */
    public void select(CatalogEntry entry) {
        if (entry == null) {
            return;
        }
        try {
            Scenario scenario = Catalog.shipped().load(entry.name());
            model.selectedProperty().set(entry);
            show(scenario, "catalog");
        } catch (ScenarioException e) {
            model.scenarioProblemProperty().set(e.getMessage());
        }
    }

    /** Shows a catalog scenario by name ({@code paused-holder}). */
    public void select(String name) {
        model.catalog().stream().filter(e -> e.name().equals(name)).findFirst().ifPresentOrElse(this::select,
                () -> model.scenarioProblemProperty().set("no catalog scenario called " + name));
    }

    /** Loads a scenario file; its problems are shown in place of the scenario, which stays as it was. */
    public void openScenarioFile(Path file) {
        try {
            Scenario scenario = ScenarioLoader.load(file);
            model.selectedProperty().set(null);
            show(scenario, file.toString());
        } catch (ScenarioException e) {
            model.scenarioProblemProperty().set(fileProblems(file, e.getMessage()));
        } catch (RuntimeException e) {
            model.scenarioProblemProperty().set(file.getFileName() + ": " + Problems.reason(e));
        }
    }

    /** The loader's lines ({@code file:line:column: field: problem}), with the file's folder left out. */
    static String fileProblems(Path file, String message) {
        Path dir = file.toAbsolutePath().getParent();
        String shorter = message;
        if (dir != null) {
            shorter = shorter.replace(dir + java.io.File.separator, "");
        }
        if (file.getParent() != null) {
            shorter = shorter.replace(file.getParent() + java.io.File.separator, "");
        }
        long lines = shorter.lines().count();
        return file.getFileName() + " is not a valid scenario (" + lines + (lines == 1 ? " problem" : " problems")
                + "; the scenario on show is unchanged):\n" + shorter;
    }

    private void show(Scenario scenario, String source) {
        replayFile = null;
        model.scenarioProblemProperty().set("");
        model.scenarioProperty().set(scenario);
        model.sourceProperty().set(source);
        handFaults.clear();
        model.handFaults().clear();
        Parameters p = SpecEditor.parametersOf(scenario.spec());
        model.parametersProperty().set(p);
        baseSpec = scenario.spec();
        restartRuns(0, false);
    }

    /** Replays a saved event log; no database needed. */
    public void openSavedRun(Path file) {
        closeSessions();
        replayFile = file;
        baseSpec = null;
        handFaults.clear();
        model.handFaults().clear();
        model.selectedProperty().set(null);
        model.scenarioProperty().set(null);
        model.parametersProperty().set(null);
        model.scenarioProblemProperty().set("");
        model.sourceProperty().set(file.toString());
        model.compareProperty().set(false);
        model.workers().clear();
        RunSession s = RunSession.start(model.main(), null, loop, feed -> new ReplayDriver(file, feed));
        sessions.add(s);
        applySpeed();
        model.capabilitiesProperty().set(s.driver.capabilities());
        model.window().followProperty().set(true);
    }

    // ---- steering --------------------------------------------------------------------------------

    public void play() {
        if (sessions.isEmpty()) {
            return;
        }
        boolean over = sessions.stream().allMatch(s -> s.model.phase().isOver());
        if (over && replayFile == null) {
            restartRuns(0, true);
            return;
        }
        sessions.forEach(s -> s.driver.play());
    }

    public void pause() {
        sessions.forEach(s -> s.driver.pause());
    }

    public void togglePlay() {
        if (sessions.stream().anyMatch(s -> s.model.phase() == RunPhase.PLAYING)) {
            pause();
        } else {
            play();
        }
    }

    /** One more event (in each run shown), then paused. */
    public void step() {
        sessions.forEach(s -> s.driver.step());
    }

    /** Run seconds per real second, 0.01 to 100. */
    public void setSpeed(double speed) {
        double clamped = Math.max(Pacer.MIN_SPEED, Math.min(Pacer.MAX_SPEED, speed));
        model.speedProperty().set(clamped);
        applySpeed();
    }

    public void setFastest(boolean fastest) {
        model.fastestProperty().set(fastest);
        applySpeed();
    }

    private void applySpeed() {
        double speed = model.fastestProperty().get() ? Pacer.AS_FAST_AS_POSSIBLE : model.speedProperty().get();
        sessions.forEach(s -> s.driver.setSpeed(speed));
    }

    /** Runs the same spec again from the start, with the same seed. */
    public void restart() {
        if (replayFile != null) {
            openSavedRun(replayFile);
            return;
        }
        restartRuns(0);
    }

    /** Runs the same scenario with a fresh seed. */
    public void newSeed() {
        if (baseSpec == null) {
            return;
        }
        long seed = 1 + seeds.nextLong(999_999);
        baseSpec = baseSpec.withSeed(seed);
        restartRuns(0);
    }

    /**
     * Applies the parameter sheet. A live run under way takes the change from now on (the engine
     * records it, and the timeline marks it); any other run starts again from the beginning with
     * the same seed.
     */
    public void applyParameters(Parameters p) {
        Scenario scenario = model.scenario();
        if (scenario == null || p.equals(model.parametersProperty().get())) {
            return;
        }
        long seed = baseSpec == null ? scenario.spec().seed() : baseSpec.seed();
        model.parametersProperty().set(p);
        RunSpec next = SpecEditor.apply(scenario.spec().withSeed(seed), p);
        RunDriver live = liveRunUnderway();
        if (live != null && next.executor() == ExecutorKind.LIVE) {
            try {
                live.change(withHandFaults(next));
                baseSpec = next;
                showWorkers(next);
                model.messageProperty().set("Changed in the running live run, from now on (marked on the timeline).");
                return;
            } catch (IllegalArgumentException | IllegalStateException e) {
                model.messageProperty().set("Could not change the running run (" + e.getMessage()
                        + "), so it starts again with the new parameters.");
            }
        }
        baseSpec = next;
        restartRuns(0);
    }

    /** The single live run on show, if it is under way (not comparing, started, not over); else null. */
    private RunDriver liveRunUnderway() {
        if (sessions.size() != 1) {
            return null;
        }
        RunDriver driver = sessions.getFirst().driver;
        return driver.capabilities().liveChanges() && driver.underway() ? driver : null;
    }

    /**
     * Adds a fault on {@code holder} starting now. A live run under way takes it at once. A
     * simulated run is deterministic, so it is run again with the same seed up to now, as fast as
     * possible, and goes on with the fault in place: everything before now happens exactly as it did.
     */
    public void injectFault(HandFault fault, String holder) {
        if (holder == null || baseSpec == null || sessions.isEmpty()
                || !model.capabilitiesProperty().get().handFaults()) {
            return;
        }
        long now = sessions.getFirst().driver.nowMicros();
        Duration length = Duration.ofNanos((long) (model.faultSecondsProperty().get() * 1e9));
        Duration amount = fault == HandFault.DELAY ? length.dividedBy(2) : Duration.ZERO;
        String words = fault.words + " on " + holder
                + (fault == HandFault.KILL_CONNECTION ? "" : " for " + RunTimes.brief(length.toNanos() / 1_000))
                + (fault == HandFault.DELAY ? " (+" + RunTimes.brief(amount.toNanos() / 1_000) + " per request)" : "");
        if (model.capabilitiesProperty().get().liveChanges()) {
            injectLive(fault, holder, length, amount, words);
            return;
        }
        FaultSpec spec = SpecEditor.withFault(baseSpec, fault.kind, holder, now + 1, length, amount).faults()
                .getLast();
        handFaults.add(spec);
        model.handFaults().add(RunTimes.precise(now) + ": " + words);
        restartRuns(now);
    }

    /** A fault into the running live run; it is in the run's log, so it is not kept for a restart. */
    private void injectLive(HandFault fault, String holder, Duration length, Duration amount, String words) {
        RunDriver live = liveRunUnderway();
        if (live == null) {
            model.messageProperty().set("A live run takes faults while it runs: press play first "
                    + "(or restart it if it is over).");
            return;
        }
        try {
            live.injectFault(fault.kind, holder, length, amount);
            model.handFaults().add(RunTimes.precise(live.nowMicros()) + ": " + words + " (live)");
        } catch (IllegalArgumentException | IllegalStateException e) {
            model.messageProperty().set("Could not inject the fault: " + e.getMessage() + ".");
        }
    }

    /** Forgets the faults added by hand and runs again from the start. */
    public void clearHandFaults() {
        if (handFaults.isEmpty()) {
            return;
        }
        handFaults.clear();
        model.handFaults().clear();
        restartRuns(0);
    }

    /**
     * Shows the scenario twice, one run above the other and time-aligned, with the same seed and one
     * setting apart (see {@link #setComparison}): fencing on and off, unless chosen otherwise.
     */
    public void setCompare(boolean compare) {
        if (compare == model.compareProperty().get()) {
            return;
        }
        if (compare && baseSpec == null) {
            model.messageProperty().set("Choose a scenario first: comparing runs it twice, "
                    + model.comparisonProperty().get() + ".");
            return;
        }
        model.compareProperty().set(compare);
        restartRuns(0);
    }

    /** What the compared runs differ in; when comparing, both start again with it. */
    public void setComparison(Comparison comparison) {
        if (comparison.equals(model.comparisonProperty().get())) {
            return;
        }
        model.comparisonProperty().set(comparison);
        if (model.compareProperty().get()) {
            restartRuns(0);
        }
    }

    // ---- the timeline window ----------------------------------------------------------------------

    @Override
    public void zoom(double factor, double aroundMicros) {
        TimeWindow w = model.window();
        double limit = Math.max(w.extentProperty().get() * 1.5, 10_000_000);
        double span = Math.max(TimeWindow.MIN_SPAN, Math.min(limit, w.span() * factor));
        double start = aroundMicros - (aroundMicros - w.start()) * span / w.span();
        w.followProperty().set(false);
        w.show(start, span);
    }

    @Override
    public void pan(double deltaMicros) {
        TimeWindow w = model.window();
        w.followProperty().set(false);
        double max = Math.max(0, w.extentProperty().get() - w.span() * 0.5);
        w.show(Math.max(-w.span() * 0.5, Math.min(max, w.start() + deltaMicros)), w.span());
    }

    @Override
    public void pin(RunModel run, long seq) {
        run.pinnedSeqProperty().set(seq);
    }

    /** Shows the whole run and follows the playhead again. */
    public void fit() {
        model.window().followProperty().set(true);
        model.window().showAll();
    }

    /**
     * Looks at witness {@code number} (1-based) of {@code run}: the timeline shades it and moves to
     * show all its events, and the offending event is pinned.
     */
    public void focusWitness(RunModel run, int number) {
        run.focusedWitnessProperty().set(number);
        if (number <= 0 || number > run.verdict().witnesses().size()) {
            return;
        }
        List<Long> seqs = run.verdict().witnesses().get(number - 1).eventSeqs();
        long lo = Long.MAX_VALUE;
        long hi = Long.MIN_VALUE;
        for (long seq : seqs) {
            Event e = run.events().bySeq(seq);
            if (e != null) {
                lo = Math.min(lo, e.atMicros());
                hi = Math.max(hi, e.atMicros());
            }
        }
        if (!seqs.isEmpty()) {
            run.pinnedSeqProperty().set(seqs.getLast());
        }
        if (lo <= hi) {
            double width = Math.max((hi - lo) * 1.3, 2_000_000);
            TimeWindow w = model.window();
            w.followProperty().set(false);
            w.show(lo - (width - (hi - lo)) / 2, width);
        }
    }

    /** Keeps the playhead in view while following; picks up a replayed log's length. */
    private void follow() {
        TimeWindow w = model.window();
        RunModel shown = model.focused();
        long end = shown.endMicrosProperty().get();
        if (end > 0 && end != (long) w.extentProperty().get()) {
            w.extentProperty().set(end);
            if (w.followProperty().get()) {
                w.showAll();
            }
        }
        if (!w.followProperty().get()) {
            return;
        }
        long now = model.compareProperty().get()
                ? Math.max(model.first().nowMicrosProperty().get(), model.second().nowMicrosProperty().get())
                : shown.nowMicrosProperty().get();
        // A window that already reaches the end of the run never needs to move.
        if (w.end() < w.extentProperty().get() && now > w.end() - w.span() * 0.03) {
            w.show(now - w.span() * 0.7, w.span());
        }
    }

    // ---- export ----------------------------------------------------------------------------------

    /** Writes the report bundle (as {@code fencelab run --report}) of the runs on show into {@code dir}. */
    public void exportReport(Path dir, Consumer<String> done) {
        if (model.compareProperty().get()) {
            Comparison c = model.comparisonProperty().get();
            exporter.export(dir.resolve(c.folder(true)), model.first(), spec(0), replayFile, done);
            exporter.export(dir.resolve(c.folder(false)), model.second(), spec(1), replayFile, done);
        } else {
            exporter.export(dir, model.main(), spec(0), replayFile, done);
        }
    }

    /** Writes an image (taken from a view on the FX thread) as a PNG file. */
    public void savePng(java.awt.image.BufferedImage image, Path file, Consumer<String> done) {
        io.execute(() -> {
            String message;
            try {
                Path parent = file.toAbsolutePath().getParent();
                if (parent != null) {
                    Files.createDirectories(parent);
                }
                javax.imageio.ImageIO.write(image, "png", file.toFile());
                message = "Image saved to " + file;
            } catch (IOException | RuntimeException e) {
                message = Problems.describe("The image could not be saved", e);
            }
            String m = message;
            Platform.runLater(() -> {
                model.messageProperty().set(m);
                if (done != null) {
                    done.accept(m);
                }
            });
        });
    }

    private RunSpec spec(int index) {
        return index < sessions.size() ? sessions.get(index).spec : null;
    }

    // ---- runs ------------------------------------------------------------------------------------

    /** The spec the main run uses now (parameters and hand faults applied), or null. */
    public RunSpec currentSpec() {
        return baseSpec == null ? null : withHandFaults(baseSpec);
    }

    /** {@code spec} with the faults added by hand to a simulated run (kept so a replay has them). */
    private RunSpec withHandFaults(RunSpec spec) {
        if (handFaults.isEmpty()) {
            return spec;
        }
        List<FaultSpec> faults = new ArrayList<>(spec.faults());
        faults.addAll(handFaults);
        return spec.toBuilder().faults(faults).build();
    }

    /** Whether any run on show is playing now (a restart then goes on playing). */
    private boolean playing() {
        return sessions.stream().anyMatch(s -> s.model.phase() == RunPhase.PLAYING);
    }

    /** Starts the runs again; they go on playing if they were playing. */
    private void restartRuns(long fastForwardMicros) {
        restartRuns(fastForwardMicros, playing());
    }

    private void restartRuns(long fastForwardMicros, boolean play) {
        if (replayFile != null) {
            if (!model.compareProperty().get()) {
                return;
            }
            // Comparing needs a scenario to run twice; a saved log is one run.
            replayFile = null;
            model.sourceProperty().set("catalog");
        }
        closeSessions();
        if (handFaults.isEmpty()) {
            // Faults injected into a live run were that run's; a new run starts without them.
            model.handFaults().clear();
        }
        RunSpec spec = currentSpec();
        if (spec == null) {
            return;
        }
        if (db == null) {
            model.main().clear();
            model.main().narrationProperty().set(model.databaseProblemProperty().get().isEmpty()
                    ? "Waiting for the database to start…" : "No database: " + model.databaseProblemProperty().get());
            return;
        }
        if (model.compareProperty().get()) {
            Comparison c = model.comparisonProperty().get();
            sessions.add(startRun(model.first(), c.first(spec), fastForwardMicros));
            sessions.add(startRun(model.second(), c.second(spec), fastForwardMicros));
        } else {
            sessions.add(startRun(model.main(), spec, fastForwardMicros));
        }
        model.capabilitiesProperty().set(sessions.getFirst().driver.capabilities());
        showWorkers(spec);
        model.window().extentProperty().set(spec.duration().toNanos() / 1_000.0);
        fit();
        applySpeed();
        if (play) {
            sessions.forEach(s -> s.driver.play());
        }
    }

    /** The holders a fault can be aimed at; left alone when unchanged, so the picker keeps its choice. */
    private void showWorkers(RunSpec spec) {
        List<String> names = spec.workers().stream().map(WorkerSpec::name).toList();
        if (!model.workers().equals(names)) {
            model.workers().setAll(names);
        }
    }

    private RunSession startRun(RunModel runModel, RunSpec spec, long fastForwardMicros) {
        Path log = runsDir.resolve(String.format(Locale.ROOT, "%03d-%s.jsonl", runNumber.incrementAndGet(),
                spec.name().replaceAll("[^A-Za-z0-9._-]", "_")));
        Database database = db;
        return RunSession.start(runModel, spec, loop, feed -> spec.executor() == ExecutorKind.SIMULATED
                ? new SimulatedDriver(database, spec, log, feed, fastForwardMicros)
                : new LiveDriver(database, spec, log, feed));
    }

    private void closeSessions() {
        sessions.forEach(RunSession::close);
        sessions.clear();
    }

    /** Whether every run on show has ended (tests wait for this). */
    public boolean allOver() {
        return !sessions.isEmpty() && sessions.stream().allMatch(s -> s.model.phase().isOver());
    }

    /** The drivers of the runs on show (tests and the benchmark). */
    public List<RunDriver> drivers() {
        return sessions.stream().map(s -> s.driver).toList();
    }

    /** Stops every run, waits briefly for their threads, and closes the database if the console opened it. */
    public void shutdown() {
        closed = true;
        loop.stop();
        List<RunDriver> drivers = drivers();
        closeSessions();
        for (RunDriver d : drivers) {
            try {
                d.awaitClosed(5_000);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
        Database open = db;
        db = null;
        if (open != null && databaseSource.owned()) {
            open.close();
        }
        io.shutdown();
    }
}
