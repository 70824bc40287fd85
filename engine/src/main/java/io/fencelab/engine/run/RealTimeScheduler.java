package io.fencelab.engine.run;

import io.fencelab.engine.clock.LiveClock;
import io.fencelab.engine.db.DatabaseException;
import io.fencelab.engine.fence.FencingMode;
import io.fencelab.engine.store.RunStore;
import io.fencelab.engine.store.StoreSession;
import io.fencelab.engine.store.TargetStore;
import io.fencelab.engine.worker.Worker;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.ReentrantLock;
import java.util.concurrent.locks.ReentrantReadWriteLock;

/**
 * A live run's timing: real time, stretched by the spec's time scale; every action on its own virtual
 * thread, so workers race at the database for real, one worker's actions never overlapping (a lock
 * per worker). Each action borrows a store session for its length; a semaphore keeps the statements
 * in flight below the pool size.
 */
final class RealTimeScheduler implements RunScheduler {

    /** What a live run's scheduler asks of its executor besides {@link RunScheduler.Host}. */
    interface LiveHost extends RunScheduler.Host {
        /** Whether a planned database restart is active now (the server may still be down). */
        boolean restartPlanned();
    }

    /**
     * Naive application code does some work between its check and its write; a live run models one
     * millisecond of it. A pause that starts in that window holds the write until the holder
     * resumes ("a process can pause immediately after the check"): the window in which
     * check-then-write loses its races.
     */
    static final Duration CHECK_TO_WRITE_WORK = Duration.ofMillis(1);

    private final LiveClock clock;
    private final double scale;
    private final RunStore store;
    private final LiveHost host;
    /** Run time zero: when {@link #begin()} was called (a prepared run may wait for its user). */
    private volatile Instant start;
    private final ScheduledExecutorService timer = Executors.newSingleThreadScheduledExecutor(r -> {
        Thread t = new Thread(r, "fencelab-live-timer");
        t.setDaemon(true);
        return t;
    });
    private final ExecutorService threads = Executors.newVirtualThreadPerTaskExecutor();
    private final Map<String, ReentrantLock> locks = new ConcurrentHashMap<>();
    /** Per worker, its actions whose time has come ({@link #runNext}). */
    private final Map<String, java.util.concurrent.PriorityBlockingQueue<Due>> pending = new ConcurrentHashMap<>();
    private final java.util.concurrent.atomic.AtomicLong dispatched = new java.util.concurrent.atomic.AtomicLong();
    private final Map<String, Boolean> killPending = new ConcurrentHashMap<>();
    private final ThreadLocal<StoreSession> actionSession = new ThreadLocal<>();
    /** Keeps concurrent statements below the pool size, so workers queue here, not in pool time-outs. */
    private final Semaphore databaseSlots;
    /** From a restart fault's stop until its start has returned: statements failing then do not end the run. */
    private volatile boolean restartUnderWay;
    /**
     * Actions hold it shared while they run; the end takes it exclusively, so {@code RunEnded} is
     * published after every action already under way (and never before one of their events).
     */
    private final ReentrantReadWriteLock endGate = new ReentrantReadWriteLock();
    /** The worker whose action runs on this thread. */
    private final ThreadLocal<Worker> acting = new ThreadLocal<>();

    RealTimeScheduler(LiveClock clock, double scale, int databaseConcurrency, RunStore store, LiveHost host) {
        this.clock = clock;
        this.scale = scale;
        this.store = store;
        this.host = host;
        this.start = clock.now();
        this.databaseSlots = new Semaphore(databaseConcurrency, true);
    }

    /** Run time starts now. */
    void begin() {
        start = clock.now();
    }

    /** Run time started at {@code zero} on this scheduler's clock (an agent joins a run begun elsewhere). */
    void beginAt(Instant zero) {
        start = zero;
    }

    /** Runs {@code action} on the timer once {@code runTime} has passed from the start. */
    void afterRunTime(Duration runTime, Runnable action) {
        timer.schedule(action, realNanos(runTime), TimeUnit.NANOSECONDS);
    }

