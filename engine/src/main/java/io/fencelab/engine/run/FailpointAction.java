package io.fencelab.engine.run;

import java.time.Duration;

/**
 * What an armed failpoint does to the holder that reaches it ({@link Executor#armFailpoint}).
 * Each is the same fault the run's plan can hold, applied at a statement boundary instead of at a run
 * time, and recorded by the same events ({@code FaultInjected}, {@code PauseStarted}), whose detail
 * names the point.
 */
public sealed interface FailpointAction {

    /** The holder's connection is terminated ({@code pg_terminate_backend}), as a connection-kill fault does. */
    record KillConnection() implements FailpointAction {}

    /** The database stops at once and comes back after {@code down} of run time, as a restart fault does. */
    record RestartDatabase(Duration down) implements FailpointAction {}

    /** The holder stops right there for {@code length} of run time while the rest of the run goes on. */
    record Pause(Duration length) implements FailpointAction {}

    /** The database stops for good, outside any fault: the run ends {@code failed: database unreachable}. */
    record StopDatabase() implements FailpointAction {}

    /**
     * The database breaks for good, outside any fault, but keeps answering: {@code breakage} runs right
     * there (a test revokes the run's rights or drops a table), and the run ends {@code failed: <cause>}
     * at the first statement that meets it ({@code docs/RELIABILITY.md}, "When the database breaks").
     */
    record BreakDatabase(Runnable breakage) implements FailpointAction {}
}
