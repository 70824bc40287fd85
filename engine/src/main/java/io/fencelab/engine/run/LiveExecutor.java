package io.fencelab.engine.run;

import io.fencelab.engine.chaos.FaultKind;
import io.fencelab.engine.chaos.FaultOccurrence;
import io.fencelab.engine.chaos.FaultSpec;
import io.fencelab.engine.clock.LiveClock;
import io.fencelab.engine.db.Database;
import io.fencelab.engine.db.DatabaseException;
import io.fencelab.engine.store.StoreSession;
import io.fencelab.engine.event.Event.RunEnded;
import io.fencelab.engine.event.EventSink;
import io.fencelab.engine.fence.FencingMode;
import io.fencelab.engine.resource.TargetKind;
import io.fencelab.engine.lease.Lease;
import io.fencelab.engine.store.TargetStore;
import io.fencelab.engine.worker.Worker;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.ReentrantLock;
import java.util.concurrent.locks.ReentrantReadWriteLock;

/**
 * Runs a spec in real time: every worker action runs on its own virtual thread, so workers race at
 * the database for real. One worker's actions never overlap (a lock per worker). Lease expiry is
 * judged by the database clock. {@code timeScale} stretches or shrinks every duration of the spec.
 * Faults are timed by a {@link FaultScheduler}; changes while the run runs ({@link #change},
 * {@link #inject}) are {@link LiveChanges}'.
 */
public final class LiveExecutor extends RunEnvironment implements AutoCloseable {

    private final LiveClock clock;
    private final double scale;
    /** Starts and heals the faults, planned and by hand; this executor only applies their effects. */
    private final FaultScheduler faults;
    /** Spec changes and faults by hand while the run runs; called under this executor's lock. */
    private final LiveChanges changes;
    /** Run time zero: when {@link #start()} was called (a prepared run may wait for its user). */
    private volatile Instant start;
    private volatile boolean started;
    private final ScheduledExecutorService timer = Executors.newSingleThreadScheduledExecutor(r -> {
        Thread t = new Thread(r, "fencelab-live-timer");
        t.setDaemon(true);
        return t;
    });
    private final ExecutorService threads = Executors.newVirtualThreadPerTaskExecutor();
    private final Map<String, ReentrantLock> locks = new ConcurrentHashMap<>();
    private final Map<String, Boolean> killPending = new ConcurrentHashMap<>();
    private final ThreadLocal<StoreSession> actionSession = new ThreadLocal<>();
    /** Keeps concurrent statements below the pool size, so workers queue here, not in pool time-outs. */
    private final Semaphore databaseSlots;
    private final CountDownLatch ended = new CountDownLatch(1);
    /** From a restart fault's stop until its start has returned: statements failing then do not end the run. */
    private volatile boolean restartUnderWay;
    private volatile RunEnded.Reason endReason;
    /**
     * Actions hold it shared while they run; the end takes it exclusively, so {@code RunEnded} is
     * published after every action already under way (and never before one of their events).
     */
    private final ReentrantReadWriteLock endGate = new ReentrantReadWriteLock();
    /** How long the end waits for actions under way (a statement stuck on a dying database). */
    static final Duration END_DRAIN_LIMIT = Duration.ofSeconds(5);

    public LiveExecutor(Database db, RunSpec spec, EventSink sink, int databaseConcurrency) {
        this(db, spec, sink, databaseConcurrency, new LiveClock());
    }

    private LiveExecutor(Database db, RunSpec spec, EventSink sink, int databaseConcurrency, LiveClock clock) {
        super(db, spec, sink, clock);
        this.clock = clock;
        this.scale = spec.timeScale();
        this.start = clock.now();
        this.databaseSlots = new Semaphore(databaseConcurrency, true);
        this.faults = new FaultScheduler(new Faults(), sink);
        this.changes = new LiveChanges(this, faults);
    }

    /** Starts every worker and fault and returns at once. */
    public void start() {
        start = clock.now();
        started = true;
        publishStart("live");
        faults.schedulePlan(plan, this::register);
        List.copyOf(workers.values()).forEach(Worker::start);
        timer.schedule(() -> finish(RunEnded.Reason.COMPLETED), realNanos(spec.duration()), TimeUnit.NANOSECONDS);
    }

    /** Whether {@link #start()} was called. */
    public boolean started() {
        return started;
    }

    /** Blocks until the run ends (its duration passes, it is stopped, or the database is lost). */
    public RunEnded.Reason awaitEnd() throws InterruptedException {
        ended.await();
        return endReason;
    }

    /** Starts, waits for the end, and returns the end reason. */
    public RunEnded.Reason runToEnd() throws InterruptedException {
        start();
        return awaitEnd();
    }

    public void stop() {
        finish(RunEnded.Reason.STOPPED);
    }

