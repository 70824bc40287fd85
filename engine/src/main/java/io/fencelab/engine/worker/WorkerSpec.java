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
 * @param sequenceWrites whether each write of a job carries an operation sequence number (1, 2, …),
 *                   so the resource can reject a write that arrives after a later one of the same token
 * @param pipelineWrites whether the job's writes are sent back to back without waiting for replies
 *                   (they can then arrive out of order under network jitter)
 * @param role       one lease per job, or a leader working job after job under one lease
 */
public record WorkerSpec(String name, String scope, Duration startAt, Duration workTime, List<TargetWrite> writes,
                         int jobs, Duration idleTime, StalePolicy onStale, boolean checkDeadline,
                         boolean sequenceWrites, boolean pipelineWrites, WorkerRole role) {

    /** A worker that takes one lease per job. */
    public WorkerSpec(String name, String scope, Duration startAt, Duration workTime, List<TargetWrite> writes,
                      int jobs, Duration idleTime, StalePolicy onStale, boolean checkDeadline,
                      boolean sequenceWrites, boolean pipelineWrites) {
        this(name, scope, startAt, workTime, writes, jobs, idleTime, onStale, checkDeadline, sequenceWrites,
                pipelineWrites, WorkerRole.JOBS);
    }

    /** A worker that sends its writes one after another, without sequence numbers. */
    public WorkerSpec(String name, String scope, Duration startAt, Duration workTime, List<TargetWrite> writes,
                      int jobs, Duration idleTime, StalePolicy onStale, boolean checkDeadline) {
        this(name, scope, startAt, workTime, writes, jobs, idleTime, onStale, checkDeadline, false, false);
    }

    public WorkerSpec {
        Objects.requireNonNull(name);
        Objects.requireNonNull(scope);
        Objects.requireNonNull(role);
        if (name.contains("#")) {
            throw new IllegalArgumentException("worker " + name + ": '#' is kept for the names of restarted holders");
        }
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

    /** This worker writing {@code newWrites} instead (the probe and tests point a schedule at another target). */
    public WorkerSpec withWrites(List<TargetWrite> newWrites) {
        return new WorkerSpec(name, scope, startAt, workTime, newWrites, jobs, idleTime, onStale, checkDeadline,
                sequenceWrites, pipelineWrites, role);
    }
}
