package io.fencelab.engine.worker;

/** How a worker uses its lease. */
public enum WorkerRole {
    /** One lease per job: acquire, work, write, release, idle, and again (a scheduled task's lock). */
    JOBS,
    /**
     * Acquire once and work job after job under the same lease, renewing, until the lease is lost, the
     * process crashes or the run ends; a leader that loses its lease is a candidate again (leader
     * election, and most lease users).
     */
    LEADER
}
