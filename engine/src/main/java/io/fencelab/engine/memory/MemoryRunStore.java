package io.fencelab.engine.memory;

import io.fencelab.engine.check.ValueDigest;
import io.fencelab.engine.clock.RunClock;
import io.fencelab.engine.db.DatabaseException;
import io.fencelab.engine.db.RunContext;
import io.fencelab.engine.fence.FencingMode;
import io.fencelab.engine.fence.FirstWritePolicy;
import io.fencelab.engine.fence.WriteOutcome;
import io.fencelab.engine.lease.AcquireResult;
import io.fencelab.engine.lease.Lease;
import io.fencelab.engine.lease.LeaseService;
import io.fencelab.engine.lease.RenewResult;
import io.fencelab.engine.resource.ResourceState;
import io.fencelab.engine.resource.TargetKind;
import io.fencelab.engine.store.LeaseStore;
import io.fencelab.engine.store.RunStore;
import io.fencelab.engine.store.StoreSession;
import io.fencelab.engine.store.TargetStore;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.TreeMap;
import java.util.concurrent.atomic.AtomicLong;

/**
 * A model of one run's lease table and fenced tables, in memory, for simulated sweeps: each method
 * does what the PostgreSQL statement of the same name does (see {@code docs/ARCHITECTURE.md}, "The
 * atomic statements"), judged at the run clock's virtual instant. It is licensed only by the
 * equivalence test ({@code BackendEquivalenceProperties}), which runs the same schedules on both and
 * compares the event logs byte for byte; a change to a statement must change its model here too.
 *
 * <p>Not thread-safe: a simulated run calls it from its one scheduler thread. Live runs never use it
 * (their expiry is judged by the database's clock).
 */
public final class MemoryRunStore implements RunStore {

    /**
     * What the first statement on a terminated session fails with on PostgreSQL 17 through pgjdbc:
     * the {@code OperationFailed} reason of a connection-kill fault, captured from real runs.
     */
    static final String KILLED = "database error (SQL state 57P01): FATAL: terminating connection due to administrator command";

    private static final AtomicLong RUN_IDS = new AtomicLong();

    private final long runId = RUN_IDS.incrementAndGet();
    private final String semantics;
    private final RunClock clock;
    private final Map<String, ScopeRow> scopes = new HashMap<>();
    private final Map<TargetKind, Map<Key, Resource>> resources = new EnumMap<>(TargetKind.class);
    private final LeaseStore leases = new Leases();
    private boolean down;

    /**
     * @param semantics the PostgreSQL this models, as {@code RunStarted} names it ({@code PostgreSQL 17.6})
     * @param clock     a simulated run's clock: expiry is judged at its {@link RunClock#expiryJudgedAt()}
     * @throws IllegalArgumentException for a clock that leaves expiry to the database (a live run's)
     */
    public MemoryRunStore(String semantics, RunClock clock) {
        this.semantics = Objects.requireNonNull(semantics);
        this.clock = clock;
        if (clock.expiryJudgedAt().isEmpty()) {
            throw new IllegalArgumentException("the in-memory backend needs a simulated run's clock; "
                    + "a live run's expiry is judged by PostgreSQL's clock");
        }
        for (TargetKind kind : TargetKind.BUILT_IN) {
            resources.put(kind, new HashMap<>());
        }
    }

    @Override
    public long runId() {
        return runId;
    }

    @Override
    public Optional<RunContext> runContext() {
        return Optional.empty();
    }

    @Override
    public String semantics() {
        return semantics;
    }

    @Override
    public String describe() {
        return "in-memory model of " + semantics;
    }

    @Override
    public LeaseStore leases() {
        return leases;
    }

    @Override
    public TargetStore<?> target(TargetKind kind, FencingMode mode, FirstWritePolicy firstWrite) {
        return kind == TargetKind.OBJECT ? new Target<byte[]>(kind, mode, firstWrite)
                                         : new Target<String>(kind, mode, firstWrite);
    }

    /** As {@code FinalStateLoader}: by target, then scope and key (Java's string order). */
    @Override
    public List<ResourceState> finalState() {
        List<ResourceState> states = new ArrayList<>();
        for (TargetKind kind : TargetKind.BUILT_IN) {
            new TreeMap<>(resources.get(kind)).forEach((k, r) -> states.add(new ResourceState(kind, k.scope, k.key,
                    r.token, r.value instanceof byte[] b ? ValueDigest.of(b) : ValueDigest.of((String) r.value))));
        }
        return List.copyOf(states);
    }

    @Override
    public StoreSession openSession() {
        if (down) {
            throw new IllegalStateException("no session while the modelled database is down");
        }
        return new Session();
    }

