package io.fencelab.engine.run;

import io.fencelab.engine.db.Database;
import java.time.Clock;

/**
 * One agent of a process run, inside the agent's JVM ({@code fencelab agent}): it joins the run's
 * database slice, takes its part of the plan, runs its one worker in real time on a clock corrected
 * to the database's, and sends every event back through the database; it takes the orders the run
 * sends it (fault occurrences aimed at it, a connection kill, the end) and leaves when the run is over.
 */
public final class AgentRun {

    /** What an agent needs to join: the run, which worker it is, and how it was started. */
    public record Joining(long runId, String worker, String host, int incarnation, boolean newIdentity) {
    }

    private AgentRun() {
    }

    /**
     * Runs the agent to its end: says it is up, waits for the run's start, runs its worker, and returns
     * when the run is over or ordered to end. {@code compile} turns the plan text back into the run's spec.
     *
     * @param rawClock this host's clock (an artificial offset already applied in tests)
     * @return the process exit code: 0 after a normal end
     */
    public static int run(Database db, Joining joining, java.util.function.Function<String, RunSpec> compile,
                          Clock rawClock) throws InterruptedException {
        throw new UnsupportedOperationException("not yet");
    }
}
