package io.fencelab.engine.run;

/** How a run is executed. */
public enum ExecutorKind {
    /** Virtual clock, one thread, real SQL: replayable byte for byte. */
    SIMULATED,
    /** Real threads (virtual threads), real time, real races. */
    LIVE
}
