package io.fencelab.engine.run;

import io.fencelab.engine.chaos.FaultKind;
import io.fencelab.engine.chaos.FaultPlan;
import io.fencelab.engine.db.DatabaseException;
import io.fencelab.engine.db.RunContext;
import io.fencelab.engine.event.Event;
import io.fencelab.engine.event.Event.RunEnded;
import io.fencelab.engine.event.EventBus;
import io.fencelab.engine.event.EventSink;
import io.fencelab.engine.fence.FencingMode;
import io.fencelab.engine.fence.TokenScheme;
import io.fencelab.engine.lease.Lease;
import io.fencelab.engine.lease.LeaseProfile;
import io.fencelab.engine.resource.TargetKind;
import io.fencelab.engine.store.LeaseStore;
import io.fencelab.engine.store.RunStore;
import io.fencelab.engine.store.StoreSession;
import io.fencelab.engine.store.TargetStore;
import io.fencelab.engine.worker.Worker;
import io.fencelab.engine.worker.WorkerEnv;
import io.fencelab.engine.worker.WorkerSpec;
import java.time.Duration;
import java.time.Instant;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.SplittableRandom;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.ReentrantReadWriteLock;
import java.util.function.Consumer;
import java.util.function.Supplier;
import java.util.random.RandomGenerator;

/**
 * What every executor holds of its run, whatever its timing: the spec and the settings in force, the
 * store, the workers, the faults active now, the service's view of the leases, and the event sink.
 * It is the workers' {@link WorkerEnv}; time and scheduling it leaves to the executor's
 * {@link RunScheduler}, and ending the run to the executor.
 */
final class RunCore implements WorkerEnv {

    private static final org.slf4j.Logger log = org.slf4j.LoggerFactory.getLogger(RunCore.class);

    private final RunSpec spec;
    /** Where the run's leases and fenced resources live: PostgreSQL, or (simulated only) its in-memory model. */
    private final RunStore store;
    /**
     * The lease side, a port of its own (another lease service could answer it; issue 24); with pauses at a
     * grant, wrapped by {@link #pauseAtGrants} before the workers start.
     */
    private volatile LeaseStore leases;
    /** The run's pauses at a grant; null without any. */
    private volatile GrantPauses grantPauses;
    private final EventSink sink;
    private final RunScheduler scheduler;
    private final WorkerPlacement placement;
    /** Ends the run, the executor's way; the first reason wins. */
    private final Consumer<RunEnded.Reason> end;
    /** The fault plan the run started with, as sequences drawn while the run goes ({@link FaultScheduler#schedulePlan}). */
    private final List<FaultPlan.Sequence> plan;
    /** Every worker ever started; a live run adds to it, so it is only changed under its lock. */
    private final Map<String, WorkerPlacement.Placed> workers = Collections.synchronizedMap(new LinkedHashMap<>());
    private final Map<String, RandomGenerator> randoms = new ConcurrentHashMap<>();
    private final Map<String, TargetStore<?>> targets = new ConcurrentHashMap<>();
    private final ActiveFaults faults;
    private final LeaseWatch leaseWatch;
    /**
     * The settings in force: the spec at first, then whatever a live change made of it. Workers read
     * the lease ttl, renew interval, fencing mode and token scheme from here on every use.
     */
    private volatile RunSpec current;
    /** Grants and renewals read it; a live change writes it (see {@link #changeSettings}). */
    private final ReentrantReadWriteLock settings = new ReentrantReadWriteLock();
    private volatile boolean finished;
    /**
     * Whether this core reports lease expiries: every executor's does, except a process run's agents,
     * which see only their own holder's leases (the run's core watches them all, from the merged events).
     */
    private final boolean watchesLeases;

    RunCore(RunSpec spec, EventSink sink, RunStore store, RunScheduler scheduler, WorkerPlacement placement,
            Consumer<RunEnded.Reason> end) {
        this(spec, sink, store, scheduler, placement, end, true);
    }

