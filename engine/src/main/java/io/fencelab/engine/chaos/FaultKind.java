package io.fencelab.engine.chaos;

/** The faults a run can inject. */
public enum FaultKind {
    /** Process pause (GC stall, VM suspension): the holder cannot act or observe time passing. */
    PAUSE,
    /** Network delay on the holder's requests: a write sent before expiry can land after it. */
    REQUEST_DELAY,
    /**
     * Network jitter on the holder's requests: each is delayed by a random time up to the fault's
     * amount, so requests sent back to back can arrive in the other order.
     */
    REQUEST_JITTER,
    /** Network delay on replies: the holder learns outcomes late. */
    REPLY_DELAY,
    /** Renewals are dropped on the way while the holder believes they succeed. */
    RENEWAL_LOSS,
    /** The holder's clock runs ahead (positive skew) or behind; matters for wall-clock tokens. */
    CLOCK_SKEW,
    /** The holder's database session is terminated ({@code pg_terminate_backend}). */
    CONNECTION_KILL,
    /** The embedded PostgreSQL is stopped and started again after the fault's duration. */
    DATABASE_RESTART,
    /** Acquire and renew answer slowly. */
    SLOW_LEASE_SERVICE,
    /**
     * The holder's process dies without releasing: everything it had scheduled is dropped, its belief
     * ends, its lease runs out on the service. With a duration it restarts after it as a fresh process
     * (no belief, no lease), under the same holder name or a new one ({@link FaultSpec.Identity}).
     */
    CRASH,
    /**
     * A real lease service's server, one Fencelab started for the run, is frozen (SIGSTOP) for the
     * fault's duration: every client's calls and keep-alives wait, and its clock runs on.
     */
    SERVICE_PAUSE,
    /** That server is stopped and started again after the fault's duration, on its data. */
    SERVICE_RESTART,
    /**
     * The member that leads a three-member etcd or ZooKeeper ensemble Fencelab started is stopped; it
     * starts again after the fault's duration (zero: it stays down to the end of the run). The other two
     * elect a new leader and the clients fail over.
     */
    SERVICE_LEADER_STOP;

    /** Whether it hits the run's lease service (target {@code service}) rather than a holder or the database. */
    public boolean onService() {
        return this == SERVICE_PAUSE || this == SERVICE_RESTART || this == SERVICE_LEADER_STOP;
    }
}
