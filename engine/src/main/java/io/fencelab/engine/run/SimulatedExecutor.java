package io.fencelab.engine.run;

import io.fencelab.engine.chaos.FaultKind;
import io.fencelab.engine.chaos.FaultPlan;
import io.fencelab.engine.clock.VirtualClock;
import io.fencelab.engine.db.Database;
import io.fencelab.engine.db.DatabaseException;
import io.fencelab.engine.event.Event.RunEnded;
import io.fencelab.engine.event.EventSink;
import io.fencelab.engine.lease.Lease;
import io.fencelab.engine.store.StoreSession;
import io.fencelab.engine.worker.Worker;
import java.time.Duration;
import java.time.Instant;
import java.util.Comparator;
import java.util.HashMap;
import java.util.Map;
import java.util.PriorityQueue;

/**
 * Runs a spec on a virtual clock with a single-threaded discrete-event scheduler. The SQL is real;
 * the time is not. The same spec and seed give the same events, byte for byte.
 *
 * <p>Control: {@link #step()} executes the next scheduled action, {@link #runUntil(Duration)} and
 * {@link #runToEnd()} run on, never waiting for real time: a caller that plays the run against
 * real time (the console) paces its steps with an {@link io.fencelab.engine.clock.Pacer}. Not
 * thread-safe: drive it from one thread (the console does so from its run thread).
 */
public final class SimulatedExecutor extends RunEnvironment implements AutoCloseable {

    /**
     * One scheduled action. {@code place} and {@code step}: an action of an occurrence of the run's fault
     * plan, which at its instant comes before every other action, by place and step, exactly as when
     * the whole plan was scheduled before the workers started (occurrences are now drawn as the run
     * goes, and the logs must not change); null for every other action, which keep the order given.
     */
    private record Action(long atMicros, long order, Worker owner, boolean pausable, Runnable body,
                          FaultPlan.Place place, int step) {}

    private static final Comparator<Action> ORDER = Comparator.comparingLong(Action::atMicros)
            .thenComparing(Action::place, Comparator.nullsLast(Comparator.naturalOrder()))
            .thenComparingInt(Action::step).thenComparingLong(Action::order);

    private final VirtualClock clock;
    private final PriorityQueue<Action> queue = new PriorityQueue<>(ORDER);
    /**
     * One session serves every worker: the scheduler is single-threaded, and one warm connection is
     * several times faster than fifty cold ones. A worker that a connection-kill fault targets gets a
     * session of its own, so the kill is real and hits only that worker.
     */
    private StoreSession shared;
    private final Map<Worker, StoreSession> sessions = new HashMap<>();
    private final java.util.Set<String> killTargets = new java.util.HashSet<>();
    private final FaultScheduler faults;
    private long order;
    private boolean started;
    private boolean databaseDown;
    private RunEnded.Reason endReason;
    /** The worker whose action runs now (null for a fault or an expiry watch): who reaches a failpoint. */
    private Worker acting;

    public SimulatedExecutor(Database db, RunSpec spec, EventSink sink) {
        this(db, spec, sink, Backend.POSTGRES);
    }

    /** A run whose leases and fenced resources live in {@code backend}. */
    public SimulatedExecutor(Database db, RunSpec spec, EventSink sink, Backend backend) {
        this(db, spec, sink, new VirtualClock(), backend);
    }

    private SimulatedExecutor(Database db, RunSpec spec, EventSink sink, VirtualClock clock, Backend backend) {
        super(db, spec, sink, clock, backend);
        this.clock = clock;
        this.faults = new FaultScheduler(new Faults(), sink);
        plan.stream().filter(p -> p.spec().kind() == FaultKind.CONNECTION_KILL && p.hasNext())
                .forEach(p -> killTargets.add(p.target()));
    }

    /** Set by {@link #requestStop()} from another thread; the stepping thread ends the run. */
    private volatile boolean stopRequested;

