package io.fencelab.engine.run;

import io.fencelab.engine.chaos.FaultKind;
import io.fencelab.engine.chaos.FaultOccurrence;
import io.fencelab.engine.chaos.FaultPlan;
import io.fencelab.engine.clock.RunClock;
import io.fencelab.engine.db.Database;
import io.fencelab.engine.db.RunContext;
import io.fencelab.engine.event.Event;
import io.fencelab.engine.event.Event.RunEnded;
import io.fencelab.engine.event.EventSink;
import io.fencelab.engine.fence.FencingMode;
import io.fencelab.engine.resource.TargetKind;
import io.fencelab.engine.fence.TokenScheme;
import io.fencelab.engine.lease.Lease;
import io.fencelab.engine.failpoint.Failpoint;
import io.fencelab.engine.store.LeaseStore;
import io.fencelab.engine.store.RunStore;
import io.fencelab.engine.store.StoreSession;
import io.fencelab.engine.store.TargetStore;
import io.fencelab.engine.worker.Worker;
import io.fencelab.engine.worker.WorkerEnv;
import io.fencelab.engine.worker.WorkerSpec;
import java.time.Duration;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.concurrent.ConcurrentHashMap;
import java.util.random.RandomGenerator;

/**
 * What both executors share: the run's database slice, workers, fault plan, lease watch and event
 * sink. Subclasses decide how time passes and how actions are scheduled.
 */
abstract class RunEnvironment implements WorkerEnv {

    private static final org.slf4j.Logger log = org.slf4j.LoggerFactory.getLogger(RunEnvironment.class);

    protected final Database db;
    protected final RunSpec spec;
    /** Where the run's leases and fenced resources live: PostgreSQL, or (simulated only) its in-memory model. */
    protected final RunStore store;
    protected final EventSink sink;
    protected final LeaseStore leases;
    /** The fault plan the run started with, as sequences drawn while the run goes ({@link FaultScheduler#schedulePlan}). */
    protected final List<FaultPlan.Sequence> plan;
    /** Every worker ever started; a live run adds to it, so it is only changed under its lock. */
    protected final Map<String, Worker> workers = java.util.Collections.synchronizedMap(new LinkedHashMap<>());
    /**
     * The settings in force: the spec at first, then whatever a live change made of it. Workers read
     * the lease ttl, renew interval, fencing mode and token scheme from here on every use.
     */
    protected volatile RunSpec current;
    private final Map<String, RandomGenerator> randoms = new ConcurrentHashMap<>();
    private final Map<String, TargetStore<?>> targets = new ConcurrentHashMap<>();
    /** The service-side view: the current lease per scope, to report its expiry when it passes. */
    private final Map<String, Lease> currentLeases = new ConcurrentHashMap<>();
    /** Per scope, the last lease that expired without release (an invalidation): the start of a lock-delay. */
    private final Map<String, Lease> invalidated = new ConcurrentHashMap<>();
    protected volatile boolean finished;

    RunEnvironment(Database db, RunSpec spec, EventSink sink, RunClock clock) {
        this(db, spec, sink, clock, Backend.POSTGRES);
    }

    RunEnvironment(Database db, RunSpec spec, EventSink sink, RunClock clock, Backend backend) {
        this.db = db;
        this.spec = spec;
        this.sink = sink;
        this.store = backend.open(db, spec, clock);
        this.leases = store.leases();
        spec.firstTokens().forEach(leases::startScope);
        SplittableRandom root = new SplittableRandom(spec.seed());
        for (WorkerSpec w : spec.workers()) {
            workers.put(w.name(), new Worker(w, this));
            randoms.put(w.name(), root.split());
        }
        this.current = spec;
        this.plan = FaultPlan.sequences(spec.faults(), List.copyOf(workers.keySet()), spec.duration(), spec.seed());
    }

    /**
     * Occurrences by "target/kind": workers ask about their own faults on every statement, and a live
     * run adds to them while workers read, hence copy-on-write lists.
     */
    private final Map<String, List<PlannedFault>> faultsByTarget = new ConcurrentHashMap<>();

