package io.fencelab.app.console;

import io.fencelab.app.console.feed.EventFeed;
import io.fencelab.app.console.model.ConsoleModel;
import io.fencelab.app.console.model.RunInfo;
import io.fencelab.app.console.model.RunModel;
import io.fencelab.app.console.model.RunPhase;
import io.fencelab.app.console.model.TimeWindow;
import io.fencelab.app.console.run.DatabaseSource;
import io.fencelab.app.console.run.RunDriver;
import io.fencelab.app.console.run.RunUpdater;
import io.fencelab.app.console.ui.FrameLoop;
import io.fencelab.app.console.ui.Styles;
import io.fencelab.engine.db.Database;
import io.fencelab.engine.event.Event;
import io.fencelab.engine.run.RunResult;
import io.fencelab.report.Timeline;
import java.nio.file.Path;
import java.util.List;
import java.util.function.Consumer;
import java.util.function.LongConsumer;
import javafx.scene.Scene;
import javafx.stage.Stage;

/**
 * What the benchmarks may use of the console, and nothing more: a console on a stage (the real one,
 * as {@code ./fencelab} builds it, or one without a database, filled by hand), its frames, what its
 * main run shows, and the few things a user does to it. The console's packages stay free to change
 * behind it. Everything but the static methods is called on the FX thread.
 */
public final class ConsoleProbe {

    private final Console console;
    private final Stage stage;
    private final boolean own;

    private ConsoleProbe(Console console, Stage stage, boolean own) {
        this.console = console;
        this.stage = stage;
        this.own = own;
    }

    // ---- JavaFX as the console starts it --------------------------------------------------------

    /** Whether a display can show a window (else a benchmark runs on Monocle, headless). */
    public static boolean displayAvailable() {
        return ConsoleLauncher.displayAvailable();
    }

    /** The rendering settings the console starts with, so a benchmark measures what users get. */
    public static void configureRendering() {
        ConsoleLauncher.configureRendering();
    }

    // ---- a console -----------------------------------------------------------------------------

    /** The console as {@code ./fencelab} opens it, on {@code db} (which stays the caller's), shown in {@code stage}. */
    public static ConsoleProbe open(Stage stage, Database db) {
        return new ConsoleProbe(Console.show(stage, DatabaseSource.lent(db)), stage, false);
    }

    /**
     * The console's window without a database, {@code width} by {@code height}, its frame loop running
     * and nothing on show: a benchmark fills the main run itself ({@link #show}, {@link #takeEvents}).
     */
    public static ConsoleProbe offline(String title, double width, double height) {
        Console console = new Console(new ConsoleModel(), new FrameLoop(), DatabaseSource.lent(null),
                Console.runsDirectory());
        Scene scene = new Scene(console.view(), width, height);
        scene.getStylesheets().add(Styles.STYLESHEET);
        Stage stage = new Stage();
        stage.setTitle(title);
        stage.setScene(scene);
        stage.show();
        console.loop().start();
        return new ConsoleProbe(console, stage, true);
    }

    public Scene scene() {
        return console.scene();
    }

    /** Runs {@code task} once per frame, given the frame's time in ns, after the frame tasks added before it. */
    public void everyFrame(LongConsumer task) {
        console.loop().addUpdate(task::accept);
    }

    /** How long the main timeline's last redraw took, in ns (a new value: it redrew). */
    public long lastTimelineDrawNanos() {
        return console.view().timeline().lastDrawNanos();
    }

    /** Stops the console's runs and closes its window. */
    public void close() {
        console.close();
        if (own) {
            console.loop().stop();
            stage.close();
        } else {
            stage.hide();
        }
    }

    // ---- what a user does --------------------------------------------------------------------------

    public boolean databaseReady() {
        return console.model().databaseReadyProperty().get();
    }

    /** Opens a scenario file as Open scenario file… does; its problems, if any, in {@link #scenarioProblem()}. */
    public void openScenarioFile(Path file) {
        console.scenarios().openScenarioFile(file);
    }

    /** Why the last scenario file could not be opened; empty when it could. */
    public String scenarioProblem() {
        return console.model().scenarioProblemProperty().get();
    }

