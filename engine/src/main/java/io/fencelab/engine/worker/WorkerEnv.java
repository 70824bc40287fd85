package io.fencelab.engine.worker;

import io.fencelab.engine.event.EventSink;
import io.fencelab.engine.fence.FencingMode;
import io.fencelab.engine.fence.TokenScheme;
import io.fencelab.engine.resource.TargetKind;
import io.fencelab.engine.store.LeaseStore;
import io.fencelab.engine.store.StoreSession;
import io.fencelab.engine.store.TargetStore;
import java.time.Duration;
import java.time.Instant;
import java.util.function.Supplier;
import java.util.random.RandomGenerator;

/**
 * What an executor gives a worker: time, scheduling, the database, faults and the event sink. The
 * simulated and live executors implement it differently; the worker cannot tell them apart.
 */
public interface WorkerEnv {

    /** Run time now, in microseconds. */
    long nowMicros();

    /** An instant of the run clock (for example a lease expiry) as run time in microseconds. */
    long toRunMicros(Instant instant);

    /**
     * Tells the executor the service granted, renewed ({@code ended} false) or released ({@code ended}
     * true) a lease, so it can record the service-side expiry when it passes.
     */
    void leaseChanged(Worker worker, io.fencelab.engine.lease.Lease lease, boolean ended);

    /** The holder's own clock: the run clock plus any clock-skew fault on the holder. */
    Instant holderClock(String holder);

    /** Runs {@code action} for the worker after {@code delay}; deferred while the worker is paused. */
    void later(Worker worker, Duration delay, Runnable action);

    /** Runs {@code action} after {@code delay} whatever the worker does: a message in flight. */
    void inFlight(Worker worker, Duration delay, Runnable action);

    EventSink events();

    /** The worker's database session, opened on first use. */
    StoreSession session(Worker worker);

    /** Drops a broken session; the next {@link #session} opens a fresh one. */
    void discardSession(Worker worker);

    /**
     * A statement failed in a way no fault of the scenario explains
     * ({@link io.fencelab.engine.db.DatabaseFailure#breaksRun}): the run ends now, {@code failed: <cause>},
     * with what happened up to then kept and judged.
     */
    void databaseBroken(io.fencelab.engine.db.DatabaseException failure);

    LeaseStore leases();

    TargetStore<?> target(TargetKind kind, FencingMode mode);

    /** The user's SQL fence named {@code fence} (a write to target {@code SQL}, key {@code fence:key}). */
    TargetStore<?> userTarget(String fence);

    FencingMode defaultFencing();

    TokenScheme tokenScheme();

    Duration leaseTtl();

    /**
     * Runs a grant or a renewal from reading the settings in force to publishing what it got, so a
     * live change of settings is logged before it or after it, never in between: a grant made with a
     * new lease length is numbered after the {@code SettingChanged} that set it. Executors that run
     * one action at a time need nothing more than the call.
     */
    default <T> T underSettings(Supplier<T> call) {
        return call.get();
    }

    /** Zero: never renew. */
    Duration renewInterval();

    /** The lease client's behaviour in force: deadlines, loss notice, retry after a busy answer, lock-delay. */
    io.fencelab.engine.lease.LeaseProfile leaseProfile();

    /**
     * When {@code scope} is in a lock-delay (an invalidated lease, under a profile with one): that lease,
     * its expiry moved to the end of the lock-delay; the service grants nothing on the scope until
     * then. Empty otherwise.
     */
    java.util.Optional<io.fencelab.engine.lease.Lease> lockDelayed(String scope);

    /** The run's seeded generator for this worker. */
    RandomGenerator random(Worker worker);

    /** Extra delay on the holder's requests now (network delay faults). */
    Duration requestDelay(String holder);

    /** The most a request of the holder may be delayed by jitter now (each draws up to this). */
    Duration requestJitter(String holder);

    /** Extra delay on replies to the holder now. */
    Duration replyDelay(String holder);

    /** Extra latency of the lease service for the holder now. */
    Duration leaseServiceDelay(String holder);

    /** Whether the holder's renewals are being dropped now. */
    boolean renewalsDropped(String holder);

    /** Whether the run is over: workers schedule nothing more. */
    boolean finished();
}