    /**
     * On a thread of its own (an action may be what ends the run), waits up to {@code limit} for the
     * actions under way, then runs {@code end} with none under way and none starting.
     */
    void afterActions(Duration limit, Runnable end) {
        Thread.ofVirtual().name("fencelab-live-end").start(() -> {
            boolean drained = false;
            try {
                drained = endGate.writeLock().tryLock(limit.toMillis(), TimeUnit.MILLISECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            try {
                end.run();
            } finally {
                if (drained) {
                    endGate.writeLock().unlock();
                }
            }
        });
    }

    /** Runs {@code action} under the worker's lock, so it falls between two of its actions (a crash, a restart). */
    void asWorker(String name, Runnable action) {
        ReentrantLock lock = locks.computeIfAbsent(name, n -> new ReentrantLock());
        lock.lock();
        try {
            action.run();
        } finally {
            lock.unlock();
        }
    }

    @Override
    public void at(long atMicros, Runnable action) {
        long delayMicros = Math.max(0, atMicros - nowMicros());
        timer.schedule(() -> threads.submit(() -> {
            // Checked before the gate too, so the end's wait is not kept up by actions that would do nothing.
            if (host.over() || !endGate.readLock().tryLock()) {
                return; // the run is ending
            }
            try {
                if (!host.over()) {
                    action.run();
                }
            } finally {
                endGate.readLock().unlock();
            }
        }), realNanos(Duration.ofNanos(delayMicros * 1_000)), TimeUnit.NANOSECONDS);
    }

    long realNanos(Duration runDuration) {
        return Math.max(0, (long) (runDuration.toNanos() * scale));
    }

    @Override
    public long nowMicros() {
        return (long) (RunCore.micros(Duration.between(start, clock.now())) / scale);
    }

    /** The instant of run time {@code runMicros} on this scheduler's clock (inverse of {@link #toRunMicros}). */
    Instant atRunMicros(long runMicros) {
        return start.plusNanos((long) (runMicros * 1_000 * scale));
    }

    @Override
    public long toRunMicros(Instant instant) {
        return (long) (RunCore.micros(Duration.between(start, instant)) / scale);
    }

    @Override
    public Instant clockNow() {
        return clock.now();
    }

    @Override
    public Duration onLeaseClock(Duration runTime) {
        return Duration.ofNanos(realNanos(runTime));
    }

    @Override
    public void later(Worker worker, Duration delay, Runnable action) {
        dispatch(worker, delay, true, action);
    }

    @Override
    public void inFlight(Worker worker, Duration delay, Runnable action) {
        dispatch(worker, delay, false, action);
    }

    /** A worker's action whose time has come, waiting for the worker: earliest due first. */
    private record Due(long dueNanos, long order, boolean pausable, Runnable action) {
    }

    private static final java.util.Comparator<Due> EARLIEST = java.util.Comparator.comparingLong(Due::dueNanos)
            .thenComparingLong(Due::order);

    private void dispatch(Worker worker, Duration delay, boolean pausable, Runnable action) {
        dispatch(worker, delay, System.nanoTime() + realNanos(delay), pausable, action);
    }

    private void dispatch(Worker worker, Duration delay, long dueNanos, boolean pausable, Runnable action) {
        if (host.over()) {
            return;
        }
        Due due = new Due(dueNanos, dispatched.incrementAndGet(), pausable, action);
        timer.schedule(() -> {
            pending.computeIfAbsent(worker.name(), n -> new java.util.concurrent.PriorityBlockingQueue<>(4, EARLIEST))
                    .add(due);
            threads.submit(() -> runNext(worker));
        }, realNanos(delay), TimeUnit.NANOSECONDS);
    }

    /**
     * Runs the worker's earliest due action. After a stall (a frozen process, a starved machine) several
     * are overdue at once, and they run in the order they were due, as in a simulated run: a write that
     * was due before a renew deadline goes first, the pause having come after the check.
     */
    private void runNext(Worker worker) {
        ReentrantLock lock = locks.computeIfAbsent(worker.name(), n -> new ReentrantLock());
        lock.lock();
        try {
            Due due = pending.get(worker.name()).poll();
            if (due == null || host.over()) {
                return;
            }
            boolean pausable = due.pausable();
            Runnable action = due.action();
            long resumeAt = host.resumesAt(worker.name());
            if (pausable && resumeAt > nowMicros()) {
                // Paused: it cannot act until the pause ends, and then in the order it was due.
                dispatch(worker, Duration.ofNanos((resumeAt - nowMicros()) * 1_000), due.dueNanos(), true, action);
                return;
            }
            if (!endGate.readLock().tryLock()) {
                return; // the run is ending
            }
            try {
                acting.set(worker);
                host.act(action);
            } finally {
                endGate.readLock().unlock();
            }
        } finally {
            acting.remove();
            releaseSession();
            lock.unlock();
        }
    }

    @Override
    public Worker acting() {
        return acting.get();
    }

    /** Check-then-write gets its work between check and write, and a pause begun in it holds the write. */
    @Override
    public void prepare(TargetStore<?> target) {
        if (target.mode() != FencingMode.CHECK_THEN_WRITE) {
            return;
        }
        target.setBetweenCheckAndWrite(() -> {
            try {
                Thread.sleep(CHECK_TO_WRITE_WORK);
                Worker w = acting.get();
                long resumeAt = w == null ? 0 : host.resumesAt(w.name());
                long waitMicros = resumeAt - nowMicros();
                if (waitMicros > 0) {
                    Thread.sleep(Duration.ofNanos(realNanos(Duration.ofNanos(waitMicros * 1_000))));
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        });
    }

    /** The holder's own virtual thread sleeps until run time {@code untilMicros}: the other holders' threads go on. */
    void stall(long untilMicros) {
        long waitMicros = untilMicros - nowMicros();
        if (waitMicros > 0) {
            try {
                Thread.sleep(Duration.ofNanos(realNanos(Duration.ofNanos(waitMicros * 1_000))));
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
    }

    // ---- sessions and the database --------------------------------------------------------------

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
                store.kill(s);
            }
        }
        return s;
    }

    @Override
    public void discardSession(Worker worker) {
        releaseSession();
        // Until the server is back, not until the fault's planned end: a start can outlast a short restart.
        boolean restarting = restartUnderWay || host.restartPlanned();
        if (!restarting && !store.isReachable()) {
            host.databaseLost();
        }
    }

    private void releaseSession() {
        StoreSession s = actionSession.get();
        if (s != null) {
            actionSession.remove();
            s.close();
            databaseSlots.release();
        }
    }

    /** The kill hits the session of the holder's next action, as it borrows one per action. */
    void killSession(String holder) {
        killPending.put(holder, true);
    }

    void stopDatabase() {
        restartUnderWay = true;
        store.stop();
    }

    void startDatabase() {
        store.start();
        restartUnderWay = false;
    }

    /** Stops the timer and waits for the action threads. */
    void shutdown() throws InterruptedException {
        timer.shutdownNow();
        threads.shutdown();
        threads.awaitTermination(10, TimeUnit.SECONDS);
    }
}