    /** Run time now. */
    public Duration now() {
        return clock.elapsed();
    }

    /** Whether the run has ended (duration reached, nothing left to do, stopped, or failed). */
    public boolean isOver() {
        return endReason != null;
    }

    /** How the run ended, or null while it goes on. */
    public RunEnded.Reason endReason() {
        return endReason;
    }

    /** Executes the next scheduled action; returns false once the run is over. */
    public boolean step() {
        ensureStarted();
        if (isOver()) {
            return false;
        }
        if (stopRequested) {
            finish(RunEnded.Reason.STOPPED);
            return false;
        }
        Action next = queue.poll();
        long end = micros(spec.duration());
        if (next == null || next.atMicros > end) {
            // Nothing more happens before the end (or at all): the run still lasts its full duration,
            // as a live run does, so both end at the same run time.
            clock.advanceTo(clock.start().plus(spec.duration()));
            finish(RunEnded.Reason.COMPLETED);
            return false;
        }
        execute(next);
        return !isOver();
    }

    /** Runs one action at its time, or moves it to when its holder resumes if the holder is paused. */
    private void execute(Action next) {
        clock.advanceTo(clock.start().plus(Duration.ofNanos(next.atMicros * 1_000)));
        long resumeAt = next.owner == null ? 0 : faults.resumesAt(next.owner.name());
        if (next.pausable && resumeAt > next.atMicros) {
            // The holder is paused: whatever it would do now happens when it resumes.
            schedule(resumeAt, next.owner, true, next.body);
            return;
        }
        Worker outer = acting;
        acting = next.owner;
        try {
            act(next.body);
        } finally {
            acting = outer;
        }
    }

    /**
     * A holder stalls inside its statement code (a failpoint's pause) until {@code untilMicros}: the
     * scheduler is single-threaded, so the stalled code's frame stays on the stack while every action
     * due before then runs from here, nested. The holder's own deferrable actions move to its resume
     * time (it is paused), so nothing of it runs before the stalled code goes on; the run does not end
     * in here, at most its clock reaches the end.
     */
    private void stall(long untilMicros) {
        long limit = Math.min(untilMicros, micros(spec.duration()));
        while (!isOver()) {
            Action next = queue.peek();
            if (next == null || next.atMicros >= limit) {
                break;
            }
            execute(queue.poll());
        }
        if (!isOver() && nowMicros() < limit) {
            clock.advanceTo(clock.start().plus(Duration.ofNanos(limit * 1_000)));
        }
    }

    /** Runs until run time {@code t} (or the end); returns whether the run goes on. */
    public boolean runUntil(Duration t) {
        ensureStarted();
        // Never past the run's end: the clock would have to step back to end the run there.
        Duration until = t.compareTo(spec.duration()) > 0 ? spec.duration() : t;
        long limit = micros(until);
        while (!isOver()) {
            Action next = queue.peek();
            if (next != null && next.atMicros > limit) {
                clock.advanceTo(clock.start().plus(until));
                return true;
            }
            step();
        }
        return false;
    }

    /** Runs to the end of the spec's duration. */
    public void runToEnd() {
        ensureStarted();
        while (step()) {
            // each step executes one action
        }
    }

    /**
     * Asks the run to end, from any thread: the thread stepping it ends it ({@code stopped}) instead
     * of its next action. {@link #stop()} is for that thread itself; a run publishes its events on one
     * thread only.
     */
    public void requestStop() {
        stopRequested = true;
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
        publishStart("simulated");
        faults.schedulePlan(plan, this::register);
        workers.values().forEach(Worker::start);
    }

    /** How faults act on a simulated run: at once, on the scheduler's thread. */
    private final class Faults implements FaultScheduler.Host {
        @Override
        public long nowMicros() {
            return SimulatedExecutor.this.nowMicros();
        }

        @Override
        public void at(long atMicros, Runnable action) {
            schedule(atMicros, null, false, action);
        }

