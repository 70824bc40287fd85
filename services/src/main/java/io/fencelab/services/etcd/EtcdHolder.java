package io.fencelab.services.etcd;

import io.etcd.jetcd.Client;
import io.etcd.jetcd.lease.LeaseGrantResponse;
import io.etcd.jetcd.lease.LeaseKeepAliveResponse;
import io.etcd.jetcd.support.CloseableClient;
import io.fencelab.engine.clock.RunClock;
import io.grpc.stub.StreamObserver;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.locks.ReentrantLock;

/**
 * One holder's side of etcd, as its own process would have it: its own jetcd {@link Client} (its own
 * connection and threads) and, per scope, one etcd lease that the client's keep-alive renews every
 * third of its TTL by itself. A lease the client has given up on (no keep-alive answer within its TTL)
 * or that etcd said is gone is dead: the next acquisition grants a new one instead.
 */
final class EtcdHolder implements AutoCloseable {

    /** One etcd lease of this holder and its keep-alive. */
    static final class LeaseState {
        final long id;
        /** The TTL etcd granted, in seconds (etcd raises a TTL under its minimum, 2 s by default). */
        final long ttlSeconds;
        private volatile CloseableClient keepAlive;
        private volatile boolean dead;
        private volatile Instant lastKeepAlive;

        LeaseState(long id, long ttlSeconds, Instant grantedAt) {
            this.id = id;
            this.ttlSeconds = ttlSeconds;
            this.lastKeepAlive = grantedAt;
        }

        boolean dead() {
            return dead;
        }

        void markDead() {
            dead = true;
        }

        /** When the last keep-alive answer arrived (or the grant, before the first). */
        Instant lastKeepAlive() {
            return lastKeepAlive;
        }
    }

    private final String name;
    private final Client client;
    private final RunClock clock;
    private final String where;
    private final Map<String, LeaseState> leases = new ConcurrentHashMap<>();
    /** One operation of this holder at a time (a ReentrantLock: a waiting virtual thread does not pin its carrier). */
    final ReentrantLock lock = new ReentrantLock();

    EtcdHolder(String name, Client client, RunClock clock, String where) {
        this.name = name;
        this.client = client;
        this.clock = clock;
        this.where = where;
    }

    Client client() {
        return client;
    }

    /** This holder's live lease for {@code scope}, granted now (with {@code ttlSeconds}) if it has none or it is dead. */
    LeaseState liveLease(String scope, long ttlSeconds, long deadlineNanos) {
        LeaseState current = leases.get(scope);
        if (current != null && !current.dead()) {
            return current;
        }
        if (current != null) {
            stopKeepAlive(current);
        }
        LeaseGrantResponse granted = EtcdCalls.await(client.getLeaseClient().grant(ttlSeconds), deadlineNanos, where,
                "a lease grant for " + name);
        LeaseState lease = new LeaseState(granted.getID(), granted.getTTL(), clock.now());
        startKeepAlive(lease);
        leases.put(scope, lease);
        return lease;
    }

    Optional<LeaseState> lease(String scope) {
        return Optional.ofNullable(leases.get(scope));
    }

    /** Stops keeping {@code scope}'s lease alive and revokes it (its key, if any, goes with it); a failure is ignored. */
    void revoke(String scope, long deadlineNanos) {
        LeaseState lease = leases.remove(scope);
        if (lease == null) {
            return;
        }
        stopKeepAlive(lease);
        lease.markDead();
        try {
            EtcdCalls.await(client.getLeaseClient().revoke(lease.id), deadlineNanos, where, "a lease revoke for " + name);
        } catch (RuntimeException e) {
            // the lease has no key left and runs out on etcd within its TTL by itself
        }
    }

    /**
     * Stops every keep-alive of this holder without revoking, as a frozen process's keep-alive threads
     * stop: etcd expires the leases at their TTL after the last keep-alive.
     */
    void suspendKeepAlive() {
        leases.values().forEach(this::stopKeepAlive);
    }

    /** Starts the keep-alives again, as a thawed process's threads do; a lease etcd has expired meanwhile turns dead. */
    void resumeKeepAlive() {
        leases.values().stream().filter(l -> !l.dead() && l.keepAlive == null).forEach(this::startKeepAlive);
    }

    private void startKeepAlive(LeaseState lease) {
        lease.keepAlive = client.getLeaseClient().keepAlive(lease.id, new StreamObserver<>() {
            @Override
            public void onNext(LeaseKeepAliveResponse r) {
                lease.lastKeepAlive = clock.now();
            }

            @Override
            public void onError(Throwable t) {
                // a broken stream is retried by jetcd every 500 ms; only "no such lease" ends the lease
                if (EtcdCalls.leaseNotFound(t)) {
                    lease.markDead();
                }
            }

            @Override
            public void onCompleted() {
                lease.markDead(); // jetcd's deadline: no keep-alive answered within the TTL
            }
        });
    }

    private void stopKeepAlive(LeaseState lease) {
        CloseableClient k = lease.keepAlive;
        lease.keepAlive = null;
        if (k != null) {
            k.close(); // removes the observer; with none left jetcd stops sending for this lease
        }
    }

    /** Closes the client without revoking: etcd ends the leases at their TTL, as it does a dead process's. */
    @Override
    public void close() {
        leases.values().forEach(this::stopKeepAlive);
        client.close();
    }

    /**
     * The whole seconds of an etcd lease for {@code ttl}: etcd's TTL is in seconds, so a fraction rounds up;
     * at least 1 (etcd itself raises any TTL under its minimum, 2 s with the default election timeout).
     */
    static long ttlSeconds(Duration ttl) {
        return Math.max(1, ttl.getSeconds() + (ttl.getNano() > 0 ? 1 : 0));
    }
}