    /**
     * Makes an occurrence visible to the workers' fault queries, and forgets those of its target and
     * kind that have ended (none can be active again), so the queries stay short however long the run.
     */
    protected void register(PlannedFault f) {
        List<PlannedFault> mine = faultsByTarget.computeIfAbsent(f.occurrence.target() + "/" + f.occurrence.kind(),
                k -> new java.util.concurrent.CopyOnWriteArrayList<>());
        long now = nowMicros();
        mine.removeIf(old -> micros(old.occurrence.end()) <= now);
        mine.add(f);
    }

    /** Every registered occurrence that has not ended, planned and added, in no particular order. */
    protected List<PlannedFault> registered() {
        return faultsByTarget.values().stream().flatMap(List::stream).toList();
    }

    /**
     * The run's database slice.
     *
     * @throws IllegalStateException for a run on the in-memory backend, which has none
     */
    public RunContext runContext() {
        return store.runContext().orElseThrow(() -> new IllegalStateException(
                "a run on the in-memory backend has no database slice; read its final state from the store"));
    }

    /** Where the run's leases and fenced resources live. */
    public RunStore store() {
        return store;
    }

    /** The spec the run started with. */
    public RunSpec spec() {
        return spec;
    }

    /** The settings in force now: {@link #spec()}, or what live changes made of it. */
    public RunSpec currentSpec() {
        return current;
    }

    protected void publishStart(String executor) {
        sink.publish(seq -> new Event.RunStarted(seq, nowMicros(), spec.name(), executor, spec.fencing().name(),
                spec.tokenScheme().name(), spec.seed(), store.semantics()));
    }

    protected void publishEnd(RunEnded.Reason reason) {
        if (sink instanceof io.fencelab.engine.event.EventBus bus) {
            // Let consumers see everything first, so the checker's last violations precede the end.
            bus.flush();
        }
        sink.publish(seq -> new Event.RunEnded(seq, nowMicros(), reason));
    }

    /** Ends the run now for {@code reason}; the first reason wins, and {@code RunEnded} follows. */
    protected abstract void finish(RunEnded.Reason reason);

    @Override
    public void databaseBroken(io.fencelab.engine.db.DatabaseException failure) {
        log.warn("run {} ends: the database is broken ({}): {}", spec.name(), failure.failure(), failure.reason());
        finish(RunEnded.Reason.failed(failure.endCause()));
    }

    /** The database did not answer a fresh statement, and no restart fault is under way. */
    protected void databaseLost() {
        finish(RunResult.UNREACHABLE);
    }

    private Duration active(String holder, FaultKind kind) {
        List<PlannedFault> mine = faultsByTarget.get(holder + "/" + kind);
        if (mine == null) {
            return Duration.ZERO;
        }
        long t = nowMicros();
        Duration total = Duration.ZERO;
        for (PlannedFault f : mine) {
            if (f.activeAt(t)) {
                total = total.plus(f.occurrence.amount());
            }
        }
        return total;
    }

    protected boolean anyActive(String target, FaultKind kind) {
        List<PlannedFault> mine = faultsByTarget.get(target + "/" + kind);
        long t = nowMicros();
        return mine != null && mine.stream().anyMatch(f -> f.activeAt(t));
    }

    /** A connection-kill fault: terminates the session's backend from another connection, as an operator would. */
    protected void terminate(StoreSession s) {
        store.kill(s);
    }

    /** Called when a lease's expiry time has passed: reports it if nobody renewed or released it. */
    protected void expiryDue(Lease lease) {
        if (currentLeases.remove(lease.scope(), lease)) {
            invalidated.put(lease.scope(), lease);
            sink.publish(seq -> new Event.LeaseExpired(seq, nowMicros(), lease.holder(), lease.scope(), lease.token()));
        }
    }

    // ---- failpoints (tests only) ----------------------------------------------------------------

    private record ArmedFailpoint(Failpoint point, String holder, FailpointAction action,
                                  java.util.concurrent.atomic.AtomicBoolean fired) {}

    /** Armed failpoints; empty in production, where the store has no seam installed at all. */
    private final List<ArmedFailpoint> armed = new java.util.concurrent.CopyOnWriteArrayList<>();
    /** Per action (its thread), what an after-statement failpoint does once the action is done; null when none. */
    private final ThreadLocal<List<Runnable>> afterAction = new ThreadLocal<>();

