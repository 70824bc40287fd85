package io.fencelab.engine.store;

import io.fencelab.engine.lease.AcquireResult;
import io.fencelab.engine.lease.Lease;
import io.fencelab.engine.lease.RenewResult;
import java.time.Duration;
import java.util.function.Consumer;

/**
 * One run's leases, as a worker uses them: the four operations of
 * {@link io.fencelab.engine.lease.LeaseService}, with its result types and rules (see
 * {@code docs/ARCHITECTURE.md}, "The atomic statements").
 */
public interface LeaseStore {

    /** Moves a scope's counter forward so its next grant is {@code firstToken}; false if it was already there or beyond. */
    boolean startScope(String scope, long firstToken);

    /** Grants {@code scope} to {@code holder} for {@code ttl} if it is free or expired, with the next token. */
    AcquireResult acquire(StoreSession session, String scope, String holder, Duration ttl);

    /** Extends the lease while it is this holder's, with this token, unexpired. */
    RenewResult renew(StoreSession session, Lease lease, Duration ttl);

    /** Frees the scope under the same conditions as renewal; the counter stays. */
    boolean release(StoreSession session, Lease lease);

    /**
     * Starts {@code holder}'s client of a real lease service now and connects it (its session, for
     * ZooKeeper), so that its first acquisition is not also its client's start, which takes a second or
     * more in a cold JVM: a pause timed for a holder would otherwise find it still connecting. A failure
     * is left for that first acquisition to report. PostgreSQL's table needs nothing.
     */
    default void connect(String holder) {
    }

    /**
     * Where this store grants and counts in two steps (Redis's lock, then {@code INCR}), it calls
     * {@code hook} with the holder's name on the acquiring thread between the two, and answers true. A
     * store that grants and counts in one step answers false: the moment right after the grant is when
     * {@link #acquire} returns it.
     */
    default boolean betweenGrantAndToken(Consumer<String> hook) {
        return false;
    }

    /**
     * Whether this store grants first and counts the token in a later step, so that a grant's
     * {@link Lease#acquiredAt} (the grant) can come long before its token: the checker then orders such grants
     * by when they were made.
     */
    default boolean countsAfterGrant() {
        return false;
    }

    /**
     * Stops {@code holder}'s client from keeping its leases alive, as freezing its process would stop
     * the client's own threads (a real service's keep-alive); a store whose holders renew only by their
     * own calls has nothing to stop.
     */
    default void freeze(String holder) {
    }

    /** Lets {@code holder}'s client keep its leases alive again, as its thawed process would. */
    default void thaw(String holder) {
    }
}
