package io.fencelab.app.console.run;

import io.fencelab.app.console.model.Comparison;
import io.fencelab.app.console.model.ConsoleModel;
import io.fencelab.app.console.model.LessonModel;
import io.fencelab.app.console.model.RunModel;
import io.fencelab.app.console.model.RunPhase;
import io.fencelab.app.console.timeline.NavigationController;
import io.fencelab.app.console.ui.FrameLoop;
import io.fencelab.app.console.ui.Problems;
import io.fencelab.engine.chaos.FaultSpec;
import io.fencelab.engine.clock.Pacer;
import io.fencelab.engine.db.Database;
import io.fencelab.engine.run.ExecutorKind;
import io.fencelab.engine.run.RunSpec;
import io.fencelab.engine.worker.WorkerSpec;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicInteger;
import javafx.application.Platform;

/**
 * The runs on show and what they run: the database, the spec (the scenario's, with the sheet's
 * parameters and a seed), the faults added by hand, or a saved log; and a {@link RunSession} per
 * run shown. The feature controllers change what to run and ask for the runs to start again; this
 * starts and stops them. Called on the FX thread; the database opens on the console's I/O thread.
 */
public final class RunSessions {

    private final ConsoleModel model;
    private final FrameLoop loop;
    private final DatabaseSource databaseSource;
    private final Path runsDir;
    private final NavigationController navigation;
    private final ExecutorService io = Executors.newSingleThreadExecutor(
            Thread.ofPlatform().daemon().name("fencelab-io").factory());
    private final AtomicInteger runNumber = new AtomicInteger();

    private volatile Database db;
    private final List<RunSession> sessions = new ArrayList<>();
    /** The scenario's spec with the sheet's parameters applied. */
    private RunSpec baseSpec;
    /** Faults added by hand, applied after the parameters. */
    private final List<FaultSpec> handFaults = new ArrayList<>();
    private Path replayFile;
    private boolean closed;
    /** What waits for the database to open (or fail to): told it, or null (FX thread). */
    private final List<java.util.function.Consumer<Database>> awaitingDatabase = new ArrayList<>();

    public RunSessions(ConsoleModel model, FrameLoop loop, DatabaseSource databaseSource, Path runsDir,
                       NavigationController navigation) {
        this.model = model;
        this.loop = loop;
        this.databaseSource = databaseSource;
        this.runsDir = runsDir;
        this.navigation = navigation;
    }

    /** The console's I/O thread: opening the database, writing exports. */
    public ExecutorService io() {
        return io;
    }