    /**
     * Arms {@code point} for the worker {@code holder} (a name in the spec), before the run starts: the
     * first time that worker's statement code reaches it, {@code action} happens. At a point before a
     * statement or between the two of check-then-write it happens right there, inside the statement
     * code. At a point after a statement it happens as soon as the action that ran the statement has
     * recorded the answer (its {@code LeaseAcquired}, {@code WriteAccepted}…), before the holder acts
     * on it: the run's record of what the service did is part of the statement, and a stalled holder
     * cannot hold it back (see {@code docs/RELIABILITY.md}).
     *
     * @throws IllegalArgumentException for an unknown worker
     * @throws UnsupportedOperationException on the in-memory backend, which runs no statements
     */
    public void armFailpoint(Failpoint point, String holder, FailpointAction action) {
        if (!workers.containsKey(holder)) {
            throw new IllegalArgumentException("no worker named '" + holder + "' to arm " + point + " for; workers: "
                    + workers.keySet());
        }
        if (armed.isEmpty()) {
            store.failpoints(this::failpointReached);
        }
        armed.add(new ArmedFailpoint(point, holder, action, new java.util.concurrent.atomic.AtomicBoolean()));
        armedFor(holder);
    }

    /** The worker {@code holder} has a failpoint armed: an executor may give it a connection of its own. */
    protected void armedFor(String holder) {
    }

    /** The worker whose action runs now on this thread, or null (a fault, an expiry watch). */
    protected abstract Worker actingWorker();

    /** The fault scheduler, which applies a failpoint's fault as it applies planned ones. */
    protected abstract FaultScheduler faultScheduler();

    /**
     * Runs one action of the run: an executor runs each through here, so that an after-statement
     * failpoint reached inside it happens once the action is done.
     */
    protected void act(Runnable action) {
        if (armed.isEmpty()) {
            action.run();
            return;
        }
        List<Runnable> outer = afterAction.get();
        List<Runnable> mine = new java.util.ArrayList<>(1);
        afterAction.set(mine);
        try {
            action.run();
        } finally {
            afterAction.set(outer);
        }
        mine.forEach(Runnable::run);
    }

    private void failpointReached(Failpoint point, StoreSession session) {
        Worker w = actingWorker();
        if (w == null) {
            return;
        }
        for (ArmedFailpoint a : armed) {
            if (a.point() == point && a.holder().equals(w.name()) && a.fired().compareAndSet(false, true)) {
                List<Runnable> after = afterAction.get();
                if (point.afterStatement() && after != null) {
                    after.add(() -> applyFailpoint(a, session));
                } else {
                    applyFailpoint(a, session);
                }
            }
        }
    }

    private void applyFailpoint(ArmedFailpoint a, StoreSession session) {
        Duration now = Duration.ofNanos(nowMicros() * 1_000);
        FaultOccurrence occurrence = switch (a.action()) {
            case FailpointAction.KillConnection k ->
                    new FaultOccurrence(FaultKind.CONNECTION_KILL, a.holder(), now, Duration.ZERO, Duration.ZERO);
            case FailpointAction.RestartDatabase r -> new FaultOccurrence(FaultKind.DATABASE_RESTART,
                    io.fencelab.engine.chaos.FaultSpec.DATABASE, now, r.down(), Duration.ZERO);
            case FailpointAction.Pause p -> new FaultOccurrence(FaultKind.PAUSE, a.holder(), now, p.length(),
                    Duration.ZERO);
            case FailpointAction.StopDatabase s -> null;
            case FailpointAction.BreakDatabase b -> null;
        };
        if (a.action() instanceof FailpointAction.BreakDatabase b) {
            b.breakage().run(); // no fault: whatever broke it is outside the scenario
            return;
        }
        if (occurrence == null) {
            store.stop(); // no fault: the database is simply gone, as when its host dies
            return;
        }
        PlannedFault pf = new PlannedFault(occurrence, null, false);
        register(pf);
        faultScheduler().atFailpoint(pf, a.point(), session);
    }

    /** Whether every armed failpoint has been reached (a test checks its run went where it meant). */
    public boolean failpointsReached() {
        return armed.stream().allMatch(a -> a.fired().get());
    }