    RunCore(RunSpec spec, EventSink sink, RunStore store, RunScheduler scheduler, WorkerPlacement placement,
            Consumer<RunEnded.Reason> end, boolean watchesLeases) {
        this.watchesLeases = watchesLeases;
        this.spec = spec;
        this.sink = sink;
        this.store = store;
        this.leases = store.leases();
        this.scheduler = scheduler;
        this.placement = placement;
        this.end = end;
        this.faults = new ActiveFaults(scheduler::nowMicros);
        this.leaseWatch = new LeaseWatch(this);
        spec.firstTokens().forEach(leases::startScope);
        SplittableRandom root = new SplittableRandom(spec.seed());
        for (WorkerSpec w : spec.workers()) {
            workers.put(w.name(), placement.place(w, this));
            randoms.put(w.name(), root.split());
        }
        if (placement.actsHere()) {
            connect(spec.workers());
        }
        this.current = spec;
        this.plan = FaultPlan.sequences(spec.faults(), List.copyOf(workers.keySet()), spec.duration(), spec.seed());
    }

    /** Each worker's lease client connects before the run starts, all at once (each waits on the network). */
    private void connect(List<WorkerSpec> ws) {
        try (ExecutorService threads = Executors.newVirtualThreadPerTaskExecutor()) {
            ws.forEach(w -> threads.submit(() -> leases.connect(w.name())));
        }
    }

    // ---- what the executor reads and changes ---------------------------------------------------

    /**
     * Pauses each holder that a {@code PAUSE at: grant} among {@code faults} names at its next grant, holding
     * it through {@code stall} (the executor's way). Called before the workers start by every executor that
     * runs workers itself.
     */
    void pauseAtGrants(List<io.fencelab.engine.chaos.FaultSpec> faults, GrantPauses.Stall stall) {
        grantPauses = GrantPauses.over(store.leases(), faults, sink, this::nowMicros, stall, spec.seed());
        if (grantPauses != null) {
            leases = grantPauses.leases();
        }
    }

    RunSpec spec() {
        return spec;
    }

    RunSpec current() {
        return current;
    }

    /** A live change: these settings are in force from now on. */
    void change(RunSpec next) {
        current = next;
    }

