package io.fencelab.engine.run;

import io.fencelab.engine.chaos.FaultKind;
import io.fencelab.engine.chaos.FaultOccurrence;
import io.fencelab.engine.chaos.FaultSpec;
import io.fencelab.engine.clock.LiveClock;
import io.fencelab.engine.db.Database;
import io.fencelab.engine.db.DatabaseException;
import io.fencelab.engine.event.Event.RunEnded;
import io.fencelab.engine.event.EventSink;
import io.fencelab.engine.store.RunStore;
import io.fencelab.engine.store.StoreSession;
import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

/**
 * Runs a spec in real time ({@link RealTimeScheduler}): every worker action runs on its own virtual
 * thread, so workers race at the database for real. Lease expiry is judged by the database clock.
 * {@code timeScale} stretches or shrinks every duration of the spec. Faults are timed by a
 * {@link FaultScheduler}; changes while the run runs ({@link #change}, {@link #inject}) are
 * {@link LiveChanges}'. Every database operation, the restart fault's stop and start included, goes
 * through the run's store.
 */
public final class LiveExecutor implements ComposedExecutor, ByHand {

    /** How long the end waits for actions under way (a statement stuck on a dying database). */
    static final Duration END_DRAIN_LIMIT = Duration.ofSeconds(5);

    private final RunCore run;
    private final RealTimeScheduler scheduler;
    /** Starts and heals the faults, planned and by hand; this executor only applies their effects. */
    private final FaultScheduler faults;
    private final FailpointArming failpoints;
    /** Spec changes and faults by hand while the run runs; called under this executor's lock. */
    private final LiveChanges changes;
    private final ServiceFaults service;
    private final CountDownLatch ended = new CountDownLatch(1);
    private volatile boolean started;
    private volatile RunEnded.Reason endReason;

    public LiveExecutor(Database db, RunSpec spec, EventSink sink, int databaseConcurrency) {
        this(db, spec, sink, databaseConcurrency, ServiceFaults.NONE);
    }

    /** @param service the run's lease service's server, for faults on it ({@link ServiceFaults#NONE}: none) */
    LiveExecutor(Database db, RunSpec spec, EventSink sink, int databaseConcurrency, ServiceFaults service) {
        this.service = service;
        LiveClock clock = new LiveClock();
        RunStore store = Backend.POSTGRES.open(db, spec, clock);
        this.scheduler = new RealTimeScheduler(clock, spec.timeScale(), databaseConcurrency, store, new Hooks());
        this.run = new RunCore(spec, sink, store, scheduler, WorkerPlacement.inJvm(), this::finish);
        this.faults = new FaultScheduler(new Faults(), sink);
        run.pauseAtGrants(spec.faults(), faults::stall);
        this.failpoints = new FailpointArming(run, faults, scheduler::acting, holder -> { });
        this.changes = new LiveChanges(run, faults);
    }

    /** Starts every worker and fault and returns at once. */
    public void start() {
        scheduler.begin();
        started = true;
        run.publishStart("live");
        faults.schedulePlan(run.plan(), run.faults()::register);
        run.allWorkers().forEach(WorkerPlacement.Placed::start);
        scheduler.afterRunTime(run.spec().duration(), () -> finish(RunEnded.Reason.COMPLETED));
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

    /** Runs to the end, then lets go of the run's threads, so no action is under way when it returns. */
    @Override
    public RunEnded.Reason execute() throws InterruptedException {
        RunEnded.Reason end = runToEnd();
        close();
        return end;
    }

    public void stop() {
        finish(RunEnded.Reason.STOPPED);
    }

    @Override
    public void requestStop() {
        stop();
    }

    @Override
    public RunEnded.Reason endReason() {
        return endReason;
    }

    /** Run time now, in microseconds (from {@link #start()}). */
    public long nowMicros() {
        return scheduler.nowMicros();
    }

    /**
     * Ends the run: nothing new starts from now on, and {@code RunEnded} follows once the actions
     * already under way have published their events (or after {@link #END_DRAIN_LIMIT}). The wait
     * happens on a thread of its own, since an action may be what ends the run.
     */
    private synchronized void finish(RunEnded.Reason reason) {
        if (endReason != null) {
            return;
        }
        run.markFinished();
        endReason = reason;
        scheduler.afterActions(END_DRAIN_LIMIT, () -> {
            try {
                faults.healAtEnd();
                run.publishEnd(reason);
            } finally {
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
    @Override
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
    @Override
    public synchronized void change(RunSpec next) {
        changes.change(next);
    }

    /** Not for callers: the parts {@link ComposedExecutor} answers from. */
    @Override
    public RunCore core() {
        return run;
    }

    @Override
    public FailpointArming failpoints() {
        return failpoints;
    }

    @Override
    public void close() throws InterruptedException {
        stop();
        ended.await(END_DRAIN_LIMIT.toMillis() + 1_000, TimeUnit.MILLISECONDS);
        scheduler.shutdown();
        // After the last statement: a store with a scratch schema reads it, then drops it.
        run.store().close();
    }

    /** What the scheduler asks of this executor. */
    private final class Hooks implements RealTimeScheduler.LiveHost {
        @Override
        public long resumesAt(String holder) {
            return faults.resumesAt(holder);
        }

        @Override
        public void act(Runnable action) {
            failpoints.act(action);
        }

        @Override
        public boolean over() {
            return run.finished();
        }

        @Override
        public void finish(RunEnded.Reason reason) {
            LiveExecutor.this.finish(reason);
        }

        @Override
        public void databaseLost() {
            run.databaseLost();
        }

        @Override
        public boolean restartPlanned() {
            return run.faults().anyActive(FaultSpec.DATABASE, FaultKind.DATABASE_RESTART);
        }
    }

    /** How faults act on a live run: on the run's timer, each effect on a virtual thread. */
    private final class Faults implements FaultScheduler.Host {
        @Override
        public ServiceFaults service() {
            return service;
        }

        @Override
        public long nowMicros() {
            return scheduler.nowMicros();
        }

        @Override
        public void at(long atMicros, Runnable action) {
            scheduler.at(atMicros, action);
        }

        @Override
        public void killSession(String holder) {
            scheduler.killSession(holder);
        }

        @Override
        public void stopDatabase() {
            scheduler.stopDatabase();
        }

        @Override
        public void startDatabase() {
            scheduler.startDatabase();
        }

        @Override
        public boolean running(String holder) {
            return run.running(holder);
        }

        /** Under the worker's lock, so the crash falls between two of its actions. */
        @Override
        public void crash(String holder) {
            WorkerPlacement.Placed w = run.worker(holder);
            if (w != null) {
                scheduler.asWorker(holder, w::crash);
            }
        }

        @Override
        public void restart(String holder, boolean newIdentity) {
            WorkerPlacement.Placed w = run.worker(holder);
            if (w != null) {
                scheduler.asWorker(holder, () -> w.restart(newIdentity));
            }
        }

        @Override
        public void databaseBroken(DatabaseException failure) {
            run.databaseBroken(failure);
        }

        @Override
        public void kill(String holder, StoreSession session, boolean afterStatement) {
            if (afterStatement) {
                // Killed now, this action's session would just be closed at the action's end and the
                // holder would never meet the kill: it meets it on its next action's session instead.
                killSession(holder);
            } else {
                run.store().kill(session);
            }
        }

        @Override
        public void stall(long untilMicros) {
            scheduler.stall(untilMicros);
        }
    }
}
