package io.fencelab.engine.run;

/** How a run is executed. */
public enum ExecutorKind {
    /** Virtual clock, one thread, real SQL: replayable byte for byte. */
    SIMULATED,
    /** Real threads (virtual threads), real time, real races. */
    LIVE,
    /**
     * Real time, every worker its own JVM ({@code fencelab agent}) on this machine or on an agent host,
     * coordinated through the run's database: a pause freezes the whole process (SIGSTOP), a crash kills
     * it (SIGKILL). See {@code docs/DISTRIBUTED.md}.
     */
    PROCESS
}
