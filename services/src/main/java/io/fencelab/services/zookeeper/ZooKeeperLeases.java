package io.fencelab.services.zookeeper;

import io.fencelab.engine.clock.RunClock;
import io.fencelab.engine.db.DatabaseException;
import io.fencelab.engine.db.DatabaseFailure;
import io.fencelab.engine.lease.AcquireResult;
import io.fencelab.engine.lease.Lease;
import io.fencelab.engine.lease.RenewResult;
import io.fencelab.engine.store.StoreSession;
import io.fencelab.services.ServiceLeases;
import io.fencelab.services.zookeeper.ZooKeeperHolder.Grant;
import io.fencelab.services.zookeeper.ZooKeeperHolder.LockNode;
import java.io.IOException;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.Callable;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.Function;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.apache.curator.utils.ZKPaths;
import org.apache.zookeeper.KeeperException;

/**
 * A run's leases on ZooKeeper through Apache Curator: per holder one session ({@link ZooKeeperHolder}),
 * per scope Curator's one-lease semaphore on {@code /fencelab/<runId>/<scope>}. The token is the lock
 * node's czxid (the zxid of the transaction that created it) or, with {@link TokenSource#SEQUENCE},
 * its sequence number; {@code docs/SERVICES.md} says what each guarantees.
 *
 * <p>ZooKeeper tells a client no expiry: a session lives while the server hears from it, and ends
 * {@code sessionTimeout} (rounded up to the server's tick) after it last did. A lease's
 * {@code expiresAt} is therefore {@code now + sessionTimeout}, the latest the session could end if its
 * holder fell silent now, and a {@code Busy} answer gives the same for the other holder.
 *
 * <p>Every call is bounded by {@link #CALL_LIMIT}: a server that does not answer (stopped, frozen,
 * unreachable) fails it with a {@link DatabaseException} of kind {@code CONNECTION_LOST}.
 */
public final class ZooKeeperLeases implements ServiceLeases {

    /** Where a lease's token comes from. */
    public enum TokenSource {
        /** The lock node's czxid: increasing across the ensemble's whole history. */
        CZXID,
        /** The lock node's sequence number under its scope's {@code leases} node. */
        SEQUENCE
    }

    /** How long a holder's first connection may take. */
    static final Duration CONNECT_LIMIT = Duration.ofSeconds(3);
    /** How long any one call may take before it counts as a lost connection. */
    static final Duration CALL_LIMIT = Duration.ofSeconds(4);
    /** How long an acquire waits for the semaphore's internal lock, which another acquirer may hold for a moment. */
    private static final Duration INTERNAL_LOCK_WAIT = Duration.ofMillis(300);
    private static final String CURATOR_VERSION = "5.9.0";

    private final String defaultConnectString;
    private final Function<String, String> connectStringFor;
    private final String runPath;
    private final Duration sessionTimeout;
    private final RunClock clock;
    private final TokenSource tokenSource;
    private final Map<String, ZooKeeperHolder> holders = new ConcurrentHashMap<>();
    private final Map<String, Object> holderLocks = new ConcurrentHashMap<>();
    private final ExecutorService calls = Executors.newVirtualThreadPerTaskExecutor();
    private volatile String serverVersion;

    public ZooKeeperLeases(String connectString, long runId, Duration sessionTimeout, RunClock clock,
                           TokenSource tokenSource) {
        this(connectString, runId, sessionTimeout, clock, tokenSource, holder -> connectString);
    }

    /**
     * As the main constructor, with each holder's client connecting to {@code connectStringFor.apply(holder)}:
     * the seam through which a test sends one holder through a relay it can silence, so that its session
     * expires as a frozen process's would.
     */
    public ZooKeeperLeases(String connectString, long runId, Duration sessionTimeout, RunClock clock,
                           TokenSource tokenSource, Function<String, String> connectStringFor) {
        this.defaultConnectString = Objects.requireNonNull(connectString, "connectString");
        this.runPath = ZKPaths.makePath("/fencelab", Long.toString(runId));
        this.sessionTimeout = Objects.requireNonNull(sessionTimeout, "sessionTimeout");
        this.clock = Objects.requireNonNull(clock, "clock");
        this.tokenSource = Objects.requireNonNull(tokenSource, "tokenSource");
        this.connectStringFor = Objects.requireNonNull(connectStringFor, "connectStringFor");
        if (sessionTimeout.compareTo(ZooKeeperServer.MIN_SESSION) < 0) {
            throw new IllegalArgumentException("sessionTimeout " + sessionTimeout.toMillis()
                    + " ms is shorter than a ZooKeeper session may be (" + ZooKeeperServer.MIN_SESSION.toMillis() + " ms)");
        }
    }

