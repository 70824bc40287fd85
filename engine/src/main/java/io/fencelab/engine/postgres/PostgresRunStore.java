package io.fencelab.engine.postgres;

import io.fencelab.engine.clock.RunClock;
import io.fencelab.engine.db.Database;
import io.fencelab.engine.db.RunContext;
import io.fencelab.engine.db.Session;
import io.fencelab.engine.failpoint.Failpoint;
import io.fencelab.engine.failpoint.FailpointHook;
import io.fencelab.engine.failpoint.Failpoints;
import io.fencelab.engine.fence.FencedTarget;
import io.fencelab.engine.fence.FencingMode;
import io.fencelab.engine.fence.FirstWritePolicy;
import io.fencelab.engine.fence.ScratchSchema;
import io.fencelab.engine.fence.SqlFence;
import io.fencelab.engine.fence.SqlTarget;
import io.fencelab.engine.fence.SqlWriteResult;
import io.fencelab.engine.fence.WriteOutcome;
import io.fencelab.engine.lease.AcquireResult;
import io.fencelab.engine.lease.Lease;
import io.fencelab.engine.lease.LeaseService;
import io.fencelab.engine.lease.RenewResult;
import io.fencelab.engine.resource.ResourceState;
import io.fencelab.engine.resource.SqlKey;
import io.fencelab.engine.resource.TargetKind;
import io.fencelab.engine.store.CheckedWrite;
import io.fencelab.engine.store.LeaseStore;
import io.fencelab.engine.store.RunStore;
import io.fencelab.engine.store.StoreSession;
import io.fencelab.engine.store.TargetStore;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;

/**
 * A run on PostgreSQL: {@link LeaseService} and {@link FencedTarget} on the worker's
 * {@link Session}, unchanged; this class passes calls through, and reaches the failpoints around
 * each statement (the one place they are reached). Its sessions are {@link PostgresSession}s, and
 * only they are accepted.
 */
public final class PostgresRunStore implements RunStore {

    private final Database db;
    private final RunContext run;
    private final LeaseService leaseService;
    private final LeaseStore leases;
    /** The failpoint seam around every statement of the run; nothing installed in production. */
    private final FailpointHook<StoreSession> failpoints = new FailpointHook<>();

    /** The user's fences' schema, or null when the run has none. */
    private final ScratchSchema scratch;
    private final Map<String, TargetStore<String>> userTargets = new ConcurrentHashMap<>();
    /** The user fences' resources as they stood when the run let go of its scratch schema. */
    private volatile List<ResourceState> userStateAtClose;

    private PostgresRunStore(Database db, RunContext run, RunClock clock, ScratchSchema scratch) {
        this.db = db;
        this.run = run;
        this.leaseService = new LeaseService(run, clock);
        this.leases = new Leases(leaseService, failpoints);
        this.scratch = scratch;
    }

    /** Creates a run ({@link Database#newRun}) whose expiry is judged at {@code clock}'s instant. */
    public static PostgresRunStore open(Database db, String label, RunClock clock) {
        return new PostgresRunStore(db, db.newRun(label), clock, null);
    }

    /**
     * As {@link #open(Database, String, RunClock)}, with the user's SQL fences made in a scratch schema
     * of the run ({@code fencelab_run_<id>}) and checked before any worker starts.
     *
     * @throws io.fencelab.engine.fence.SqlFenceException when a fence cannot be used as written
     */
    public static PostgresRunStore open(Database db, String label, RunClock clock, List<SqlFence> fences,
                                        boolean keep) {
        RunContext run = db.newRun(label);
        ScratchSchema scratch = fences.isEmpty() ? null
                : ScratchSchema.create(db, "run_" + run.runId(), fences, keep);
        return new PostgresRunStore(db, run, clock, scratch);
    }

    /**
     * Joins run {@code runId}, which another process created with {@link #open}: an agent of a process
     * run. Its user fences' scratch schema is the run's; this store never drops it.
     */
    public static PostgresRunStore join(Database db, long runId, RunClock clock, List<SqlFence> fences) {
        RunContext run = db.existingRun(runId);
        ScratchSchema scratch = fences.isEmpty() ? null : ScratchSchema.attach(db, "run_" + runId, fences);
        return new PostgresRunStore(db, run, clock, scratch);
    }

