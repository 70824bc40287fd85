package io.fencelab.app.console.model;

/** Where a run shown by the console is in its life. */
public enum RunPhase {
    /** Nothing to show yet: no scenario chosen, or the database is still starting. */
    IDLE,
    /** The run is being prepared (database work, or a saved log being read). */
    PREPARING,
    /** Prepared and stopped at a moment of run time, waiting for play or step. */
    PAUSED,
    /** Time is moving. */
    PLAYING,
    /** The run reached its end (completed or stopped). */
    ENDED,
    /** The run could not go on (database lost, bad file); what happened so far stays shown. */
    FAILED;

    public boolean isLive() {
        return this == PAUSED || this == PLAYING;
    }

    public boolean isOver() {
        return this == ENDED || this == FAILED;
    }
}
