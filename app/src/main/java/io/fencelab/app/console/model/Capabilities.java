package io.fencelab.app.console.model;

/**
 * What a run can be asked to do (each kind of run says, and the controls follow).
 *
 * @param pause       it can be paused and stepped, and its speed changed
 * @param handFaults  a fault can be injected on a chosen holder while it runs
 * @param liveChanges faults and parameter changes apply to the running run itself, from now on
 *                    (a live run); without it, the console replays the run with them instead
 */
public record Capabilities(boolean pause, boolean handFaults, boolean liveChanges) {

    /** What a run that can do nothing but go on is capable of (before any run, a flood of events). */
    public static final Capabilities NONE = new Capabilities(false, false, false);

    /**
     * Whether it can be moved to a story step: a run that can pause can (a simulated run is run
     * again to there, a replay is replayed to there); a live run cannot.
     */
    public boolean seek() {
        return pause;
    }
}