    /** The scratch schema of the run's user fences, if it has any. */
    public Optional<ScratchSchema> scratchSchema() {
        return Optional.ofNullable(scratch);
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
            case SQL -> throw new IllegalArgumentException("a SQL fence is reached by its name: userTarget");
        };
        return new Target<>(target, failpoints);
    }

    /** Before the run starts, before any statement. */
    @Override
    public void failpoints(Failpoints<StoreSession> installed) {
        failpoints.install(installed);
    }

    @Override
    public TargetStore<String> userTarget(String fence) {
        if (scratch == null) {
            throw new IllegalArgumentException("this run has no user fence named " + fence);
        }
        return userTargets.computeIfAbsent(fence, name -> new UserTarget(scratch.target(name), failpoints));
    }

    @Override
    public List<ResourceState> finalState() {
        List<ResourceState> states = new ArrayList<>(FinalStateLoader.load(run));
        if (scratch != null) {
            List<ResourceState> atClose = userStateAtClose;
            states.addAll(atClose != null ? atClose : scratch.finalState());
        }
        return List.copyOf(states);
    }

    @Override
    public StoreSession openSession() {
        return new PostgresSession(db.openSession());
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

    /**
     * Lets go of the scratch schema (dropped unless kept), reading its resources first so that the
     * final-state check still finds them. A killed session's connection left the pool when its worker
     * closed it.
     */
    @Override
    public void close() {
        if (scratch == null || userStateAtClose != null) {
            return;
        }
        try {
            userStateAtClose = scratch.finalState();
        } catch (RuntimeException e) {
            // The database is gone: the final-state check cannot run, and says so where it asks.
        }
        try {
            scratch.close();
        } catch (RuntimeException e) {
            // Left behind for want of a database; named in docs/FENCES.md as fencelab_run_<id>.
        }
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
        if (s instanceof PostgresSession session) {
            return session.session();
        }
        throw new IllegalArgumentException("a PostgreSQL run takes its own sessions, not " + s.getClass().getName());
    }

    private record Leases(LeaseService service, FailpointHook<StoreSession> failpoints) implements LeaseStore {
        @Override
        public boolean startScope(String scope, long firstToken) {
            return service.startScope(scope, firstToken);
        }

        @Override
        public AcquireResult acquire(StoreSession s, String scope, String holder, Duration ttl) {
            Session session = session(s);
            return failpoints.around(Failpoint.ACQUIRE_BEFORE, Failpoint.ACQUIRE_AFTER, s,
                    () -> service.acquire(session, scope, holder, ttl));
        }

        @Override
        public RenewResult renew(StoreSession s, Lease lease, Duration ttl) {
            Session session = session(s);
            return failpoints.around(Failpoint.RENEW_BEFORE, Failpoint.RENEW_AFTER, s,
                    () -> service.renew(session, lease, ttl));
        }

        @Override
        public boolean release(StoreSession s, Lease lease) {
            Session session = session(s);
            return failpoints.around(Failpoint.RELEASE_BEFORE, Failpoint.RELEASE_AFTER, s,
                    () -> service.release(session, lease));
        }
    }

    /** A user's fence, through the same failpoints as every write; its multi-statement gap is check-then-write's. */
    private static final class UserTarget implements TargetStore<String> {
        private final SqlTarget target;
        private final FailpointHook<StoreSession> failpoints;
        private volatile Runnable between = () -> { };

        UserTarget(SqlTarget target, FailpointHook<StoreSession> failpoints) {
            this.target = target;
            this.failpoints = failpoints;
        }

        @Override
        public TargetKind kind() {
            return TargetKind.SQL;
        }

        /** The user's statement is the fencing; several statements are a check-then-write. */
        @Override
        public FencingMode mode() {
            return target.fence().write().size() > 1 ? FencingMode.CHECK_THEN_WRITE : FencingMode.FENCED;
        }

        @Override
        public FirstWritePolicy firstWritePolicy() {
            return target.fence().firstWrite();
        }

        @Override
        public WriteOutcome write(StoreSession s, String scope, String key, long token, Long seq, String value) {
            return writeChecked(s, scope, key, token, seq, value).outcome();
        }

        @Override
        public CheckedWrite writeChecked(StoreSession s, String scope, String key, long token, Long seq, String value) {
            Session session = session(s);
            SqlWriteResult result = failpoints.around(Failpoint.WRITE_BEFORE, Failpoint.WRITE_AFTER, s,
                    () -> target.write(session, scope, SqlKey.key(key), token, seq, value,
                            () -> {
                                failpoints.at(Failpoint.CHECK_THEN_WRITE_BETWEEN, s).run();
                                between.run();
                            }));
            return new CheckedWrite(result.outcome(), result.said().name(),
                    result.readBack() == null ? null : result.readBack().token(), result.contradiction());
        }

        @Override
        public void setBetweenCheckAndWrite(Runnable hook) {
            between = hook;
        }
    }

    private record Target<V>(FencedTarget<V> target, FailpointHook<StoreSession> failpoints) implements TargetStore<V> {
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
            Session session = session(s);
            return failpoints.around(Failpoint.WRITE_BEFORE, Failpoint.WRITE_AFTER, s, () -> target.write(session,
                    scope, key, token, seq, value, failpoints.at(Failpoint.CHECK_THEN_WRITE_BETWEEN, s)));
        }

        @Override
        public void setBetweenCheckAndWrite(Runnable hook) {
            target.setBetweenCheckAndWrite(hook);
        }
    }
}
