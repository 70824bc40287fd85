package io.fencelab.engine.run;

import io.fencelab.engine.chaos.FaultOccurrence;
import io.fencelab.engine.clock.LiveClock;
import io.fencelab.engine.db.Database;
import io.fencelab.engine.db.DatabaseException;
import io.fencelab.engine.db.Session;
import io.fencelab.engine.event.Event;
import io.fencelab.engine.event.EventSink;
import io.fencelab.engine.lease.Lease;
import io.fencelab.engine.worker.Worker;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.ReentrantLock;

/**
 * Runs a spec in real time: every worker action runs on its own virtual thread, so workers race at
 * the database for real. One worker's actions never overlap (a lock per worker). Lease expiry is
 * judged by the database clock. {@code timeScale} stretches or shrinks every duration of the spec.
 */
public final class LiveExecutor extends RunEnvironment implements AutoCloseable {

    private final LiveClock clock;
    private final double scale;
    private final Instant start;
    private final ScheduledExecutorService timer = Executors.newSingleThreadScheduledExecutor(r -> {
        Thread t = new Thread(r, "fencelab-live-timer");
        t.setDaemon(true);
        return t;
    });
    private final ExecutorService threads = Executors.newVirtualThreadPerTaskExecutor();
    private final Map<String, ReentrantLock> locks = new ConcurrentHashMap<>();
    private final Map<String, Long> pausedUntil = new ConcurrentHashMap<>();
    private final Map<String, Boolean> killPending = new ConcurrentHashMap<>();
    private final ThreadLocal<Session> actionSession = new ThreadLocal<>();
    /** Keeps concurrent statements below the pool size, so workers queue here, not in pool time-outs. */
    private final Semaphore databaseSlots;
    private final CountDownLatch ended = new CountDownLatch(1);
    private volatile String endReason;

    public LiveExecutor(Database db, RunSpec spec, EventSink sink, int databaseConcurrency) {
        this(db, spec, sink, databaseConcurrency, new LiveClock());
    }

    private LiveExecutor(Database db, RunSpec spec, EventSink sink, int databaseConcurrency, LiveClock clock) {
        super(db, spec, sink, clock);
        this.clock = clock;
        this.scale = spec.timeScale();
        this.start = clock.now();
        this.databaseSlots = new Semaphore(databaseConcurrency, true);
    }

    /** Starts every worker and fault and returns at once. */
    public void start() {
        publishStart("live");
        for (FaultOccurrence f : plan) {
            scheduleFault(f);
        }
        workers.values().forEach(Worker::start);
        timer.schedule(() -> finish("completed"), realNanos(spec.duration()), TimeUnit.NANOSECONDS);
    }

    /** Blocks until the run ends (its duration passes, it is stopped, or the database is lost). */
    public String awaitEnd() throws InterruptedException {
        ended.await();
        return endReason;
    }

    /** Starts, waits for the end, and returns the end reason. */
    public String runToEnd() throws InterruptedException {
        start();
        return awaitEnd();
    }

    public void stop() {
        finish("stopped");
    }

    private synchronized void finish(String reason) {
        if (endReason != null) {
            return;
        }
        finished = true;
        endReason = reason;
        publishEnd(reason);
        ended.countDown();
    }

    private void scheduleFault(FaultOccurrence f) {
        switch (f.kind()) {
            case PAUSE -> {
                at(f.start(), () -> {
                    pausedUntil.merge(f.target(), micros(f.end()), Math::max);
                    sink.publish(seq -> new Event.PauseStarted(seq, nowMicros(), f.target(), micros(f.length()), "pause fault"));
                });
                at(f.end(), () -> sink.publish(seq -> new Event.PauseEnded(seq, nowMicros(), f.target())));
            }
            case CONNECTION_KILL -> at(f.start(), () -> {
                faultStarted(f);
                killPending.put(f.target(), true);
            });
            case DATABASE_RESTART -> {
                at(f.start(), () -> {
                    faultStarted(f);
                    db.stopEmbedded();
                });
                at(f.end(), () -> {
                    db.startEmbedded();
                    faultHealed(f);
                });
            }
            case REQUEST_DELAY, REQUEST_JITTER, REPLY_DELAY, RENEWAL_LOSS, CLOCK_SKEW, SLOW_LEASE_SERVICE -> {
                at(f.start(), () -> faultStarted(f));
                at(f.end(), () -> faultHealed(f));
            }
        }
    }

    private void at(Duration runTime, Runnable action) {
        timer.schedule(() -> threads.submit(() -> {
            if (!finished) {
                action.run();
            }
        }), realNanos(runTime), TimeUnit.NANOSECONDS);
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
            long resumeAt = pausedUntil.getOrDefault(worker.name(), 0L);
            if (pausable && resumeAt > nowMicros()) {
                // Paused: it cannot act until the pause ends.
                dispatch(worker, Duration.ofNanos((resumeAt - nowMicros()) * 1_000), true, action);
                return;
            }
            acting.set(worker);
            action.run();
        } finally {
            acting.remove();
            Session s = actionSession.get();
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
    public io.fencelab.engine.fence.FencedTarget<?> target(io.fencelab.engine.fence.TargetKind kind,
                                                           io.fencelab.engine.fence.FencingMode mode) {
        io.fencelab.engine.fence.FencedTarget<?> target = super.target(kind, mode);
        if (mode == io.fencelab.engine.fence.FencingMode.CHECK_THEN_WRITE) {
            target.setBetweenCheckAndWrite(() -> {
                try {
                    Thread.sleep(CHECK_TO_WRITE_WORK);
                    Worker w = acting.get();
                    long resumeAt = w == null ? 0 : pausedUntil.getOrDefault(w.name(), 0L);
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
        at(Duration.ofNanos(expiresAtRunMicros * 1_000), () -> expiryDue(lease));
    }

    @Override
    public Session session(Worker worker) {
        Session s = actionSession.get();
        if (s == null) {
            databaseSlots.acquireUninterruptibly();
            try {
                s = db.openSession();
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

    private void terminate(Session s) {
        try {
            int pid = s.backendPid();
            db.jdbi().useHandle(h -> h.createQuery("SELECT pg_terminate_backend(:pid)").bind("pid", pid)
                    .mapTo(Boolean.class).one());
        } catch (java.sql.SQLException | RuntimeException e) {
            // already gone: the worker's statement fails either way
        }
    }

    @Override
    public void discardSession(Worker worker) {
        Session s = actionSession.get();
        if (s != null) {
            actionSession.remove();
            s.close();
            databaseSlots.release();
        }
        boolean restarting = plan.stream().anyMatch(f -> f.kind() == io.fencelab.engine.chaos.FaultKind.DATABASE_RESTART
                && f.activeAt(Duration.ofNanos(nowMicros() * 1_000)));
        if (!restarting && !db.isReachable()) {
            finish("failed: database unreachable");
        }
    }

    @Override
    public Duration leaseTtl() {
        return Duration.ofNanos(realNanos(spec.leaseTtl()));
    }

    @Override
    public Duration renewInterval() {
        return spec.renewInterval();
    }

    @Override
    public void close() throws InterruptedException {
        stop();
        timer.shutdownNow();
        threads.shutdown();
        threads.awaitTermination(10, TimeUnit.SECONDS);
    }
}