    /** As {@code PostgresRunStore.kill}: the next statement fails; killing it again changes nothing. */
    @Override
    public void kill(StoreSession s) {
        Session session = (Session) s;
        if (session.state == Connection.OPEN) {
            session.state = Connection.TERMINATED;
        }
    }

    @Override
    public void stop() {
        down = true;
    }

    @Override
    public void start() {
        down = false;
    }

    @Override
    public boolean isReachable() {
        return !down;
    }

    /** The modelled database can always be stopped and started. */
    @Override
    public Optional<String> restartRefusal() {
        return Optional.empty();
    }

    @Override
    public void close() {
        // nothing is held outside this object
    }

    // ---- sessions ---------------------------------------------------------------------------

    /** Where a session's connection stands, as pgjdbc and the server see it. */
    private enum Connection {
        OPEN,
        /** The backend was terminated; the driver finds out at the next statement, which fails with {@link #KILLED}. */
        TERMINATED,
        /**
         * The failure was reported. An executor discards a session after its first failure, so a
         * statement on it now is a bug of the caller (on PostgreSQL its error would depend on when
         * the pool closes the connection).
         */
        FAILED
    }

    /** A worker's connection. */
    private static final class Session implements StoreSession {
        private Connection state = Connection.OPEN;
        private boolean closed;

        @Override
        public void close() {
            closed = true;
        }
    }

    /** Every statement starts here: a killed session fails it, a closed one is a bug of the caller. */
    private void statement(StoreSession s) {
        Session session = (Session) s;
        if (session.closed || down) {
            throw new IllegalStateException("a statement on a closed session, or while the database is down");
        }
        switch (session.state) {
            case OPEN -> { }
            case TERMINATED -> {
                session.state = Connection.FAILED;
                throw new DatabaseException(KILLED);
            }
            case FAILED -> throw new IllegalStateException("a statement on a session whose failure was reported");
        }
    }

    private Instant now() {
        return clock.expiryJudgedAt().orElseThrow();
    }

    // ---- leases: LeaseService's ACQUIRE, RENEW, RELEASE and START_SCOPE ---------------------

    /** A {@code lease} row: the counter, and the holder with its times while held (all null when free). */
    private static final class ScopeRow {
        long token;
        String holder;
        Instant acquiredAt;
        Instant expiresAt;

        ScopeRow(long token) {
            this.token = token;
        }

        /** {@code holder IS NULL OR expires_at <= now} */
        boolean freeAt(Instant now) {
            return holder == null || !expiresAt.isAfter(now);
        }

        /** {@code holder = p.holder AND token = ? AND expires_at > now} */
        boolean heldBy(Lease lease, Instant now) {
            return holder != null && holder.equals(lease.holder()) && token == lease.token() && expiresAt.isAfter(now);
        }
    }

    private final class Leases implements LeaseStore {
        @Override
        public boolean startScope(String scope, long firstToken) {
            if (firstToken < 1) {
                throw new IllegalArgumentException("a scope's first token must be at least 1, was " + firstToken);
            }
            ScopeRow row = scopes.get(scope);
            if (row == null) {
                scopes.put(scope, new ScopeRow(firstToken - 1));
                return true;
            }
            if (row.token < firstToken - 1) {
                row.token = firstToken - 1;
                return true;
            }
            return false;
        }

        @Override
        public AcquireResult acquire(StoreSession session, String scope, String holder, Duration ttl) {
            long ttlMicros = LeaseService.ttlMicros(ttl);
            statement(session);
            Instant now = now();
            ScopeRow row = scopes.get(scope);
            if (row == null) {
                row = new ScopeRow(0);
                scopes.put(scope, row);
                return grant(row, scope, holder, now, ttlMicros);
            }
            if (row.freeAt(now) && row.token < Long.MAX_VALUE) {
                return grant(row, scope, holder, now, ttlMicros);
            }
            if (row.freeAt(now)) {
                return new AcquireResult.Exhausted(scope, row.token);
            }
            return new AcquireResult.Busy(scope, row.holder, row.token, row.expiresAt);
        }

        private AcquireResult grant(ScopeRow row, String scope, String holder, Instant now, long ttlMicros) {
            row.token++;
            row.holder = holder;
            row.acquiredAt = now;
            row.expiresAt = now.plus(ttlMicros, ChronoUnit.MICROS);
            return new AcquireResult.Acquired(new Lease(scope, holder, row.token, row.acquiredAt, row.expiresAt));
        }

        @Override
        public RenewResult renew(StoreSession session, Lease lease, Duration ttl) {
            long ttlMicros = LeaseService.ttlMicros(ttl);
            statement(session);
            Instant now = now();
            ScopeRow row = scopes.get(lease.scope());
            if (row == null || !row.heldBy(lease, now)) {
                return new RenewResult.NotHeld(lease);
            }
            row.expiresAt = now.plus(ttlMicros, ChronoUnit.MICROS);
            return new RenewResult.Renewed(lease.withExpiry(row.expiresAt));
        }

