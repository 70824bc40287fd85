package io.fencelab.engine.store;

import io.fencelab.engine.check.FinalStateLoader;
import io.fencelab.engine.check.ResourceState;
import io.fencelab.engine.clock.RunClock;
import io.fencelab.engine.db.Database;
import io.fencelab.engine.db.RunContext;
import io.fencelab.engine.db.Session;
import io.fencelab.engine.fence.FencedTarget;
import io.fencelab.engine.fence.FencingMode;
import io.fencelab.engine.fence.FirstWritePolicy;
import io.fencelab.engine.fence.TargetKind;
import io.fencelab.engine.fence.WriteOutcome;
import io.fencelab.engine.lease.AcquireResult;
import io.fencelab.engine.lease.Lease;
import io.fencelab.engine.lease.LeaseService;
import io.fencelab.engine.lease.RenewResult;
import java.time.Duration;
import java.util.List;
import java.util.Optional;

/**
 * A run on PostgreSQL: {@link LeaseService} and {@link FencedTarget} on the worker's
 * {@link Session}, unchanged; this class only passes calls through. Its sessions are
 * {@link Session}s, and only they are accepted.
 */
public final class PostgresRunStore implements RunStore {

    private final Database db;
    private final RunContext run;
    private final LeaseService leaseService;
    private final LeaseStore leases;
    /** The failpoint seam, passed to the lease service and every target made; null in production. */
    private Failpoints failpoints;

    private PostgresRunStore(Database db, RunContext run, RunClock clock) {
        this.db = db;
        this.run = run;
        this.leaseService = new LeaseService(run, clock);
        this.leases = new Leases(leaseService);
    }

    /** Creates a run ({@link Database#newRun}) whose expiry is judged at {@code clock}'s instant. */
    public static PostgresRunStore open(Database db, String label, RunClock clock) {
        return new PostgresRunStore(db, db.newRun(label), clock);
    }

    /** The lease service itself, for callers that want the PostgreSQL forms (pooled calls, {@code current}). */
    public LeaseService leaseService() {
        return leaseService;
    }

    @Override
    public long runId() {
        return run.runId();
    }

    @Override
    public Optional<RunContext> runContext() {
        return Optional.of(run);
    }

    @Override
    public String semantics() {
        return "PostgreSQL " + db.serverVersion();
    }

    @Override
    public String describe() {
        return semantics();
    }

    @Override
    public LeaseStore leases() {
        return leases;
    }

    @Override
    public TargetStore<?> target(TargetKind kind, FencingMode mode, FirstWritePolicy firstWrite) {
        FencedTarget<?> target = switch (kind) {
            case ROW -> FencedTarget.row(run, mode, firstWrite);
            case OBJECT -> FencedTarget.object(run, mode, firstWrite);
            case POINTER -> FencedTarget.pointer(run, mode, firstWrite);
        };
        target.failpoints(failpoints);
        return new Target<>(target);
    }

    /** Before the run starts: targets are made on first use, after it. */
    @Override
    public void failpoints(Failpoints installed) {
        this.failpoints = installed;
        leaseService.failpoints(installed);
    }

    @Override
    public List<ResourceState> finalState() {
        return FinalStateLoader.load(run);
    }

    @Override
    public StoreSession openSession() {
        return db.openSession();
    }

    /**
     * Terminates the session's backend from another connection, as an operator would, and marks the
     * session so that its connection leaves the pool when the worker closes it. A session killed
     * already is left alone: asking it for its backend's pid would be a statement on the dead
     * connection, which makes the pool close it behind the worker's back (on another thread), so
     * what the worker's next statement fails with would depend on timing.
     */
    @Override
    public void kill(StoreSession session) {
        Session victim = session(session);
        if (victim.isTerminated()) {
            return;
        }
        victim.markTerminated();
        try {
            int pid = victim.backendPid();
            db.jdbi().useHandle(h -> h.createQuery("SELECT pg_terminate_backend(:pid)").bind("pid", pid)
                    .mapTo(Boolean.class).one());
        } catch (java.sql.SQLException | RuntimeException e) {
            // already gone: the worker finds out on its next statement either way
        }
    }

    /** Nothing to let go of: a killed session's connection left the pool when its worker closed it. */
    @Override
    public void close() {
    }

    @Override
    public void stop() {
        db.stopServer();
    }

    @Override
    public void start() {
        db.startServer();
    }

    @Override
    public boolean isReachable() {
        return db.isReachable();
    }

    /** As {@link Database#restartRefusal}: an external server needs a restart command. */
    @Override
    public Optional<String> restartRefusal() {
        return db.restartRefusal();
    }

    private static Session session(StoreSession s) {
        if (s instanceof Session session) {
            return session;
        }
        throw new IllegalArgumentException("a PostgreSQL run takes its own sessions, not " + s.getClass().getName());
    }

    private record Leases(LeaseService service) implements LeaseStore {
        @Override
        public boolean startScope(String scope, long firstToken) {
            return service.startScope(scope, firstToken);
        }

        @Override
        public AcquireResult acquire(StoreSession s, String scope, String holder, Duration ttl) {
            return service.acquire(session(s), scope, holder, ttl);
        }

        @Override
        public RenewResult renew(StoreSession s, Lease lease, Duration ttl) {
            return service.renew(session(s), lease, ttl);
        }

        @Override
        public boolean release(StoreSession s, Lease lease) {
            return service.release(session(s), lease);
        }
    }

    private record Target<V>(FencedTarget<V> target) implements TargetStore<V> {
        @Override
        public TargetKind kind() {
            return target.kind();
        }

        @Override
        public FencingMode mode() {
            return target.mode();
        }

        @Override
        public FirstWritePolicy firstWritePolicy() {
            return target.firstWritePolicy();
        }

        @Override
        public WriteOutcome write(StoreSession s, String scope, String key, long token, Long seq, V value) {
            return target.write(session(s), scope, key, token, seq, value);
        }

        @Override
        public void setBetweenCheckAndWrite(Runnable hook) {
            target.setBetweenCheckAndWrite(hook);
        }
    }
}