    /** Opens the holder's session now, as its first use would. */
    @Override
    public void connect(String holder) {
        try {
            holder(holder);
        } catch (RuntimeException e) {
            // the holder's first acquisition reports an unreachable server
        }
    }

    @Override
    public boolean startScope(String scope, long firstToken) {
        return false; // tokens are ZooKeeper's
    }

    @Override
    public AcquireResult acquire(StoreSession session, String scope, String holder, Duration ttl) {
        ZooKeeperHolder h = holder(holder);
        synchronized (lockOf(holder)) {
            Answer answer = call("acquire " + scope, () -> tryAcquire(h, scope));
            if (answer.grant() != null) {
                h.keep(scope, answer.grant());
            }
            return answer.result();
        }
    }

    /** What an acquire answers, and the grant behind an {@code Acquired}. */
    private record Answer(AcquireResult result, Grant grant) {
        Answer(AcquireResult result) {
            this(result, null);
        }
    }

    private Answer tryAcquire(ZooKeeperHolder h, String scope) throws Exception {
        String scopePath = ZKPaths.makePath(runPath, scope);
        String leasesPath = ZKPaths.makePath(scopePath, "leases");
        Optional<Grant> mine = h.grant(scope);
        if (mine.isPresent() && h.stillHolds(mine.get().node())) {
            return new Answer(busy(scope, mine.get().node())); // asked again while it holds: the lock is taken, by itself
        }
        h.forget(scope);
        h.ensureParent(leasesPath);
        for (int attempt = 0; attempt < 3; attempt++) {
            Optional<LockNode> owner = h.owner(leasesPath);
            if (owner.isPresent() && owner.get().session() == h.sessionId()) {
                h.deleteOrphan(owner.get()); // made by a call of ours that ran out of time: not a grant anyone saw
                continue;
            }
            if (owner.isPresent()) {
                return new Answer(busy(scope, owner.get()));
            }
            Optional<Grant> grant = h.tryAcquire(scopePath, INTERNAL_LOCK_WAIT);
            if (grant.isPresent()) {
                Instant now = clock.now();
                LockNode node = grant.get().node();
                return new Answer(new AcquireResult.Acquired(new Lease(scope, h.name(), token(node), now,
                        now.plus(h.negotiatedTimeout()))), grant.get());
            }
        }
        // three times free when looked at and taken when tried: busy, by whoever has it now
        return new Answer(h.owner(leasesPath).map(owner -> busy(scope, owner))
                .orElseGet(() -> new AcquireResult.Busy(scope, "", 0, clock.now().plus(sessionTimeout))));
    }

    private AcquireResult busy(String scope, LockNode owner) {
        return new AcquireResult.Busy(scope, owner.holder(), token(owner), clock.now().plus(sessionTimeout));
    }

    private long token(LockNode node) {
        return switch (tokenSource) {
            case CZXID -> node.czxid();
            case SEQUENCE -> node.sequence();
        };
    }

    @Override
    public RenewResult renew(StoreSession session, Lease lease, Duration ttl) {
        ZooKeeperHolder h = holders.get(lease.holder());
        if (h == null) {
            return new RenewResult.NotHeld(lease);
        }
        synchronized (lockOf(lease.holder())) {
            Optional<Grant> grant = h.grant(lease.scope()).filter(g -> token(g.node()) == lease.token());
            if (grant.isEmpty()) {
                return new RenewResult.NotHeld(lease);
            }
            boolean held = call("renew " + lease.scope(), () -> h.stillHolds(grant.get().node()));
            if (!held) {
                h.forget(lease.scope());
                return new RenewResult.NotHeld(lease);
            }
            return new RenewResult.Renewed(lease.withExpiry(clock.now().plus(h.negotiatedTimeout())));
        }
    }

    @Override
    public boolean release(StoreSession session, Lease lease) {
        ZooKeeperHolder h = holders.get(lease.holder());
        if (h == null) {
            return false;
        }
        synchronized (lockOf(lease.holder())) {
            Optional<Grant> grant = h.grant(lease.scope()).filter(g -> token(g.node()) == lease.token());
            if (grant.isEmpty()) {
                return false;
            }
            // Whatever the answer, or none (a connection lost as a leader stops), the holder gives the grant up: a
            // node left behind is then an orphan of its session, which its next acquisition deletes. Remembered, it
            // made the holder busy by itself for the rest of the run.
            h.forget(lease.scope());
            return call("release " + lease.scope(), () -> {
                boolean held = h.stillHolds(grant.get().node());
                if (held) {
                    grant.get().lease().close(); // a guaranteed delete: Curator retries it in the background if it must
                }
                return held;
            });
        }
    }