    /** Opens the database in the background; a scenario chosen meanwhile starts once it is open. */
    public void openDatabase() {
        io.execute(() -> {
            try {
                Database opened = databaseSource.open();
                String described = opened.describe();
                Platform.runLater(() -> databaseOpened(opened, described));
            } catch (RuntimeException e) {
                String problem = Problems.reason(e);
                Platform.runLater(() -> {
                    tellAwaiting(null);
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
        tellAwaiting(opened);
        if (model.scenario() != null && replayFile == null) {
            restart(0, false);
        }
    }

    /** Hands {@code then} the database (on the FX thread): now if it is open, else once it opens; null if it cannot. */
    public void withDatabase(java.util.function.Consumer<Database> then) {
        if (db != null) {
            then.accept(db);
        } else if (!model.databaseProblemProperty().get().isEmpty()) {
            then.accept(null);
        } else {
            awaitingDatabase.add(then);
        }
    }

    private void tellAwaiting(Database database) {
        List<java.util.function.Consumer<Database>> waiting = List.copyOf(awaitingDatabase);
        awaitingDatabase.clear();
        waiting.forEach(w -> w.accept(database));
    }

    /** The open database, or null while it is starting (or could not be opened). */
    public Database database() {
        return db;
    }

    // ---- what to run -----------------------------------------------------------------------------

    /** Shows a scenario's spec, without hand faults, prepared and paused at its start. */
    void show(RunSpec spec) {
        show(spec, 0);
    }

    /** Shows {@code spec} (without hand faults), run as fast as possible up to run time {@code fastForwardMicros}. */
    void show(RunSpec spec, long fastForwardMicros) {
        replayFile = null;
        handFaults.clear();
        model.handFaults().clear();
        baseSpec = spec;
        restart(fastForwardMicros, false);
    }

    /** Replays a saved event log in place of any run on show; no database needed. */
    void replay(Path file) {
        closeSessions();
        replayFile = file;
        baseSpec = null;
        handFaults.clear();
        model.handFaults().clear();
        RunSession s = RunSession.start(model.main(), null, loop, feed -> following(new ReplayDriver(file, feed)));
        sessions.add(s);
        applySpeed();
        model.capabilitiesProperty().set(s.driver.capabilities());
        model.window().followProperty().set(true);
    }

    /** The saved log on show, or null when a scenario is. */
    public Path replayFile() {
        return replayFile;
    }

    /** The scenario's spec with the sheet's parameters (no hand faults), or null for a saved log. */
    public RunSpec baseSpec() {
        return baseSpec;
    }

    void baseSpec(RunSpec spec) {
        baseSpec = spec;
    }

    /** Keeps a fault added by hand to a simulated run, so every restart has it. */
    void addHandFault(FaultSpec fault) {
        handFaults.add(fault);
    }

    /** Forgets the faults added by hand; false if there were none. */
    boolean clearHandFaults() {
        if (handFaults.isEmpty()) {
            return false;
        }
        handFaults.clear();
        model.handFaults().clear();
        return true;
    }

    /** The spec the main run uses now (parameters and hand faults applied), or null. */
    public RunSpec currentSpec() {
        return baseSpec == null ? null : withHandFaults(baseSpec);
    }

    /** {@code spec} with the faults added by hand to a simulated run (kept so a replay has them). */
    RunSpec withHandFaults(RunSpec spec) {
        if (handFaults.isEmpty()) {
            return spec;
        }
        List<FaultSpec> faults = new ArrayList<>(spec.faults());
        faults.addAll(handFaults);
        return spec.toBuilder().faults(faults).build();
    }

    // ---- the runs --------------------------------------------------------------------------------

    /** The single live run on show, if it is under way (not comparing, started, not over); else null. */
    RunDriver liveRunUnderway() {
        if (sessions.size() != 1) {
            return null;
        }
        RunDriver driver = sessions.getFirst().driver;
        return driver.capabilities().liveChanges() && driver.underway() ? driver : null;
    }

    /** The spec run number {@code index} on show runs (null for a saved log, or no such run). */
    public RunSpec spec(int index) {
        return index < sessions.size() ? sessions.get(index).spec : null;
    }

    /** Whether any run on show is playing now (a restart then goes on playing). */
    boolean playing() {
        return sessions.stream().anyMatch(s -> s.model.phase() == RunPhase.PLAYING);
    }

    /** Paces every run on show as the model says: its speed, or as fast as possible. */
    void applySpeed() {
        double speed = model.fastestProperty().get() ? Pacer.AS_FAST_AS_POSSIBLE : model.speedProperty().get();
        sessions.forEach(s -> s.driver.setSpeed(speed));
    }

    /**
     * Starts the runs again up to run time {@code micros} (a change made "from now"): exactly at the
     * story step the run is paused at, if it is paused at one (a guided stop, with events of the same
     * instant after it not shown yet), else as fast as possible up to that time.
     */
    void restartFrom(long micros) {
        LessonModel lesson = model.lesson();
        int step = lesson.currentStep();
        if (step >= 0 && step < lesson.reached().size() && lesson.reached().get(step).atMicros() == micros
                && !playing() && model.capabilitiesProperty().get().seek()) {
            restart(0, false);
            sessions.forEach(s -> s.driver.seek(step));
            return;
        }
        restart(micros);
    }

    /** Starts the runs again; they go on playing if they were playing. */
    public void restart(long fastForwardMicros) {
        restart(fastForwardMicros, playing());
    }

    void restart(long fastForwardMicros, boolean play) {
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
        navigation.fit();
        applySpeed();
        if (play) {
            sessions.forEach(s -> s.driver.play());
        }
    }

    /** The holders a fault can be aimed at; left alone when unchanged, so the picker keeps its choice. */
    void showWorkers(RunSpec spec) {
        List<String> names = spec.workers().stream().map(WorkerSpec::name).toList();
        if (!model.workers().equals(names)) {
            model.workers().setAll(names);
        }
    }

    private RunSession startRun(RunModel runModel, RunSpec spec, long fastForwardMicros) {
        Path log = runsDir.resolve(String.format(Locale.ROOT, "%03d-%s.jsonl", runNumber.incrementAndGet(),
                spec.name().replaceAll("[^A-Za-z0-9._-]", "_")));
        Database database = db;
        return RunSession.start(runModel, spec, loop, feed -> following(spec.executor() == ExecutorKind.SIMULATED
                ? new SimulatedDriver(database, spec, log, feed, fastForwardMicros)
                : new LiveDriver(database, spec, log, feed)));
    }

    /** {@code driver}, told the lesson's story and whether guided mode is on. */
    private RunDriver following(RunDriver driver) {
        driver.followStory(List.copyOf(model.lesson().steps()), model.lesson().guidedProperty().get());
        return driver;
    }

    /** Guided mode on or off in every run on show (a run started later reads it from the lesson). */
    public void guide(boolean on) {
        sessions.forEach(s -> s.driver.setGuided(on));
    }

    /**
     * Moves the runs on show to story step {@code step} (0-based), paused exactly there; -1 is the
     * start. Forward, a run plays on to it as fast as it can; back, a simulated run starts again (the
     * same spec and seed, hand faults included, so the same events happen) and a replay is replayed,
     * each as fast as it can to the step. False for a run that cannot seek (a live run).
     */
    public boolean seek(int step) {
        if (sessions.isEmpty() || !model.capabilitiesProperty().get().seek()) {
            return false;
        }
        boolean inPlace = step >= 0 && sessions.stream().noneMatch(s -> s.model.phase().isOver()
                || s.driver.storyReached() > step);
        if (inPlace) {
            sessions.forEach(s -> s.driver.seek(step));
            return true;
        }
        if (replayFile != null) {
            replay(replayFile);
        } else {
            restart(0, false);
        }
        if (step >= 0) {
            sessions.forEach(s -> s.driver.seek(step));
        }
        return true;
    }

    private void closeSessions() {
        sessions.forEach(RunSession::close);
        sessions.clear();
    }

    /** Whether every run on show has ended (tests wait for this). */
    public boolean allOver() {
        return !sessions.isEmpty() && sessions.stream().allMatch(s -> s.model.phase().isOver());
    }

    /** The drivers of the runs on show (run control, tests and the benchmark). */
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
