package io.fencelab.engine.worker;

import java.time.Duration;
import java.util.List;
import java.util.Objects;

/**
 * One worker (holder identity) of a run.
 *
 * @param name       holder name, unique in the run
 * @param scope      the lease scope it competes for
 * @param startAt    run time of its first acquisition attempt
 * @param workTime   time between acquiring and the first write (preparing the update)
 * @param writes     the destinations of each job, written in order: the protected boundary
 * @param jobs       jobs to do before stopping; 0 means until the run ends
 * @param idleTime   pause between jobs, and back-off after a busy answer
 * @param onStale    what to do on a stale answer
 * @param checkDeadline whether it compares its own clock with the lease expiry before each write
 *                   (not sufficient, as the story shows, but common)
 */
public record WorkerSpec(String name, String scope, Duration startAt, Duration workTime, List<TargetWrite> writes,
                         int jobs, Duration idleTime, StalePolicy onStale, boolean checkDeadline) {

    public WorkerSpec {
        Objects.requireNonNull(name);
        Objects.requireNonNull(scope);
        writes = List.copyOf(writes);
        if (writes.isEmpty()) {
            throw new IllegalArgumentException("worker " + name + " writes nothing");
        }
        if (jobs < 0) {
            throw new IllegalArgumentException("worker " + name + ": jobs must be 0 (unbounded) or more");
        }
        if (idleTime.isNegative() || idleTime.isZero()) {
            throw new IllegalArgumentException("worker " + name + ": idle time must be positive");
        }
    }
}
