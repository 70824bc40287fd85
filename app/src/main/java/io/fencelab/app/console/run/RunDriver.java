package io.fencelab.app.console.run;

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

    void pause();

    /** Runs until at least one more event has happened, then pauses. */
    void step();

    /** {@link io.fencelab.engine.clock.Pacer#AS_FAST_AS_POSSIBLE} or 0.01 to 100 run seconds per second. */
    void setSpeed(double speed);

    /** Ends the run now; what happened so far is kept and judged. */
    void stop();

    /** Stops and lets go of the run (its thread finishes on its own; the caller does not wait). */
    void close();

    /** Waits up to {@code millis} for the driver's thread to finish (tests, shutdown). */
    boolean awaitClosed(long millis) throws InterruptedException;

    /** What this kind of run lets a user do. */
    Capabilities capabilities();

    /** Run time now, in microseconds (moves smoothly while playing). */
    long nowMicros();

    /** The checker's verdict on the events so far (cheap: polled every frame). */
    Verdict verdictSoFar();

    /** The checker's judgement of the events so far, write classes included (a snapshot). */
    Judgement judgementSoFar();

    /** The metrics of the events so far. */
    MetricsSnapshot metricsSoFar();

    /** The tuning figures of the events so far, from the run's own collector (the console only shows them). */
    TuningMetrics tuningSoFar();

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

    /**
     * What a run can be asked to do.
     *
     * @param pause       it can be paused and stepped, and its speed changed
     * @param handFaults  a fault can be injected on a chosen holder while it runs
     * @param liveChanges faults and parameter changes apply to the running run itself, from now on
     *                    (a live run); without it, the console replays the run with them instead
     */
    record Capabilities(boolean pause, boolean handFaults, boolean liveChanges) {

        /**
         * Whether it can be moved to a story step: a run that can pause can (a simulated run is run
         * again to there, a replay is replayed to there); a live run cannot.
         */
        public boolean seek() {
            return pause;
        }
    }
}
