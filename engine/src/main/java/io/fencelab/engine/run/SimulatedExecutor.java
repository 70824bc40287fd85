package io.fencelab.engine.run;

import io.fencelab.engine.chaos.FaultKind;
import io.fencelab.engine.chaos.FaultPlan;
import io.fencelab.engine.clock.VirtualClock;
import io.fencelab.engine.db.Database;
import io.fencelab.engine.db.DatabaseException;
import io.fencelab.engine.event.Event.RunEnded;
import io.fencelab.engine.event.EventSink;
import io.fencelab.engine.store.RunStore;
import io.fencelab.engine.store.StoreSession;
import java.time.Duration;

/**
 * Runs a spec on a virtual clock with a single-threaded discrete-event scheduler
 * ({@link VirtualTimeScheduler}). The SQL is real; the time is not. The same spec and seed give the
 * same events, byte for byte.
 *
 * <p>Control: {@link #step()} executes the next scheduled action, {@link #runUntil(Duration)} and
 * {@link #runToEnd()} run on, never waiting for real time: a caller that plays the run against
 * real time (the console) paces its steps with an {@link io.fencelab.engine.clock.Pacer}. Not
 * thread-safe: drive it from one thread (the console does so from its run thread).
 */
public final class SimulatedExecutor implements ComposedExecutor {

    private final RunCore run;
    private final VirtualTimeScheduler scheduler;
    private final FaultScheduler faults;
    private final FailpointArming failpoints;
    private boolean started;
    private RunEnded.Reason endReason;

    public SimulatedExecutor(Database db, RunSpec spec, EventSink sink) {
        this(db, spec, sink, Backend.POSTGRES);
    }

    /** A run whose leases and fenced resources live in {@code backend}. */
    public SimulatedExecutor(Database db, RunSpec spec, EventSink sink, Backend backend) {
        this(spec, sink, new VirtualClock(), clock -> backend.open(db, spec, clock));
    }

    private SimulatedExecutor(RunSpec spec, EventSink sink, VirtualClock clock,
                              java.util.function.Function<VirtualClock, RunStore> store) {
        RunStore opened = store.apply(clock);
        this.scheduler = new VirtualTimeScheduler(clock, spec.duration(), opened, new Hooks());
        this.run = new RunCore(spec, sink, opened, scheduler, WorkerPlacement.inJvm(), this::finish);
        this.faults = new FaultScheduler(new Faults(), sink);
        run.pauseAtGrants(spec.faults(), faults::stall);
        // A holder stalled at its grant runs the others' actions nested: its session must stay its own.
        GrantPauses.of(spec.faults()).forEach(p -> scheduler.ownSession(p.target()));
        this.failpoints = new FailpointArming(run, faults, scheduler::acting, scheduler::ownSession);
        run.plan().stream().filter(p -> p.spec().kind() == FaultKind.CONNECTION_KILL && p.hasNext())
                .forEach(p -> scheduler.ownSession(p.target()));
    }

    /** Run time now. */
    public Duration now() {
        return scheduler.now();
    }

    /** Whether the run has ended (duration reached, nothing left to do, stopped, or failed). */
    public boolean isOver() {
        return endReason != null;
    }

    @Override
    public RunEnded.Reason endReason() {
        return endReason;
    }

    /** Executes the next scheduled action; returns false once the run is over. */
    public boolean step() {
        ensureStarted();
        return scheduler.step();
    }

    /** Runs until run time {@code t} (or the end); returns whether the run goes on. */
    public boolean runUntil(Duration t) {
        ensureStarted();
        return scheduler.runUntil(t);
    }

    /** Runs to the end of the spec's duration. */
    public void runToEnd() {
        ensureStarted();
        while (scheduler.step()) {
            // each step executes one action
        }
    }

    @Override
    public RunEnded.Reason execute() {
        runToEnd();
        return endReason;
    }

    /**
     * Asks the run to end, from any thread: the thread stepping it ends it ({@code stopped}) instead
     * of its next action. {@link #stop()} is for that thread itself; a run publishes its events on one
     * thread only.
     */
    @Override
    public void requestStop() {
        scheduler.requestStop();
    }

    /** Ends the run now; what happened so far stays in the event log. Call on the thread that steps the run. */
    public void stop() {
        if (!isOver()) {
            finish(RunEnded.Reason.STOPPED);
        }
    }

    private void ensureStarted() {
        if (started) {
            return;
        }
        started = true;
        run.publishStart("simulated");
        faults.schedulePlan(run.plan(), run.faults()::register);
        run.allWorkers().forEach(WorkerPlacement.Placed::start);
    }

    private void finish(RunEnded.Reason reason) {
        if (endReason == null) {
            endReason = reason;
            run.markFinished();
            faults.healAtEnd();
            run.publishEnd(reason);
        }
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
    public void close() {
        stop();
        scheduler.closeSessions();
        run.store().close();
    }

    /** What the scheduler asks of this executor. */
    private final class Hooks implements RunScheduler.Host {
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
            return isOver();
        }

        @Override
        public void finish(RunEnded.Reason reason) {
            SimulatedExecutor.this.finish(reason);
        }

        @Override
        public void databaseLost() {
            run.databaseLost();
        }
    }

    /** How faults act on a simulated run: at once, on the scheduler's thread. */
    private final class Faults implements FaultScheduler.Host {
        @Override
        public long nowMicros() {
            return scheduler.nowMicros();
        }

        @Override
        public void at(long atMicros, Runnable action) {
            scheduler.at(atMicros, action);
        }

        @Override
        public void at(long atMicros, FaultPlan.Place place, int step, Runnable action) {
            scheduler.at(atMicros, place, step, action);
        }

        @Override
        public void killSession(String holder) {
            scheduler.killSession(holder);
        }

        @Override
        public boolean running(String holder) {
            return run.running(holder);
        }

        @Override
        public void crash(String holder) {
            run.worker(holder).crash();
        }

        @Override
        public void restart(String holder, boolean newIdentity) {
            run.worker(holder).restart(newIdentity);
        }

        @Override
        public void kill(String holder, StoreSession session, boolean afterStatement) {
            run.store().kill(session);
        }

        @Override
        public void stall(long untilMicros) {
            scheduler.stall(untilMicros);
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
        public void databaseBroken(DatabaseException failure) {
            run.databaseBroken(failure);
        }
    }
}
