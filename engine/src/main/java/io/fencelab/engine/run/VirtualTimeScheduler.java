package io.fencelab.engine.run;

import io.fencelab.engine.chaos.FaultPlan;
import io.fencelab.engine.clock.VirtualClock;
import io.fencelab.engine.db.DatabaseException;
import io.fencelab.engine.event.Event.RunEnded;
import io.fencelab.engine.store.RunStore;
import io.fencelab.engine.store.StoreSession;
import io.fencelab.engine.worker.Worker;
import java.time.Duration;
import java.time.Instant;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Map;
import java.util.PriorityQueue;
import java.util.Set;

/**
 * A simulated run's timing: a virtual clock and a single-threaded discrete-event scheduler. Actions
 * run in time order, ties in the order given; nothing waits for real time. Not thread-safe apart from
 * {@link #requestStop()}: one thread steps it.
 */
final class VirtualTimeScheduler implements RunScheduler {

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
    private final Duration duration;
    private final RunStore store;
    private final Host host;
    private final PriorityQueue<Action> queue = new PriorityQueue<>(ORDER);
    /**
     * One session serves every worker: the scheduler is single-threaded, and one warm connection is
     * several times faster than fifty cold ones. A worker that a connection-kill fault targets gets a
     * session of its own, so the kill is real and hits only that worker.
     */
    private StoreSession shared;
    private final Map<String, StoreSession> sessions = new HashMap<>();
    private final Set<String> killTargets = new HashSet<>();
    private long order;
    private boolean databaseDown;
    /** The worker whose action runs now (null for a fault or an expiry watch): who reaches a failpoint. */
    private Worker acting;
    /** Set by {@link #requestStop()} from another thread; the stepping thread ends the run. */
    private volatile boolean stopRequested;

    VirtualTimeScheduler(VirtualClock clock, Duration duration, RunStore store, Host host) {
        this.clock = clock;
        this.duration = duration;
        this.store = store;
        this.host = host;
    }

    /** Run time now. */
    Duration now() {
        return clock.elapsed();
    }

    /** The worker {@code holder} gets a session of its own: a kill or a stall must hit that holder only. */
    void ownSession(String holder) {
        killTargets.add(holder);
    }

    /** Asks the run to end, from any thread: the stepping thread ends it instead of its next action. */
    void requestStop() {
        stopRequested = true;
    }

    /** Executes the next scheduled action; returns false once the run is over. */
    boolean step() {
        if (host.over()) {
            return false;
        }
        if (stopRequested) {
            host.finish(RunEnded.Reason.STOPPED);
            return false;
        }
        Action next = queue.poll();
        long end = RunCore.micros(duration);
        if (next == null || next.atMicros > end) {
            // Nothing more happens before the end (or at all): the run still lasts its full duration,
            // as a live run does, so both end at the same run time.
            clock.advanceTo(clock.start().plus(duration));
            host.finish(RunEnded.Reason.COMPLETED);
            return false;
        }
        execute(next);
        return !host.over();
    }

    /** Runs until run time {@code t} (or the end); returns whether the run goes on. */
    boolean runUntil(Duration t) {
        // Never past the run's end: the clock would have to step back to end the run there.
        Duration until = t.compareTo(duration) > 0 ? duration : t;
        long limit = RunCore.micros(until);
        while (!host.over()) {
            Action next = queue.peek();
            if (next != null && next.atMicros > limit) {
                clock.advanceTo(clock.start().plus(until));
                return true;
            }
            step();
        }
        return false;
    }

    /** Runs one action at its time, or moves it to when its holder resumes if the holder is paused. */
    private void execute(Action next) {
        clock.advanceTo(clock.start().plus(Duration.ofNanos(next.atMicros * 1_000)));
        long resumeAt = next.owner == null ? 0 : host.resumesAt(next.owner.name());
        if (next.pausable && resumeAt > next.atMicros) {
            // The holder is paused: whatever it would do now happens when it resumes.
            schedule(resumeAt, next.owner, true, next.body);
            return;
        }
        Worker outer = acting;
        acting = next.owner;
        try {
            host.act(next.body);
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
    void stall(long untilMicros) {
        long limit = Math.min(untilMicros, RunCore.micros(duration));
        while (!host.over()) {
            Action next = queue.peek();
            if (next == null || next.atMicros >= limit) {
                break;
            }
            execute(queue.poll());
        }
        if (!host.over() && nowMicros() < limit) {
            clock.advanceTo(clock.start().plus(Duration.ofNanos(limit * 1_000)));
        }
    }

    /** An action of the run's fault plan, ordered at its instant by place and step ({@link FaultScheduler.Host#at}). */
    void at(long atMicros, FaultPlan.Place place, int step, Runnable action) {
        queue.add(new Action(atMicros, order++, null, false, action, place, step));
    }

    @Override
    public void at(long atMicros, Runnable action) {
        schedule(atMicros, null, false, action);
    }

    private void schedule(long atMicros, Worker owner, boolean pausable, Runnable body) {
        queue.add(new Action(atMicros, order++, owner, pausable, body, null, 0));
    }

    @Override
    public long nowMicros() {
        return RunCore.micros(clock.elapsed());
    }

    @Override
    public long toRunMicros(Instant instant) {
        return RunCore.micros(Duration.between(clock.start(), instant));
    }

    @Override
    public Instant clockNow() {
        return clock.now();
    }

    @Override
    public void later(Worker worker, Duration delay, Runnable action) {
        schedule(nowMicros() + RunCore.micros(delay), worker, true, action);
    }

    @Override
    public void inFlight(Worker worker, Duration delay, Runnable action) {
        schedule(nowMicros() + RunCore.micros(delay), worker, false, action);
    }

    @Override
    public Worker acting() {
        return acting;
    }

    // ---- sessions and the database --------------------------------------------------------------

    @Override
    public StoreSession session(Worker worker) {
        if (databaseDown) {
            throw new DatabaseException("database is down (restart fault): connection refused");
        }
        if (killTargets.contains(worker.name())) {
            return sessions.computeIfAbsent(worker.name(), w -> store.openSession());
        }
        if (shared == null) {
            shared = store.openSession();
        }
        return shared;
    }

    @Override
    public void discardSession(Worker worker) {
        StoreSession s = killTargets.contains(worker.name()) ? sessions.remove(worker.name()) : shared;
        if (s == shared) {
            shared = null;
        }
        if (s != null) {
            s.close();
        }
        if (!databaseDown && !store.isReachable()) {
            host.databaseLost();
        }
    }

    /** A connection-kill fault on {@code holder}: its own session, if it has one open, is terminated. */
    void killSession(String holder) {
        StoreSession s = sessions.get(holder);
        if (s != null) {
            store.kill(s);
        }
    }

    /** A restart fault begins: sessions are closed and refused until {@link #startDatabase()}. */
    void stopDatabase() {
        databaseDown = true;
        closeSessions();
        store.stop();
    }

    void startDatabase() {
        store.start();
        databaseDown = false;
    }

    void closeSessions() {
        sessions.values().forEach(StoreSession::close);
        sessions.clear();
        if (shared != null) {
            shared.close();
            shared = null;
        }
    }
}