        @Override
        public void at(long atMicros, FaultPlan.Place place, int step, Runnable action) {
            queue.add(new Action(atMicros, order++, null, false, action, place, step));
        }

        @Override
        public void killSession(String holder) {
            Worker w = workers.get(holder);
            StoreSession s = w == null ? null : sessions.get(w);
            if (s != null) {
                terminate(s);
            }
        }

        @Override
        public boolean running(String holder) {
            return SimulatedExecutor.this.running(holder);
        }

        @Override
        public void crash(String holder) {
            workers.get(holder).crash();
        }

        @Override
        public void restart(String holder, boolean newIdentity) {
            workers.get(holder).restart(newIdentity);
        }

        @Override
        public void kill(String holder, StoreSession session, boolean afterStatement) {
            terminate(session);
        }

        @Override
        public void stall(long untilMicros) {
            SimulatedExecutor.this.stall(untilMicros);
        }

        @Override
        public void stopDatabase() {
            databaseDown = true;
            closeSessions();
            store.stop();
        }

        @Override
        public void startDatabase() {
            store.start();
            databaseDown = false;
        }

        @Override
        public void databaseBroken(DatabaseException failure) {
            SimulatedExecutor.this.databaseBroken(failure);
        }
    }

    @Override
    protected Worker actingWorker() {
        return acting;
    }

    @Override
    protected FaultScheduler faultScheduler() {
        return faults;
    }

    /** Its own session, as a connection-kill target gets: a kill or a stall must hit that holder only. */
    @Override
    protected void armedFor(String holder) {
        killTargets.add(holder);
    }

    @Override
    protected void finish(RunEnded.Reason reason) {
        if (endReason == null) {
            endReason = reason;
            finished = true;
            faults.healAtEnd();
            publishEnd(reason);
        }
    }

    private void schedule(long atMicros, Worker owner, boolean pausable, Runnable body) {
        queue.add(new Action(atMicros, order++, owner, pausable, body, null, 0));
    }

    @Override
    public long nowMicros() {
        return micros(clock.elapsed());
    }

    @Override
    public long toRunMicros(Instant instant) {
        return micros(Duration.between(clock.start(), instant));
    }

    @Override
    protected Instant clockNow() {
        return clock.now();
    }

    @Override
    public void later(Worker worker, Duration delay, Runnable action) {
        schedule(nowMicros() + micros(delay), worker, true, action);
    }

    @Override
    public void inFlight(Worker worker, Duration delay, Runnable action) {
        schedule(nowMicros() + micros(delay), worker, false, action);
    }

    @Override
    protected void watchExpiry(Lease lease, long expiresAtRunMicros) {
        schedule(expiresAtRunMicros, null, false, () -> expiryDue(lease));
    }

    @Override
    public StoreSession session(Worker worker) {
        if (databaseDown) {
            throw new DatabaseException("database is down (restart fault): connection refused");
        }
        if (killTargets.contains(worker.name())) {
            return sessions.computeIfAbsent(worker, w -> store.openSession());
        }
        if (shared == null) {
            shared = store.openSession();
        }
        return shared;
    }

    @Override
    public void discardSession(Worker worker) {
        StoreSession s = killTargets.contains(worker.name()) ? sessions.remove(worker) : shared;
        if (s == shared) {
            shared = null;
        }
        if (s != null) {
            s.close();
        }
        if (!databaseDown && !store.isReachable()) {
            databaseLost();
        }
    }

    @Override
    public Duration leaseTtl() {
        return current.leaseTtl();
    }

    @Override
    public Duration renewInterval() {
        return current.renewInterval();
    }

    private void closeSessions() {
        sessions.values().forEach(StoreSession::close);
        sessions.clear();
        if (shared != null) {
            shared.close();
            shared = null;
        }
    }

    @Override
    public void close() {
        stop();
        closeSessions();
        store.close();
    }
}
