package io.fencelab.app.console.ui;

import io.fencelab.app.console.model.Comparison;
import io.fencelab.app.console.model.HandFault;
import io.fencelab.app.console.model.Parameters;
import io.fencelab.app.console.model.RunModel;
import io.fencelab.scenarios.CatalogEntry;
import java.awt.image.BufferedImage;
import java.nio.file.Path;
import java.util.function.BiConsumer;
import java.util.function.Consumer;
import java.util.function.DoubleConsumer;
import java.util.function.IntConsumer;
import java.util.function.ObjIntConsumer;
import java.util.function.ObjLongConsumer;

/**
 * What a user can ask of the console: plain handlers, one record per feature. Views call them and
 * know nothing of what answers; {@code Console} wires each handler to its feature controller, the
 * one place views and controllers meet. Controllers answer by changing the model, which views bind to.
 */
public record Intents(Scenarios scenarios, Runs runs, Faults faults, Navigation navigation, Export export,
                      Compare compare, Tune tune, Workshop workshop,
                      Lesson lesson, Probe probe) {

    /** Choosing what to show: a catalog entry, a scenario file, a saved run. */
    public record Scenarios(Consumer<CatalogEntry> select, Consumer<Path> openFile, Consumer<Path> openSavedRun) {
    }

    /** Steering the runs on show (faster and slower: the next speed up or down, the keys' steps). */
    public record Runs(Runnable togglePlay, Runnable step, DoubleConsumer speed, Consumer<Boolean> fastest,
                       Runnable restart, Runnable newSeed, Consumer<Parameters> applyParameters, Runnable faster,
                       Runnable slower) {
    }

    /** Faults by hand: add one on a holder, or clear them all. */
    public record Faults(BiConsumer<HandFault, String> inject, Runnable clear) {
    }

    /**
     * Where the timelines look: zoom by a factor (below 1 zooms in) around a run time, pan by run
     * microseconds, pin an event of a run (0 unpins), fit the whole run, move to witness n (1-based).
     */
    public record Navigation(Zoom zoom, DoubleConsumer pan, ObjLongConsumer<RunModel> pin, Runnable fit,
                             ObjIntConsumer<RunModel> focusWitness) {
    }

    /** The report bundle into a folder, and a picture into a file; each tells its outcome to a callback (or null). */
    public record Export(BiConsumer<Path, Consumer<String>> report, SavePicture picture,
                         BiConsumer<Path, Consumer<String>> handout) {
    }

    /** Comparing on or off, and what the two runs differ in. */
    public record Compare(Consumer<Boolean> compare, Consumer<Comparison> comparison) {
    }

    /**
     * The Tune view: choose the scenario to sweep (fills the form), run the form's sweep, stop it,
     * resume it on its folder, write its report, choose the heatmap's metric, open a point's worst
     * seed on the timeline (by the point's index), show the Tune view (true) or the timeline.
     */
    public record Tune(Consumer<String> scenario, Runnable run, Runnable stop, Runnable resume, Runnable export,
                       Consumer<String> metric, IntConsumer openWorst, Consumer<Boolean> show) {
    }

    /**
     * Workshops: open the shipped one or a file, choose a lesson (0-based), the next or previous
     * lesson, the presenter view and the teacher's window on (true) or off, the sweep's heatmap in
     * the presenter view on or off, one more raised hand for a choice (0-based) of the question on screen.
     */
    public record Workshop(Runnable openShipped, Consumer<Path> openFile, IntConsumer choose, Runnable next,
                           Runnable previous, Consumer<Boolean> presenter, Consumer<Boolean> teacher,
                           Runnable toggleHeatmap, IntConsumer raiseHand) {
    }

    /**
     * The lesson: guided mode on or off, Continue, Back, move to a story step (0-based; -1 the
     * start), mark the room's pick for the question asked (0-based), the presenter view on or off,
     * take the question off the screen.
     */
    public record Lesson(Consumer<Boolean> guided, Runnable toggleGuided, Runnable next, Runnable back,
                         IntConsumer seek, IntConsumer pick, Runnable togglePresenter, Runnable clearQuestion) {
    }

    /** The probe of the scenario's own SQL fences: start it, stop it. */
    public record Probe(Runnable start, Runnable stop) {
    }

    @FunctionalInterface
    public interface Zoom {
        void zoom(double factor, double aroundMicros);
    }

    @FunctionalInterface
    public interface SavePicture {
        void save(BufferedImage image, Path file, Consumer<String> done);
    }
}
