package io.fencelab.services;

import io.fencelab.engine.store.RealServices;

/**
 * One run's leases on a real lease service, through that service's own Java client and locking
 * recipe: the engine's {@link LeaseStore} operations, answered by the service. Tokens come from the
 * service's own order (etcd's revisions, ZooKeeper's zxids, a Redis counter), so
 * {@link io.fencelab.engine.store.LeaseStore#startScope} cannot choose them and answers false.
 *
 * <p>Each holder has its own client session (etcd lease with keep-alive, ZooKeeper session, Redisson
 * lock with its watchdog), made at its first acquisition: the client's own threads keep a holder's
 * lease alive, as they would in the holder's real process, and a renewal asks the service whether
 * the lease is still this holder's. A service that cannot be reached fails an operation with a
 * {@link io.fencelab.engine.db.DatabaseException} of kind {@code CONNECTION_LOST}, as a database
 * would, so the worker retries as it does there.
 */
public interface ServiceLeases extends RealServices.Leases {

    /** The service and client in words, for the run's store description: {@code etcd 3.4.23 (jetcd 0.8.7)}. */
    @Override
    String describe();

    /** Where each token comes from, in words: {@code the lock key's create revision}. */
    @Override
    String tokenSource();

    /** Closes every holder's client (their leases end as the service ends a dead client's). */
    @Override
    void close();
}
