package io.fencelab.app.console;

import io.fencelab.app.console.compare.CompareController;
import io.fencelab.app.console.export.ExportController;
import io.fencelab.app.console.model.ConsoleModel;
import io.fencelab.app.console.probe.ProbeController;
import io.fencelab.app.console.run.DatabaseSource;
import io.fencelab.app.console.run.FaultController;
import io.fencelab.app.console.run.RunController;
import io.fencelab.app.console.run.RunSessions;
import io.fencelab.app.console.run.ScenarioController;
import io.fencelab.app.console.timeline.NavigationController;
import io.fencelab.app.console.tune.TuneController;
import io.fencelab.app.console.ui.FrameLoop;
import io.fencelab.app.console.ui.Intents;
import io.fencelab.app.console.ui.Styles;
import io.fencelab.app.console.workshop.LessonController;
import io.fencelab.app.console.workshop.VoteController;
import io.fencelab.app.console.workshop.WorkshopController;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Objects;
import javafx.scene.Scene;
import javafx.stage.Stage;

/**
 * The console, wired: one model, a controller per feature, one view, one frame loop. This is the
 * one place views meet controllers: the view fires {@link Intents}, and here each intent is handed
 * to the controller of its feature. Controllers change the model; the view binds to it. The
 * application and the tests both build the console here.
 */
public final class Console {

    private final ConsoleModel model;
    private final FrameLoop loop;
    private final RunSessions sessions;
    private final ScenarioController scenarios;
    private final RunController runs;
    private final FaultController faults;
    private final NavigationController navigation;
    private final ExportController export;
    private final CompareController compare;
    private final TuneController tune;
    private final WorkshopController workshop;
    private final LessonController lesson;
    private final VoteController votes;
    private final ProbeController probe;
    private final ConsoleView view;

    /** Wires a console over {@code model} and {@code loop}; not yet in a scene, nor started. */
    public Console(ConsoleModel model, FrameLoop loop, DatabaseSource database, Path runsDir) {
        this.model = model;
        this.loop = loop;
        navigation = new NavigationController(model);
        sessions = new RunSessions(model, loop, database, runsDir, navigation);
        scenarios = new ScenarioController(model, sessions);
        runs = new RunController(model, sessions, scenarios);
        faults = new FaultController(model, sessions);
        export = new ExportController(model, sessions);
        compare = new CompareController(model, sessions);
        tune = new TuneController(model, sessions, scenarios, loop, runsDir);
        workshop = new WorkshopController(model, scenarios, tune, runs, sessions);
        lesson = new LessonController(model, sessions, runs);
        votes = new VoteController(model);
        probe = new ProbeController(model, sessions, runsDir);
        view = new ConsoleView(model, new Intents(
                new Intents.Scenarios(scenarios::select, scenarios::openScenarioFile, scenarios::openSavedRun),
                new Intents.Runs(runs::togglePlay, runs::step, runs::setSpeed, runs::setFastest, runs::restart,
                        runs::newSeed, runs::applyParameters, runs::faster, runs::slower),
                new Intents.Faults(faults::injectFault, faults::clearHandFaults),
                new Intents.Navigation(navigation::zoom, navigation::pan, navigation::pin, navigation::fit,
                        navigation::focusWitness),
                new Intents.Export(export::exportReport, export::savePng, export::exportHandout),
                new Intents.Compare(compare::setCompare, compare::setComparison),
                new Intents.Tune(tune::chooseScenario, tune::run, tune::stop, tune::resume, tune::exportReport,
                        tune::setMetric, tune::openWorst, tune::show),
                new Intents.Workshop(workshop::openShipped, workshop::openFile, workshop::choose, workshop::next,
                        workshop::previous, workshop::setPresenter, workshop::setTeacher,
                        workshop::toggleHeatmap, votes::raiseHand),
                new Intents.Lesson(lesson::setGuided, lesson::toggleGuided, lesson::continueLesson, lesson::back,
                        lesson::seek, lesson::pick, lesson::togglePresenter, lesson::clearQuestion),
                new Intents.Probe(probe::start, probe::stop)), loop);
        view.teacher().showHands(new io.fencelab.app.console.workshop.HandsInput(model, votes::setHands));
    }

    /** Builds the console into {@code stage}, shows it, and starts it (database opening in the background). */
    public static Console show(Stage stage, DatabaseSource database) {
        Console console = new Console(new ConsoleModel(), new FrameLoop(), database, runsDirectory());
        // As large as a classroom projector shows well, but never larger than the screen.
        javafx.geometry.Rectangle2D screen = javafx.stage.Screen.getPrimary().getVisualBounds();
        Scene scene = new Scene(console.view, Math.min(1600, screen.getWidth()), Math.min(960, screen.getHeight()));
        scene.getStylesheets().add(Styles.STYLESHEET);
        console.view.installShortcuts(scene);
        stage.setTitle("Fencelab console");
        stage.setScene(scene);
        // Closing the console closes the teacher's window too, which would otherwise keep the program running.
        stage.setOnHidden(e -> console.model.lesson().teacherProperty().set(false));
        stage.setMinWidth(Math.min(1100, screen.getWidth()));
        stage.setMinHeight(Math.min(700, screen.getHeight()));
        // The window takes the scene's size even on a stage shown before at another size (tests reuse one stage).
        stage.sizeToScene();
        stage.show();
        console.start();
        return console;
    }

    /** Starts the frame loop (the timeline window following the playhead), loads the catalog, opens the database. */
    public void start() {
        loop.addUpdate(now -> navigation.follow());
        loop.addUpdate(workshop::tick);
        loop.addUpdate(now -> lesson.follow());
        loop.addUpdate(votes::tick);
        loop.start();
        scenarios.loadCatalog();
        sessions.openDatabase();
    }

    /** Where the console's runs record their event logs: a fresh temporary directory per console. */
    static Path runsDirectory() {
        try {
            Path dir = Files.createTempDirectory("fencelab-console-runs");
            dir.toFile().deleteOnExit();
            return dir;
        } catch (IOException e) {
            throw new UncheckedIOException("cannot create a directory for the console's event logs", e);
        }
    }

    public ConsoleModel model() {
        return model;
    }

    /** The runs on show and the database (tests and the benchmark read their drivers). */
    public RunSessions sessions() {
        return sessions;
    }

    public ScenarioController scenarios() {
        return scenarios;
    }

    public RunController runs() {
        return runs;
    }

    public FaultController faults() {
        return faults;
    }

    public NavigationController navigation() {
        return navigation;
    }

    public ExportController export() {
        return export;
    }

    public CompareController compare() {
        return compare;
    }

    public TuneController tune() {
        return tune;
    }

    public WorkshopController workshop() {
        return workshop;
    }

    /** The room's votes: the vote server and its counts. */
    public VoteController votes() {
        return votes;
    }

    /** The probe of the scenario's own SQL fences. */
    public ProbeController probe() {
        return probe;
    }

    public LessonController lesson() {
        return lesson;
    }

    public ConsoleView view() {
        return view;
    }

    public FrameLoop loop() {
        return loop;
    }

    /** The scene the view is in (null until shown). */
    public Scene scene() {
        return view.getScene();
    }

    /** Stops every run and closes the database if the console opened it. */
    public void close() {
        // The teacher's window goes with the console, and the window leaves full screen.
        model.lesson().teacherProperty().set(false);
        model.lesson().presenterProperty().set(false);
        tune.shutdown();
        probe.shutdown();
        votes.shutdown();
        sessions.shutdown();
    }
}
