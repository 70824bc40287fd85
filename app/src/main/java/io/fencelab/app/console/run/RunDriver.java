package io.fencelab.app.console.run;

import io.fencelab.app.console.model.Capabilities;
import io.fencelab.app.console.model.RunModel;
import io.fencelab.engine.chaos.FaultKind;
import io.fencelab.engine.check.Judgement;
import io.fencelab.engine.check.Verdict;
import io.fencelab.engine.metrics.MetricsSnapshot;
import io.fencelab.engine.metrics.TuningMetrics;
import io.fencelab.engine.run.RunSpec;
import io.fencelab.scenarios.StoryStep;
import java.time.Duration;
import java.util.List;

/**
 * Moves one run forward on its own thread and tells the console through an
 * {@link io.fencelab.app.console.feed.EventFeed}: the engine's events, and notices (prepared,
 * playing, paused, finished, failed). Every method may be called from the FX thread and returns at
 * once; database work never happens on the caller's thread.
 */
public interface RunDriver {

    /** Starts the driver's thread: it prepares the run and waits, paused at the start. */
    void start();

    void play();

    /** Pauses; a run that cannot pause ({@link Capabilities#pause()} false) ignores it. */
    default void pause() {
    }

    /** Runs until at least one more event has happened, then pauses; a run that cannot pause ignores it. */
    default void step() {
    }

    /**
     * {@link io.fencelab.engine.clock.Pacer#AS_FAST_AS_POSSIBLE} or 0.01 to 100 run seconds per second;
     * a run whose pace is fixed when it starts (a live run) ignores it.
     */
    default void setSpeed(double speed) {
    }

    /** Ends the run now; what happened so far is kept and judged. */
    void stop();

    /** Stops and lets go of the run (its thread finishes on its own; the caller does not wait). */
    void close();

    /** Waits up to {@code millis} for the driver's thread to finish (tests, shutdown). */
    boolean awaitClosed(long millis) throws InterruptedException;

    /** What this kind of run lets a user do (by default nothing but go on). */
    default Capabilities capabilities() {
        return Capabilities.NONE;
    }

    /** Run time now, in microseconds (moves smoothly while playing). */
    long nowMicros();

    /** The checker's verdict on the events so far (cheap: polled every frame); no violation before any. */
    default Verdict verdictSoFar() {
        return RunModel.NO_VIOLATION;
    }

    /** The checker's judgement of the events so far, write classes included (a snapshot); empty before any. */
    default Judgement judgementSoFar() {
        return Judgement.EMPTY;
    }

    /** The metrics of the events so far; none before any. */
    default MetricsSnapshot metricsSoFar() {
        return RunModel.NO_METRICS;
    }

    /** The tuning figures of the events so far, from the run's own collector (the console only shows them). */
    default TuningMetrics tuningSoFar() {
        return TuningMetrics.NONE;
    }

    /** Whether the run is under way: started and not yet over (a live change applies only then). */
    default boolean underway() {
        return false;
    }

    /**
     * Adds a fault to the running run, starting now (runs with {@link Capabilities#liveChanges}).
     *
     * @throws IllegalArgumentException for an unknown holder
     * @throws IllegalStateException    when the run is not under way
     */
    default void injectFault(FaultKind kind, String holder, Duration length, Duration amount) {
        throw new UnsupportedOperationException("this run takes no fault while it runs");
    }

    /**
     * Changes the running run's settings from now on (runs with {@link Capabilities#liveChanges}).
     *
     * @throws IllegalArgumentException if a setting that is fixed for a run differs
     * @throws IllegalStateException    when the run is not under way
     */
    default void change(RunSpec next) {
        throw new UnsupportedOperationException("this run cannot change while it runs");
    }

    /**
     * Follows {@code steps}, the story of the scenario run (called before {@link #start()}): guided
     * mode stops at them and {@link #seek} moves to them. Runs that cannot stop ignore it.
     *
     * @param guided whether the run stops at every step from the start
     */
    default void followStory(List<StoryStep> steps, boolean guided) {
    }

    /**
     * Guided mode on or off: while on, the run pauses at each story step, exactly after the step's
     * event (nothing after it is shown, not even events at the same instant) or, for a step at a run
     * time, before the first event past it. Runs that cannot pause ignore it.
     */
    default void setGuided(boolean on) {
    }

    /**
     * Plays as fast as possible to story step {@code step} (0-based) and pauses exactly there, as
     * guided mode would (runs with {@link Capabilities#seek()}). A run cannot go back: this returns
     * false, doing nothing, when the step has been reached already (the caller starts the run again
     * and seeks in the new one).
     */
    default boolean seek(int step) {
        throw new UnsupportedOperationException("this run cannot seek");
    }

    /** How many story steps the events handed to the console so far have reached. */
    default int storyReached() {
        return 0;
    }
}
