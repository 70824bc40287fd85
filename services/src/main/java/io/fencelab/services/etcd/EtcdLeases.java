package io.fencelab.services.etcd;

import io.etcd.jetcd.ByteSequence;
import io.etcd.jetcd.Client;
import io.etcd.jetcd.KeyValue;
import io.etcd.jetcd.Watch;
import io.etcd.jetcd.kv.GetResponse;
import io.etcd.jetcd.kv.TxnResponse;
import io.etcd.jetcd.op.Cmp;
import io.etcd.jetcd.op.CmpTarget;
import io.etcd.jetcd.op.Op;
import io.etcd.jetcd.options.DeleteOption;
import io.etcd.jetcd.options.GetOption;
import io.etcd.jetcd.options.LeaseOption;
import io.etcd.jetcd.options.PutOption;
import io.etcd.jetcd.options.WatchOption;
import io.etcd.jetcd.watch.WatchEvent;
import io.fencelab.engine.clock.RunClock;
import io.fencelab.engine.db.DatabaseException;
import io.fencelab.engine.lease.AcquireResult;
import io.fencelab.engine.lease.Lease;
import io.fencelab.engine.lease.RenewResult;
import io.fencelab.engine.store.StoreSession;
import io.fencelab.services.ServiceLeases;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A run's leases on etcd through jetcd, with the recipe of etcd's own {@code concurrency} package:
 * each holder has its own {@link Client} and, per scope, an etcd lease of the profile's {@code ttl}
 * (in whole seconds, rounded up) that the client's keep-alive renews by itself. A scope is the key
 * {@code /fencelab/<runId>/<scope>}, holding the holder's name and attached to its lease.
 *
 * <ul>
 *   <li>acquire: one transaction {@code If(createRevision(key) == 0) Then(put(key, holder, lease))
 *       Else(get(key))}. The token is the key's create revision (the transaction's revision): etcd's
 *       revision counter only grows, across keys and restarts, so a later grant in a scope always has a
 *       larger token. A busy answer names the value's holder, its create revision, and the expiry etcd
 *       gives for its lease (whole seconds, rounded down); with under a second left the candidate first
 *       waits, as etcd's own lock does, on a watch for the key's deletion, and then tries once more.</li>
 *   <li>renew: asks whether the key still exists with this create revision and its lease too; the
 *       new expiry is the TTL after the client's last keep-alive answer. The keep-alive, not renew,
 *       is what extends the lease.</li>
 *   <li>release: {@code If(createRevision(key) == token) Then(delete(key))}, then revokes that lease;
 *       the next acquisition grants a new one.</li>
 * </ul>
 *
 * <p>Every operation is bounded by {@link #DEFAULT_CALL_LIMIT} in all; a server that does not answer
 * within it, or cannot be reached, fails the operation with {@link DatabaseException} {@code CONNECTION_LOST}.
 */
public final class EtcdLeases implements ServiceLeases {

    /** How long one operation (all its calls together) may wait for etcd. */
    public static final Duration DEFAULT_CALL_LIMIT = Duration.ofSeconds(3);
    /**
     * How long a candidate that found a lease in its last second waits for its key to go: the second, and the
     * 500 ms etcd may take to notice an expired lease.
     */
    static final Duration DELETION_WAIT = Duration.ofMillis(1_500);
    /** The jetcd version the services module pins (its jar carries none to read). */
    static final String JETCD_VERSION = "0.8.7";
    private static final Pattern SERVER_VERSION = Pattern.compile("\"etcdserver\"\\s*:\\s*\"([^\"]+)\"");

    private final List<String> endpoints;
    private final String where;
    private final String prefix;
    private final long ttlSeconds;
    private final RunClock clock;
    private final Duration callLimit;
    private final Map<String, EtcdHolder> holders = new ConcurrentHashMap<>();
    private volatile boolean closed;
    private volatile String serverVersion;

    /**
     * @param endpoints the client URLs, comma-separated: {@code http://127.0.0.1:2379}
     * @param runId     the run, whose keys live under {@code /fencelab/<runId>/}
     * @param ttl       the etcd profile's lease TTL (etcd takes whole seconds: a fraction rounds up)
     */
    public EtcdLeases(String endpoints, long runId, Duration ttl, RunClock clock) {
        this(endpoints, runId, ttl, clock, DEFAULT_CALL_LIMIT);
    }

    /** As above, every operation bounded by {@code callLimit} (tests use a shorter one). */
    EtcdLeases(String endpoints, long runId, Duration ttl, RunClock clock, Duration callLimit) {
        this.endpoints = Arrays.stream(endpoints.split(",")).map(String::strip).filter(s -> !s.isEmpty()).toList();
        if (this.endpoints.isEmpty()) {
            throw new IllegalArgumentException("no etcd endpoint given (expected e.g. http://127.0.0.1:2379)");
        }
        this.where = "etcd at " + String.join(",", this.endpoints);
        this.prefix = "/fencelab/" + runId + "/";
        this.ttlSeconds = EtcdHolder.ttlSeconds(ttl);
        this.clock = clock;
        this.callLimit = callLimit;
    }

    @Override
    public String describe() {
        return "etcd " + serverVersion() + " (jetcd " + JETCD_VERSION + ")";
    }

    @Override
    public String tokenSource() {
        return "the lock key's create revision";
    }

    /** jetcd connects at a client's first call: this makes one, a read of the run's own prefix. */
    @Override
    public void connect(String holder) {
        try {
            EtcdCalls.await(holder(holder).client().getKVClient().get(bytes(prefix), GetOption.builder()
                    .withCountOnly(true).build()), deadline(), where, "the connection of " + holder);
        } catch (RuntimeException e) {
            // the holder's first acquisition reports an unreachable server
        }
    }

    /** Tokens are etcd's revisions: a scope's counter cannot be set. */
    @Override
    public boolean startScope(String scope, long firstToken) {
        return false;
    }

    @Override
    public AcquireResult acquire(StoreSession session, String scope, String holder, Duration ttl) {
        long deadline = deadline();
        EtcdHolder h = holder(holder);
        h.lock.lock();
        try {
            for (boolean waited = false; ; waited = true) {
                EtcdHolder.LeaseState lease = h.liveLease(scope, ttlSeconds, deadline);
                TxnResponse r;
                try {
                    r = grantTxn(h, scope, holder, lease, deadline);
                } catch (DatabaseException e) {
                    if (!EtcdCalls.leaseNotFound(e)) {
                        throw e;
                    }
                    lease.markDead(); // expired on etcd before the client noticed: grant a new one and try once more
                    lease = h.liveLease(scope, ttlSeconds, deadline);
                    r = grantTxn(h, scope, holder, lease, deadline);
                }
                Instant now = clock.now();
                if (r.isSucceeded()) {
                    long token = r.getHeader().getRevision(); // the put's revision: the key's create revision
                    return new AcquireResult.Acquired(new Lease(scope, holder, token, now, expiry(lease)));
                }
                KeyValue kv = r.getGetResponses().getFirst().getKvs().getFirst();
                if (text(kv.getValue()).equals(holder) && kv.getLease() == lease.id) {
                    // this holder's own grant, whose answer an earlier call lost to its time limit
                    return new AcquireResult.Acquired(new Lease(scope, holder, kv.getCreateRevision(), now,
                            expiry(lease)));
                }
                long left = remainingSeconds(h.client(), kv.getLease(), deadline, "the busy lease of " + scope);
                // Under a second left (etcd's TTL is whole seconds, rounded down), or expired and not yet taken
                // away (etcd looks every 500 ms): a waiter answered "now" would ask again at once, over and over.
                // etcd's own lock waits on a watch for the key's deletion instead; so does this, once.
                if (left > 0 || waited || !awaitDeletion(h.client(), key(scope), kv.getModRevision(), deadline)) {
                    return new AcquireResult.Busy(scope, text(kv.getValue()), kv.getCreateRevision(),
                            now.plusSeconds(Math.max(0, left)));
                }
            }
        } finally {
            h.lock.unlock();
        }
    }

    /**
     * Waits, as {@code concurrency.Mutex} does, for {@code key} to be deleted after {@code modRevision}: at most
     * {@link #DELETION_WAIT}, leaving a third of the operation's limit for the next transaction.
     *
     * @return whether it was deleted in time
     */
    private boolean awaitDeletion(Client client, ByteSequence key, long modRevision, long deadline) {
        long wait = Math.min(DELETION_WAIT.toNanos(), deadline - System.nanoTime() - callLimit.toNanos() / 3);
        if (wait <= 0) {
            return false;
        }
        CountDownLatch deleted = new CountDownLatch(1);
        WatchOption after = WatchOption.builder().withRevision(modRevision + 1).build();
        try (Watch.Watcher ignored = client.getWatchClient().watch(key, after, r -> {
            if (r.getEvents().stream().anyMatch(e -> e.getEventType() == WatchEvent.EventType.DELETE)) {
                deleted.countDown();
            }
        })) {
            return deleted.await(wait, TimeUnit.NANOSECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        }
    }

    /**
     * When {@code lease} ends as its client knows it: its TTL after the last keep-alive etcd answered (jetcd's
     * own deadline), to the millisecond, where etcd's {@code TimeToLive} answers whole seconds rounded down.
     */
    private static Instant expiry(EtcdHolder.LeaseState lease) {
        return lease.lastKeepAlive().plusSeconds(lease.ttlSeconds);
    }

    private TxnResponse grantTxn(EtcdHolder h, String scope, String holder, EtcdHolder.LeaseState lease,
            long deadline) {
        ByteSequence key = key(scope);
        return EtcdCalls.await(h.client().getKVClient().txn()
                .If(new Cmp(key, Cmp.Op.EQUAL, CmpTarget.createRevision(0)))
                .Then(Op.put(key, bytes(holder), PutOption.builder().withLeaseId(lease.id).build()))
                .Else(Op.get(key, GetOption.DEFAULT))
                .commit(), deadline, where, "the acquisition of " + scope + " by " + holder);
    }

    @Override
    public RenewResult renew(StoreSession session, Lease lease, Duration ttl) {
        long deadline = deadline();
        EtcdHolder h = holders.get(lease.holder());
        if (h == null) {
            return new RenewResult.NotHeld(lease);
        }
        h.lock.lock();
        try {
            GetResponse got = EtcdCalls.await(h.client().getKVClient().get(key(lease.scope())), deadline, where,
                    "the renewal of " + lease.scope() + " by " + lease.holder());
            Optional<KeyValue> kv = got.getKvs().stream().findFirst();
            if (kv.isEmpty() || kv.get().getCreateRevision() != lease.token()
                    || !text(kv.get().getValue()).equals(lease.holder())) {
                return new RenewResult.NotHeld(lease);
            }
            // The key is there, so nobody else can have the scope; -1: the lease is gone (its key goes in the same
            // step). The expiry is the client's own (its last keep-alive answer and the TTL): etcd's remaining TTL
            // is whole seconds rounded down, which made a holder believe its lease ended up to a second early.
            long left = remainingSeconds(h.client(), kv.get().getLease(), deadline, "the lease of " + lease.scope());
            if (left < 0) {
                return new RenewResult.NotHeld(lease);
            }
            Instant byEtcd = clock.now().plusSeconds(left);
            Instant byClient = h.lease(lease.scope()).filter(l -> l.id == kv.get().getLease()).map(EtcdLeases::expiry)
                    .orElse(byEtcd);
            return new RenewResult.Renewed(lease.withExpiry(byClient.isAfter(byEtcd) ? byClient : byEtcd));
        } finally {
            h.lock.unlock();
        }
    }

    @Override
    public boolean release(StoreSession session, Lease lease) {
        long deadline = deadline();
        EtcdHolder h = holders.get(lease.holder());
        if (h == null) {
            return false;
        }
        h.lock.lock();
        try {
            ByteSequence key = key(lease.scope());
            TxnResponse r = EtcdCalls.await(h.client().getKVClient().txn()
                    .If(new Cmp(key, Cmp.Op.EQUAL, CmpTarget.createRevision(lease.token())))
                    .Then(Op.delete(key, DeleteOption.DEFAULT))
                    .commit(), deadline, where, "the release of " + lease.scope() + " by " + lease.holder());
            if (!r.isSucceeded()) {
                return false;
            }
            h.revoke(lease.scope(), deadline);
            return true;
        } finally {
            h.lock.unlock();
        }
    }

    /**
     * A fault seam, for tests and the engine: stops {@code holder}'s keep-alives without revoking, as
     * its process's threads stop when the process is frozen (SIGSTOP). etcd then expires its leases at
     * their TTL after the last keep-alive etcd answered; {@link #resumeKeepAlive} starts them again.
     */
    public void suspendKeepAlive(String holder) {
        Optional.ofNullable(holders.get(holder)).ifPresent(EtcdHolder::suspendKeepAlive);
    }

    /** Starts {@code holder}'s keep-alives again, as a thawed process's threads do. */
    public void resumeKeepAlive(String holder) {
        Optional.ofNullable(holders.get(holder)).ifPresent(EtcdHolder::resumeKeepAlive);
    }

    @Override
    public void freeze(String holder) {
        suspendKeepAlive(holder);
    }

    @Override
    public void thaw(String holder) {
        resumeKeepAlive(holder);
    }

    /** When the keep-alive of {@code holder}'s lease for {@code scope} last answered (its grant before that), if any. */
    Optional<Instant> lastKeepAlive(String holder, String scope) {
        return Optional.ofNullable(holders.get(holder)).flatMap(h -> h.lease(scope))
                .map(EtcdHolder.LeaseState::lastKeepAlive);
    }

    /** Closes every holder's client without revoking: etcd ends their leases at the TTL. */
    @Override
    public void close() {
        closed = true;
        holders.values().forEach(EtcdHolder::close);
        holders.clear();
    }

    private EtcdHolder holder(String name) {
        if (closed) {
            throw new IllegalStateException("the etcd leases of this run are closed");
        }
        return holders.computeIfAbsent(name, n -> new EtcdHolder(n, Client.builder()
                .endpoints(endpoints.toArray(String[]::new))
                // gRPC's wait-for-ready would queue a call while no connection can be made: fail at once instead
                .waitForReady(false)
                .connectTimeout(callLimit)
                // jetcd retries an unavailable server's call with back-off; never past an operation's limit
                .retryMaxDuration(callLimit)
                .build(), clock, where));
    }

    /** The seconds etcd says {@code leaseId} has left (-1: no such lease; 0: under a second). */
    private long remainingSeconds(Client client, long leaseId, long deadline, String what) {
        if (leaseId == 0) {
            return 0;
        }
        return EtcdCalls.await(client.getLeaseClient().timeToLive(leaseId, LeaseOption.DEFAULT), deadline, where,
                "the time to live of " + what).getTTL();
    }

    private long deadline() {
        return System.nanoTime() + callLimit.toNanos();
    }

    private ByteSequence key(String scope) {
        return bytes(prefix + scope);
    }

    private static ByteSequence bytes(String s) {
        return ByteSequence.from(s, StandardCharsets.UTF_8);
    }

    private static String text(ByteSequence b) {
        return b.toString(StandardCharsets.UTF_8);
    }

    /** The server's version from its {@code /version} (asked once), or {@code ?} when it does not answer. */
    private String serverVersion() {
        String v = serverVersion;
        if (v != null) {
            return v;
        }
        try {
            HttpClient http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1)
                    .connectTimeout(Duration.ofSeconds(1)).build();
            HttpResponse<String> r = http.send(HttpRequest.newBuilder(URI.create(endpoints.getFirst() + "/version"))
                    .timeout(Duration.ofSeconds(2)).build(), HttpResponse.BodyHandlers.ofString());
            Matcher m = SERVER_VERSION.matcher(r.body());
            if (m.find()) {
                serverVersion = m.group(1);
                return serverVersion;
            }
        } catch (IOException | IllegalArgumentException e) {
            // an unreachable server is told by the first operation; here only the version is missing
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        return "?";
    }
}