        @Override
        public boolean release(StoreSession session, Lease lease) {
            statement(session);
            ScopeRow row = scopes.get(lease.scope());
            if (row == null || !row.heldBy(lease, now())) {
                return false;
            }
            row.holder = null;
            row.acquiredAt = null;
            row.expiresAt = null;
            return true;
        }
    }

    // ---- fenced targets: fenced_write_*, blind_write_* and check-then-write -----------------

    private record Key(String scope, String key) implements Comparable<Key> {
        @Override
        public int compareTo(Key o) {
            int c = scope.compareTo(o.scope);
            return c != 0 ? c : key.compareTo(o.key);
        }
    }

    /** A fenced row: the value, the greatest accepted token, the last op sequence under it (or null). */
    private static final class Resource {
        Object value;
        long token;
        Long seq;

        Resource(Object value, long token, Long seq) {
            this.value = value;
            this.token = token;
            this.seq = seq;
        }

        /** Applies a write; returns the token it replaced (what the audit trigger reports). */
        long overwrite(Object newValue, long newToken, Long newSeq) {
            long replaced = token;
            value = newValue;
            token = newToken;
            seq = newSeq;
            return replaced;
        }
    }

    private final class Target<V> implements TargetStore<V> {
        private final TargetKind kind;
        private final FencingMode mode;
        private final FirstWritePolicy firstWrite;
        private final Map<Key, Resource> table;
        private Runnable betweenCheckAndWrite = () -> { };

        Target(TargetKind kind, FencingMode mode, FirstWritePolicy firstWrite) {
            this.kind = kind;
            this.mode = Objects.requireNonNull(mode);
            this.firstWrite = Objects.requireNonNull(firstWrite);
            this.table = resources.get(kind);
        }

        @Override
        public TargetKind kind() {
            return kind;
        }

        @Override
        public FencingMode mode() {
            return mode;
        }

        @Override
        public FirstWritePolicy firstWritePolicy() {
            return firstWrite;
        }

        @Override
        public void setBetweenCheckAndWrite(Runnable hook) {
            betweenCheckAndWrite = Objects.requireNonNull(hook);
        }

        @Override
        public WriteOutcome write(StoreSession session, String scope, String key, long token, Long seq, V value) {
            statement(session);
            Key k = new Key(scope, key);
            return switch (mode) {
                case FENCED -> fenced(k, token, seq, value);
                case UNFENCED -> blind(k, token, seq, value);
                case CHECK_THEN_WRITE -> checkThenWrite(session, k, token, seq, value);
            };
        }

        /** {@code fenced_write_*}: the conditional update, else why not (stale, out of order, missing), else create. */
        private WriteOutcome fenced(Key k, long token, Long seq, V value) {
            Resource r = table.get(k);
            if (r == null) {
                return create(k, token, seq, value);
            }
            if (r.token < token || (r.token == token && (seq == null || r.seq == null || r.seq < seq))) {
                return new WriteOutcome.Accepted(token, r.overwrite(copy(value), token, seq));
            }
            if (r.token > token) {
                return new WriteOutcome.Stale(token, r.token);
            }
            return new WriteOutcome.OutOfOrder(token, seq, r.seq);
        }

        /** {@code blind_write_*}: no comparison; the token is stored, never compared. */
        private WriteOutcome blind(Key k, long token, Long seq, V value) {
            Resource r = table.get(k);
            if (r == null) {
                return create(k, token, seq, value);
            }
            return new WriteOutcome.Accepted(token, r.overwrite(copy(value), token, seq));
        }

        private WriteOutcome create(Key k, long token, Long seq, V value) {
            if (firstWrite == FirstWritePolicy.MISSING) {
                return new WriteOutcome.Missing(k.key);
            }
            table.put(k, new Resource(copy(value), token, seq));
            return new WriteOutcome.Accepted(token, null);
        }

        /** A read, then (a separate statement) the blind write: a newer holder may write in between. */
        private WriteOutcome checkThenWrite(StoreSession session, Key k, long token, Long seq, V value) {
            Resource seen = table.get(k);
            if (seen == null && firstWrite == FirstWritePolicy.MISSING) {
                return new WriteOutcome.Missing(k.key);
            }
            if (seen != null) {
                if (seen.token > token) {
                    return new WriteOutcome.Stale(token, seen.token);
                }
                if (seen.token == token && seq != null && seen.seq != null && seen.seq >= seq) {
                    return new WriteOutcome.OutOfOrder(token, seq, seen.seq);
                }
            }
            betweenCheckAndWrite.run();
            statement(session);
            return blind(k, token, seq, value);
        }

        private Object copy(V value) {
            return value instanceof byte[] bytes ? bytes.clone() : Objects.requireNonNull(value);
        }
    }
}