    /** The holder's session, opened at its first use. */
    private ZooKeeperHolder holder(String name) {
        ZooKeeperHolder existing = holders.get(name);
        if (existing != null) {
            return existing;
        }
        synchronized (lockOf(name)) {
            ZooKeeperHolder again = holders.get(name);
            if (again != null) {
                return again;
            }
            String connectString = connectStringFor.apply(name);
            Optional<ZooKeeperHolder> opened = call("connect",
                    () -> ZooKeeperHolder.open(name, connectString, sessionTimeout, CONNECT_LIMIT));
            ZooKeeperHolder h = opened.orElseThrow(() -> lost("connect", "no connection within "
                    + CONNECT_LIMIT.toMillis() + " ms", null));
            holders.put(name, h);
            return h;
        }
    }

    private Object lockOf(String holder) {
        return holderLocks.computeIfAbsent(holder, k -> new Object());
    }

    /** Runs {@code work} within {@link #CALL_LIMIT}, turning a lost or silent server into CONNECTION_LOST. */
    private <T> T call(String what, Callable<T> work) {
        Future<T> future = calls.submit(work);
        try {
            return future.get(CALL_LIMIT.toMillis(), TimeUnit.MILLISECONDS);
        } catch (TimeoutException e) {
            future.cancel(true);
            throw lost(what, "no answer within " + CALL_LIMIT.toMillis() + " ms", e);
        } catch (InterruptedException e) {
            future.cancel(true);
            Thread.currentThread().interrupt();
            throw lost(what, "interrupted", e);
        } catch (ExecutionException e) {
            throw failure(what, e.getCause());
        }
    }

    private RuntimeException failure(String what, Throwable cause) {
        if (cause instanceof KeeperException k && !connectionTrouble(k.code())) {
            return new DatabaseException(DatabaseFailure.SERVER_ERROR, "ZooKeeper refused " + what + ": " + k.code(),
                    "ZooKeeper refused " + what + ": " + k.getMessage(), k);
        }
        if (cause instanceof KeeperException || cause instanceof IOException || cause instanceof InterruptedException) {
            return lost(what, cause.getClass().getSimpleName() + ": " + cause.getMessage(), cause);
        }
        if (cause instanceof RuntimeException r) {
            return r;
        }
        return lost(what, String.valueOf(cause), cause);
    }

    private static boolean connectionTrouble(KeeperException.Code code) {
        return switch (code) {
            case CONNECTIONLOSS, SESSIONEXPIRED, OPERATIONTIMEOUT, SESSIONMOVED, REQUESTTIMEOUT, THROTTLEDOP -> true;
            default -> false;
        };
    }

    private DatabaseException lost(String what, String why, Throwable cause) {
        return new DatabaseException(DatabaseFailure.CONNECTION_LOST, "ZooKeeper did not answer " + what + ": " + why,
                "ZooKeeper at " + defaultConnectString + " did not answer " + what + ": " + why, cause);
    }

    @Override
    public String describe() {
        return "ZooKeeper " + serverVersion() + " (Curator " + CURATOR_VERSION + ", session timeout "
                + sessionTimeout.toMillis() + " ms)";
    }

    @Override
    public String tokenSource() {
        return switch (tokenSource) {
            case CZXID -> "the lock node's czxid (the zxid of the transaction that created it)";
            case SEQUENCE -> "the lock node's sequence number under its scope's leases node";
        };
    }

    /** The server's version as its {@code srvr} command tells it, asked once. */
    private String serverVersion() {
        String known = serverVersion;
        if (known != null) {
            return known;
        }
        String version = "(version unknown)";
        try {
            Matcher m = Pattern.compile("Zookeeper version: ([0-9][0-9.]*)").matcher(
                    ZooKeeperServer.srvr(defaultConnectString.split(",")[0].trim()));
            if (m.find()) {
                version = m.group(1);
            }
        } catch (IOException | RuntimeException e) {
            // a description without the version is still a description
        }
        serverVersion = version;
        return version;
    }

    /** Deletes the run's nodes and closes every holder's session (the server deletes their lock nodes at once). */
    @Override
    public void close() {
        holders.values().stream().findFirst().ifPresent(h -> {
            try {
                call("delete " + runPath, () -> {
                    h.deleteTree(runPath);
                    return null;
                });
            } catch (RuntimeException e) {
                // the server is gone or silent: the nodes stay, under this run's own path
            }
        });
        holders.values().forEach(ZooKeeperHolder::close);
        holders.clear();
        calls.shutdownNow();
    }
}
