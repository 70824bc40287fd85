package io.fencelab.engine.run;

import io.fencelab.engine.db.RunContext;
import io.fencelab.engine.event.Event.RunEnded;
import io.fencelab.engine.failpoint.Failpoint;
import io.fencelab.engine.store.RunStore;

/**
 * Runs a spec: its workers act, its faults happen, its events go to the sink. An executor is put
 * together from parts, not inherited: a {@link RunScheduler} (virtual time on one thread, or real
 * time on virtual threads), the run's {@link RunStore} (every database operation, the
 * database-restart fault included, goes through it), the {@link FaultScheduler}, and a
 * {@link WorkerPlacement} (threads of this JVM today). {@link SimulatedExecutor} and
 * {@link LiveExecutor} are the two; {@link Run} holds one. Not sealed: a process executor (workers as
 * agent processes, issue 23) is meant to be a third, built from the same parts.
 */
public interface Executor extends AutoCloseable {

    /** The spec the run started with. */
    RunSpec spec();

    /** The settings in force now: {@link #spec()}, or what live changes made of it. */
    RunSpec currentSpec();

    /** Where the run's leases and fenced resources live. */
    RunStore store();

    /**
     * The run's database slice.
     *
     * @throws IllegalStateException for a run on the in-memory backend, which has none
     */
    RunContext runContext();

    /**
     * Runs to the end (its duration passes, it is stopped, or the database is lost) and returns why it
     * ended. When it returns, no action of the run is under way any more, so its final state can be read.
     */
    RunEnded.Reason execute() throws InterruptedException;

    /** Asks the run to end, from any thread; what happened so far is kept. */
    void requestStop();

    /** How the run ended, or null while it goes on. */
    RunEnded.Reason endReason();

    /**
     * Arms {@code point} for the worker {@code holder} (a name in the spec), before the run starts: the
     * first time that worker's statement code reaches it, {@code action} happens. At a point before a
     * statement or between the two of check-then-write it happens right there, inside the statement
     * code. At a point after a statement it happens as soon as the action that ran the statement has
     * recorded the answer (its {@code LeaseAcquired}, {@code WriteAccepted}…), before the holder acts
     * on it: the run's record of what the service did is part of the statement, and a stalled holder
     * cannot hold it back (see {@code docs/RELIABILITY.md}).
     *
     * @throws IllegalArgumentException      for an unknown worker
     * @throws UnsupportedOperationException on the in-memory backend, which runs no statements
     */
    void armFailpoint(Failpoint point, String holder, FailpointAction action);

    /** Whether every armed failpoint has been reached (a test checks its run went where it meant). */
    boolean failpointsReached();

    /** Ends the run if it goes on and lets go of its threads and sessions. */
    @Override
    void close() throws InterruptedException;
}