    /** Opens a saved run's event log as Open run… does. */
    public void openSavedRun(Path eventLog) {
        console.scenarios().openSavedRun(eventLog);
    }

    public void play() {
        console.runs().play();
    }

    /** Run seconds per real second. */
    public void setSpeed(double speed) {
        console.runs().setSpeed(speed);
    }

    // ---- what the main run shows -----------------------------------------------------------------

    /** Prepared and waiting (paused), as a run is before Play. */
    public boolean waiting() {
        return main().phase() == RunPhase.PAUSED;
    }

    public boolean playing() {
        return main().phase() == RunPhase.PLAYING;
    }

    /** Finished, stopped or failed. */
    public boolean over() {
        return main().phase().isOver();
    }

    public int eventsShown() {
        return main().events().size();
    }

    /** The newest event on show, or null. */
    public Event newestShown() {
        return main().events().last();
    }

    public List<Event> shownEvents() {
        return main().events().toList();
    }

    /** The finished run's result, or null. */
    public RunResult result() {
        return main().resultProperty().get();
    }

    /** The run's own clock, in run microseconds (0 before any run). */
    public long runNowMicros() {
        List<RunDriver> drivers = console.sessions().drivers();
        return drivers.isEmpty() ? 0 : drivers.getFirst().nowMicros();
    }

    // ---- filling an offline console by hand --------------------------------------------------------

    /**
     * Puts {@code log} and its {@code timeline} on show as a playing run called {@code name}, the
     * whole run in the window (an empty log shows an empty timeline of ten minutes).
     */
    public void show(String name, List<Event> log, Timeline timeline) {
        RunModel run = main();
        if (!log.isEmpty()) {
            run.events().addAll(log);
            run.rows().addAll(log);
            log.stream().map(Event::holder).filter(h -> h != null).distinct().forEach(run.holders()::add);
            run.eventCountProperty().set(log.size());
        }
        long end = log.isEmpty() ? 600_000_000 : log.getLast().atMicros();
        run.infoProperty().set(new RunInfo(name, "simulated", "7", "FENCED", "MONOTONIC", end, "", ""));
        run.endMicrosProperty().set(end);
        run.timelineProperty().set(timeline);
        run.phaseProperty().set(RunPhase.PLAYING);
        showWholeRun(end);
    }

    /** Where the playhead is drawn, in run microseconds. */
    public long playheadMicros() {
        return main().nowMicrosProperty().get();
    }

    public void setPlayheadMicros(long micros) {
        main().nowMicrosProperty().set(micros);
    }

    /** The start of the stretch of time the timeline shows, in run microseconds. */
    public double windowStart() {
        return console.model().window().start();
    }

    /** Shows run time {@code start} to {@code start + span} on the timeline. */
    public void showWindow(double start, double span) {
        console.model().window().show(start, span);
    }

    public double windowSpan() {
        return console.model().window().span();
    }

    /**
     * Makes the main run a playing run that ends at {@code endMicros} and takes its events from the
     * returned consumer (subscribe it to an event bus), as a run's feed does: drained once a frame
     * into the model, the table and the timeline rebuilt in the background.
     */
    public Consumer<List<Event>> takeEvents(long endMicros) {
        RunModel run = main();
        EventFeed feed = new EventFeed();
        console.loop().addUpdate(new RunUpdater(run, feed, new FeedOnly(run)));
        run.phaseProperty().set(RunPhase.PLAYING);
        run.endMicrosProperty().set(endMicros);
        showWholeRun(endMicros);
        return feed;
    }

    private void showWholeRun(long endMicros) {
        TimeWindow window = console.model().window();
        window.extentProperty().set(endMicros);
        window.showAll();
    }

    private RunModel main() {
        return console.model().main();
    }

    /** A run with nothing to drive: its time is its newest event's, and it can do nothing but go on. */
    private record FeedOnly(RunModel run) implements RunDriver {
        @Override
        public void start() {
        }

        @Override
        public void play() {
        }

        @Override
        public void stop() {
        }

        @Override
        public void close() {
        }

        @Override
        public boolean awaitClosed(long millis) {
            return true;
        }

        @Override
        public long nowMicros() {
            Event last = run.events().last();
            return last == null ? 0 : last.atMicros();
        }
    }
}