    /**
     * Ends the run: nothing new starts from now on, and {@code RunEnded} follows once the actions
     * already under way have published their events (or after {@link #END_DRAIN_LIMIT}). The wait
     * happens on a thread of its own, since an action may be what ends the run.
     */
    @Override
    protected synchronized void finish(RunEnded.Reason reason) {
        if (endReason != null) {
            return;
        }
        finished = true;
        endReason = reason;
        Thread.ofVirtual().name("fencelab-live-end").start(() -> {
            boolean drained = false;
            try {
                drained = endGate.writeLock().tryLock(END_DRAIN_LIMIT.toMillis(), TimeUnit.MILLISECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            try {
                faults.healAtEnd();
                publishEnd(reason);
            } finally {
                if (drained) {
                    endGate.writeLock().unlock();
                }
                ended.countDown();
            }
        });
    }

    /**
     * Injects a fault now, by hand: a pause of {@code holder}, a network delay on its requests of
     * {@code amount}, dropped renewals, a killed connection (no length), or any other kind. Lasts
     * {@code length} of run time.
     *
     * @throws IllegalArgumentException for an unknown holder, or a database restart not aimed at
     *                                  {@code database}
     * @throws IllegalStateException    once the run is over
     */
    public synchronized FaultOccurrence inject(FaultKind kind, String target, Duration length, Duration amount) {
        return changes.inject(kind, target, length, amount);
    }

    /**
     * Applies a changed spec to the running run, from now on, and records each change as a
     * {@code SettingChanged} event: lease ttl and renew interval (used from each holder's next
     * acquire or renew), fencing mode and token scheme (from the next write or grant), workers
     * (new ones start now; removed ones finish their job and take no more), and faults (a removed
     * spec's occurrences are cancelled, and the active ones healed now, except pauses already
     * begun; an added spec's scripted occurrences keep their times, clipped to start no earlier
     * than now, and its repeating ones are drawn afresh from now).
     *
     * @throws IllegalArgumentException if a setting that is fixed for a run differs (name, first
     *                                  tokens, first write, seed, duration, executor, time scale)
     * @throws IllegalStateException    once the run is over
     */
    public synchronized void change(RunSpec next) {
        changes.change(next);
    }

    /** How faults act on a live run: on the run's timer, each effect on a virtual thread. */
    private final class Faults implements FaultScheduler.Host {
        @Override
        public long nowMicros() {
            return LiveExecutor.this.nowMicros();
        }

        @Override
        public void at(long atMicros, Runnable action) {
            LiveExecutor.this.at(atMicros, action);
        }

        /** The kill hits the session of the holder's next action, as it borrows one per action. */
        @Override
        public void killSession(String holder) {
            killPending.put(holder, true);
        }

        @Override
        public void stopDatabase() {
            restartUnderWay = true;
            db.stopServer();
        }

        @Override
        public boolean running(String holder) {
            return LiveExecutor.this.running(holder);
        }

        /** Under the worker's lock, so the crash falls between two of its actions. */
        @Override
        public void crash(String holder) {
            asWorker(holder, Worker::crash);
        }

        @Override
        public void restart(String holder, boolean newIdentity) {
            asWorker(holder, w -> w.restart(newIdentity));
        }

        @Override
        public void startDatabase() {
            db.startServer();
            restartUnderWay = false;
        }

        @Override
        public void databaseBroken(DatabaseException failure) {
            LiveExecutor.this.databaseBroken(failure);
        }

        @Override
        public void kill(String holder, io.fencelab.engine.store.StoreSession session, boolean afterStatement) {
            if (afterStatement) {
                // Killed now, this action's session would just be closed at the action's end and the
                // holder would never meet the kill: it meets it on its next action's session instead.
                killSession(holder);
            } else {
                terminate(session);
            }
        }

        /** The holder's own virtual thread sleeps: the other holders' threads go on. */
        @Override
        public void stall(long untilMicros) {
            long waitMicros = untilMicros - nowMicros();
            if (waitMicros > 0) {
                try {
                    Thread.sleep(Duration.ofNanos(realNanos(Duration.ofNanos(waitMicros * 1_000))));
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            }
        }
    }

    @Override
    protected Worker actingWorker() {
        return acting.get();
    }

    @Override
    protected FaultScheduler faultScheduler() {
        return faults;
    }

    private void asWorker(String name, java.util.function.Consumer<Worker> action) {
        Worker w = workers.get(name);
        if (w == null) {
            return;
        }
        ReentrantLock lock = locks.computeIfAbsent(name, n -> new ReentrantLock());
        lock.lock();
        try {
            action.accept(w);
        } finally {
            lock.unlock();
        }
    }

    /** Runs {@code action} at run time {@code atMicros} (at once if that has passed), unless the run is over by then. */
    private void at(long atMicros, Runnable action) {
        long delayMicros = Math.max(0, atMicros - nowMicros());
        timer.schedule(() -> threads.submit(() -> {
            // Checked before the gate too, so the end's wait is not kept up by actions that would do nothing.
            if (finished || !endGate.readLock().tryLock()) {
                return; // the run is ending
            }
            try {
                if (!finished) {
                    action.run();
                }
            } finally {
                endGate.readLock().unlock();
            }
        }), realNanos(Duration.ofNanos(delayMicros * 1_000)), TimeUnit.NANOSECONDS);
    }

    private long realNanos(Duration runDuration) {
        return Math.max(0, (long) (runDuration.toNanos() * scale));
    }

    @Override
    public long nowMicros() {
        return (long) (micros(Duration.between(start, clock.now())) / scale);
    }

    @Override
    public long toRunMicros(Instant instant) {
        return (long) (micros(Duration.between(start, instant)) / scale);
    }

    @Override
    protected Instant clockNow() {
        return clock.now();
    }

    @Override
    public void later(Worker worker, Duration delay, Runnable action) {
        dispatch(worker, delay, true, action);
    }

    @Override
    public void inFlight(Worker worker, Duration delay, Runnable action) {
        dispatch(worker, delay, false, action);
    }

    private void dispatch(Worker worker, Duration delay, boolean pausable, Runnable action) {
        if (finished) {
            return;
        }
        timer.schedule(() -> threads.submit(() -> runAs(worker, pausable, action)), realNanos(delay),
                TimeUnit.NANOSECONDS);
    }

    private void runAs(Worker worker, boolean pausable, Runnable action) {
        ReentrantLock lock = locks.computeIfAbsent(worker.name(), n -> new ReentrantLock());
        lock.lock();
        try {
            if (finished) {
                return;
            }
            long resumeAt = faults.resumesAt(worker.name());
            if (pausable && resumeAt > nowMicros()) {
                // Paused: it cannot act until the pause ends.
                dispatch(worker, Duration.ofNanos((resumeAt - nowMicros()) * 1_000), true, action);
                return;
            }
            if (!endGate.readLock().tryLock()) {
                return; // the run is ending
            }
            try {
                acting.set(worker);
                act(action);
            } finally {
                endGate.readLock().unlock();
            }
        } finally {
            acting.remove();
            StoreSession s = actionSession.get();
            if (s != null) {
                actionSession.remove();
                s.close();
                databaseSlots.release();
            }
            lock.unlock();
        }
    }

    /**
     * Naive application code does some work between its check and its write; a live run models one
     * millisecond of it. A pause that starts in that window holds the write until the holder
     * resumes ("a process can pause immediately after the check"): the window in which
     * check-then-write loses its races.
     */
    static final Duration CHECK_TO_WRITE_WORK = Duration.ofMillis(1);

    /** The worker whose action runs on this thread. */
    private final ThreadLocal<Worker> acting = new ThreadLocal<>();

    @Override
    public TargetStore<?> target(TargetKind kind, FencingMode mode) {
        TargetStore<?> target = super.target(kind, mode);
        if (mode == FencingMode.CHECK_THEN_WRITE) {
            target.setBetweenCheckAndWrite(() -> {
                try {
                    Thread.sleep(CHECK_TO_WRITE_WORK);
                    Worker w = acting.get();
                    long resumeAt = w == null ? 0 : faults.resumesAt(w.name());
                    long waitMicros = resumeAt - nowMicros();
                    if (waitMicros > 0) {
                        Thread.sleep(Duration.ofNanos(realNanos(Duration.ofNanos(waitMicros * 1_000))));
                    }
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            });
        }
        return target;
    }

    @Override
    protected void watchExpiry(Lease lease, long expiresAtRunMicros) {
        at(expiresAtRunMicros, () -> expiryDue(lease));
    }

    @Override
    public StoreSession session(Worker worker) {
        StoreSession s = actionSession.get();
        if (s == null) {
            databaseSlots.acquireUninterruptibly();
            try {
                s = store.openSession();
            } catch (DatabaseException e) {
                databaseSlots.release();
                throw e;
            }
            actionSession.set(s);
            if (killPending.remove(worker.name()) != null) {
                terminate(s);
            }
        }
        return s;
    }

    @Override
    public void discardSession(Worker worker) {
        StoreSession s = actionSession.get();
        if (s != null) {
            actionSession.remove();
            s.close();
            databaseSlots.release();
        }
        // Until the server is back, not until the fault's planned end: a start can outlast a short restart.
        boolean restarting = restartUnderWay || anyActive(FaultSpec.DATABASE, FaultKind.DATABASE_RESTART);
        if (!restarting && !db.isReachable()) {
            databaseLost();
        }
    }

    @Override
    public Duration leaseTtl() {
        return onLeaseClock(current.leaseTtl());
    }

    @Override
    protected Duration onLeaseClock(Duration runTime) {
        return Duration.ofNanos(realNanos(runTime));
    }

    @Override
    public Duration renewInterval() {
        return current.renewInterval();
    }

    @Override
    public void close() throws InterruptedException {
        stop();
        ended.await(END_DRAIN_LIMIT.toMillis() + 1_000, TimeUnit.MILLISECONDS);
        timer.shutdownNow();
        threads.shutdown();
        threads.awaitTermination(10, TimeUnit.SECONDS);
    }
}