    /**
     * Runs a live change (new settings and the events that say so) between grants and renewals, not
     * in the middle of one (see {@link #underSettings}). It waits at most a second for those in flight:
     * one stuck on a database that stopped answering must not hold the console, and a grant that
     * outlasts the wait is then logged on whichever side of the change its reply lands.
     */
    void changeSettings(Runnable change) {
        boolean locked = false;
        try {
            locked = settings.writeLock().tryLock(1, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        try {
            change.run();
        } finally {
            if (locked) {
                settings.writeLock().unlock();
            }
        }
    }

    @Override
    public <T> T underSettings(Supplier<T> call) {
        settings.readLock().lock();
        try {
            return call.get();
        } finally {
            settings.readLock().unlock();
        }
    }

    RunStore store() {
        return store;
    }

    RunScheduler scheduler() {
        return scheduler;
    }

    /** See {@link Executor#runContext()}. */
    RunContext runContext() {
        return store.runContext().orElseThrow(() -> new IllegalStateException(
                "a run on the in-memory backend has no database slice; read its final state from the store"));
    }

    List<FaultPlan.Sequence> plan() {
        return plan;
    }

    ActiveFaults faults() {
        return faults;
    }

    /** The worker named {@code name}, or null. */
    WorkerPlacement.Placed worker(String name) {
        return workers.get(name);
    }

    boolean hasWorker(String name) {
        return workers.containsKey(name);
    }

    Set<String> workerNames() {
        return workers.keySet();
    }

    /** Every worker, in the order placed. */
    List<WorkerPlacement.Placed> allWorkers() {
        synchronized (workers) {
            return List.copyOf(workers.values());
        }
    }

    /** Whether the worker named {@code name} is up (a crash fault skips one that is down). */
    boolean running(String name) {
        WorkerPlacement.Placed w = workers.get(name);
        return w != null && w.running();
    }

    /** Adds a worker while the run goes on (a live change); it gets a generator of its own. */
    WorkerPlacement.Placed addWorker(WorkerSpec w, long salt) {
        WorkerPlacement.Placed worker = placement.place(w, this);
        randoms.put(w.name(), new SplittableRandom(spec.seed() ^ salt ^ w.name().hashCode()));
        workers.put(w.name(), worker);
        return worker;
    }

    EventSink sink() {
        return sink;
    }

    void publishStart(String executor) {
        sink.publish(seq -> new Event.RunStarted(seq, nowMicros(), spec.name(), executor, spec.fencing().name(),
                spec.tokenScheme().name(), spec.seed(), store.semantics()));
    }

    /** Marks the run over: workers schedule nothing more. */
    void markFinished() {
        finished = true;
    }

    void publishEnd(RunEnded.Reason reason) {
        if (sink instanceof EventBus bus) {
            // Let consumers see everything first, so the checker's last violations precede the end.
            bus.flush();
        }
        sink.publish(seq -> new Event.RunEnded(seq, nowMicros(), reason));
    }

    /** The database did not answer a fresh statement, and no restart fault is under way. */
    void databaseLost() {
        end.accept(RunResult.UNREACHABLE);
    }

    /** See {@link LeaseWatch.ExpiryWait}: a process run's expiries wait for renewals on their way. */
    void waitBeforeExpiries(LeaseWatch.ExpiryWait wait) {
        leaseWatch.waitBeforeExpiries(wait);
    }

    /** Called when a lease's expiry time has passed: reports it if nobody renewed or released it. */
    void expiryDue(Lease lease) {
        leaseWatch.expiryDue(lease);
    }

    // ---- the workers' environment ---------------------------------------------------------------

    @Override
    public long nowMicros() {
        return scheduler.nowMicros();
    }

    @Override
    public long toRunMicros(Instant instant) {
        return scheduler.toRunMicros(instant);
    }

    Instant clockNow() {
        return scheduler.clockNow();
    }

    Duration onLeaseClock(Duration runTime) {
        return scheduler.onLeaseClock(runTime);
    }

    @Override
    public void later(Worker worker, Duration delay, Runnable action) {
        scheduler.later(worker, delay, action);
    }

    @Override
    public void inFlight(Worker worker, Duration delay, Runnable action) {
        scheduler.inFlight(worker, delay, action);
    }

    @Override
    public StoreSession session(Worker worker) {
        return scheduler.session(worker);
    }

    @Override
    public void discardSession(Worker worker) {
        scheduler.discardSession(worker);
    }

    @Override
    public void databaseBroken(DatabaseException failure) {
        log.warn("run {} ends: the database is broken ({}): {}", spec.name(), failure.failure(), failure.reason());
        end.accept(RunEnded.Reason.failed(failure.endCause()));
    }

    @Override
    public void leaseChanged(Worker worker, Lease lease, boolean ended) {
        GrantPauses pauses = grantPauses;
        if (pauses != null && !ended) {
            pauses.told(lease.holder()); // a grant is logged: a one-step store's pause at it comes now
        }
        if (watchesLeases) {
            leaseWatch.changed(lease, ended);
        }
    }

    @Override
    public LeaseProfile leaseProfile() {
        return current.lease();
    }

    @Override
    public Optional<Lease> lockDelayed(String scope) {
        return leaseWatch.lockDelayed(scope, current.lease().lockDelay());
    }

    @Override
    public Instant holderClock(String holder) {
        return clockNow().plus(faults.active(holder, FaultKind.CLOCK_SKEW));
    }

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
        TargetStore<?> target = targets.computeIfAbsent(kind + "/" + mode,
                k -> store.target(kind, mode, spec.firstWrite()));
        scheduler.prepare(target);
        return target;
    }

    @Override
    public TargetStore<?> userTarget(String fence) {
        TargetStore<?> target = targets.computeIfAbsent("SQL:" + fence, k -> store.userTarget(fence));
        scheduler.prepare(target);
        return target;
    }

    @Override
    public FencingMode defaultFencing() {
        return current.fencing();
    }

    @Override
    public TokenScheme tokenScheme() {
        return current.tokenScheme();
    }

    @Override
    public Duration leaseTtl() {
        return onLeaseClock(current.leaseTtl());
    }

    @Override
    public Duration renewInterval() {
        return current.renewInterval();
    }

    @Override
    public RandomGenerator random(Worker worker) {
        return randoms.get(worker.name());
    }

    @Override
    public Duration requestDelay(String holder) {
        return faults.active(holder, FaultKind.REQUEST_DELAY);
    }

    @Override
    public Duration requestJitter(String holder) {
        return faults.active(holder, FaultKind.REQUEST_JITTER);
    }

    @Override
    public Duration replyDelay(String holder) {
        return faults.active(holder, FaultKind.REPLY_DELAY);
    }

    @Override
    public Duration leaseServiceDelay(String holder) {
        return faults.active(holder, FaultKind.SLOW_LEASE_SERVICE);
    }

    @Override
    public boolean renewalsDropped(String holder) {
        return faults.anyActive(holder, FaultKind.RENEWAL_LOSS);
    }

    @Override
    public boolean finished() {
        return finished;
    }

    static long micros(Duration d) {
        return d.toNanos() / 1_000;
    }
}
