package io.fencelab.engine.run;

import io.fencelab.engine.chaos.FaultKind;
import io.fencelab.engine.chaos.FaultOccurrence;
import java.time.Duration;

/**
 * What a person can do to a run in real time while it runs: inject a fault now, change its settings.
 * A live run does both to its threads; a process run injects faults into its agents' processes and
 * refuses changes (its agents' plan is fixed when they start).
 */
public interface ByHand {

    /** See {@link LiveExecutor#inject}. */
    FaultOccurrence inject(FaultKind kind, String target, Duration length, Duration amount);

    /** See {@link LiveExecutor#change}. */
    void change(RunSpec next);
}