    /** Schedules {@link #expiryDue} at the lease's expiry, in run time. */
    protected abstract void watchExpiry(Lease lease, long expiresAtRunMicros);

    @Override
    public void leaseChanged(Worker worker, Lease lease, boolean ended) {
        if (ended) {
            currentLeases.remove(lease.scope());
        } else {
            Lease previous = currentLeases.put(lease.scope(), lease);
            if (previous != null && previous.token() != lease.token()) {
                // A new grant proves the previous lease had expired; in a live run the expiry timer
                // can fire late, after the grant, so report the expiry now rather than never.
                sink.publish(seq -> new Event.LeaseExpired(seq, nowMicros(), previous.holder(), previous.scope(),
                        previous.token()));
            }
            watchExpiry(lease, toRunMicros(lease.expiresAt()));
        }
    }

    @Override
    public io.fencelab.engine.lease.LeaseProfile leaseProfile() {
        return current.lease();
    }

    /**
     * Consul's lock-delay, kept by the executor rather than the fence: after a lease expired without
     * release (its holder's session was invalidated), the scope grants nothing until the expiry plus
     * the profile's lock-delay. A release starts no lock-delay.
     */
    @Override
    public java.util.Optional<Lease> lockDelayed(String scope) {
        Duration delay = current.lease().lockDelay();
        if (delay.isZero()) {
            return java.util.Optional.empty();
        }
        Instant now = clockNow();
        Lease held = currentLeases.get(scope);
        // An expiry the watch has not reported yet counts the same as one it has.
        Lease gone = held != null && !now.isBefore(held.expiresAt()) ? held : invalidated.get(scope);
        if (gone == null) {
            return java.util.Optional.empty();
        }
        Instant until = gone.expiresAt().plus(onLeaseClock(delay));
        return now.isBefore(until) ? java.util.Optional.of(gone.withExpiry(until)) : java.util.Optional.empty();
    }

    /** A run-time duration as it passes on the lease service's clock (a live run's time scale stretches it). */
    protected Duration onLeaseClock(Duration runTime) {
        return runTime;
    }

    /** Whether the worker named {@code name} is up (a crash fault skips one that is down). */
    protected boolean running(String name) {
        Worker w = workers.get(name);
        return w != null && w.running();
    }

    @Override
    public Instant holderClock(String holder) {
        return clockNow().plus(active(holder, FaultKind.CLOCK_SKEW));
    }

    protected abstract Instant clockNow();

    @Override
    public EventSink events() {
        return sink;
    }

    @Override
    public LeaseStore leases() {
        return leases;
    }

    @Override
    public TargetStore<?> target(TargetKind kind, FencingMode mode) {
        return targets.computeIfAbsent(kind + "/" + mode, k -> store.target(kind, mode, spec.firstWrite()));
    }

    @Override
    public FencingMode defaultFencing() {
        return current.fencing();
    }

    @Override
    public TokenScheme tokenScheme() {
        return current.tokenScheme();
    }

    /** Adds a worker while the run goes on (a live change); it gets a generator of its own. */
    protected Worker addWorker(WorkerSpec w, long salt) {
        Worker worker = new Worker(w, this);
        randoms.put(w.name(), new SplittableRandom(spec.seed() ^ salt ^ w.name().hashCode()));
        workers.put(w.name(), worker);
        return worker;
    }

    @Override
    public RandomGenerator random(Worker worker) {
        return randoms.get(worker.name());
    }

    @Override
    public Duration requestDelay(String holder) {
        return active(holder, FaultKind.REQUEST_DELAY);
    }

    @Override
    public Duration requestJitter(String holder) {
        return active(holder, FaultKind.REQUEST_JITTER);
    }

    @Override
    public Duration replyDelay(String holder) {
        return active(holder, FaultKind.REPLY_DELAY);
    }

    @Override
    public Duration leaseServiceDelay(String holder) {
        return active(holder, FaultKind.SLOW_LEASE_SERVICE);
    }

    @Override
    public boolean renewalsDropped(String holder) {
        return anyActive(holder, FaultKind.RENEWAL_LOSS);
    }

    @Override
    public boolean finished() {
        return finished;
    }

    static long micros(Duration d) {
        return d.toNanos() / 1_000;
    }
}
