package io.fencelab.engine.run;

import io.fencelab.engine.chaos.Distribution;
import io.fencelab.engine.chaos.FaultKind;
import io.fencelab.engine.chaos.FaultOccurrence;
import io.fencelab.engine.chaos.FaultPlan;
import io.fencelab.engine.chaos.FaultSpec;
import io.fencelab.engine.event.Event;
import io.fencelab.engine.event.EventSink;
import io.fencelab.engine.failpoint.Failpoint;
import io.fencelab.engine.store.StoreSession;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Consumer;

/**
 * The one home of a run's fault timing, for both executors: when each occurrence starts and heals,
 * which events that publishes ({@code PauseStarted}/{@code PauseEnded} for pauses,
 * {@code FaultInjected}/{@code FaultHealed} for the rest), and what it does to what it hits (a
 * paused holder, a killed session, a stopped database). It also cancels or heals an occurrence early
 * when a live change removes it.
 *
 * <p>An executor drives it through a {@link Host}: it runs actions at run times and applies the
 * effects its own way (a simulated run kills a session at once, a live run the session of the
 * holder's next action). A holder's pause is kept here; the executor asks {@link #resumesAt} before
 * it lets a holder act.
 */
final class FaultScheduler {

    /** What an executor provides to the fault scheduler. */
    interface Host {
        /** Run time now, in microseconds. */
        long nowMicros();

        /**
         * Runs {@code action} at run time {@code atMicros} (at once if that has passed), unless the run
         * is over by then. Actions due at the same time run in the order they were given.
         */
        void at(long atMicros, Runnable action);

        /**
         * Runs {@code action}, step {@code step} of the occurrence at {@code place} in the run's plan, at
         * run time {@code atMicros}. A simulated run runs the plan's actions due at one instant before
         * any other, by place and then step, as if the whole plan had been given first; a live run's
         * timers have no such order.
         */
        default void at(long atMicros, FaultPlan.Place place, int step, Runnable action) {
            at(atMicros, action);
        }

        /** A connection-kill fault hits {@code holder}: its database session is terminated. */
        void killSession(String holder);

        /** A database restart fault begins: the database goes down. */
        void stopDatabase();

        /** A database restart fault heals (or is healed early): the database comes back. */
        void startDatabase();

        /** A restart failed ({@link io.fencelab.engine.db.DatabaseFailure#RESTART_FAILED}): the run ends, failed. */
        void databaseBroken(io.fencelab.engine.db.DatabaseException failure);

        /** Whether the worker {@code holder} is up; a crash of one that is down does nothing. */
        boolean running(String holder);

        /** A crash fault hits {@code holder}: its process dies ({@link io.fencelab.engine.worker.Worker#crash}). */
        void crash(String holder);

        /** The crashed {@code holder} restarts as a fresh process, under a new name if {@code newIdentity}. */
        void restart(String holder, boolean newIdentity);

        /**
         * A failpoint's connection kill on {@code holder}: {@code session} is the connection its
         * statement runs on ({@code afterStatement} false) or ran on (true). A simulated run terminates
         * it, as the holder keeps it; a live run borrows a connection per action, so after the
         * statement the kill hits the connection of the holder's next action, as a planned kill does.
         */
        void kill(String holder, StoreSession session, boolean afterStatement);

        /**
         * A pause of {@code holder} begins. A process run freezes the holder's process and answers when
         * the freeze was confirmed and how; the others answer null, and their scheduler holds the
         * holder's actions until {@link #resumesAt}.
         */
        default Frozen freeze(String holder) {
            return null;
        }

        /** The pause of {@code holder} ends: a process run thaws its process. */
        default void thaw(String holder) {
        }

        /** The run's lease service's server, for SERVICE_PAUSE and SERVICE_RESTART; none by default. */
        default ServiceFaults service() {
            return ServiceFaults.NONE;
        }

        /**
         * A fault that acts inside the holder's own process begins (a delay, dropped renewals, a skewed
         * clock, a database restart every holder must ride out): a process run sends it to the agents.
         */
        default void begins(PlannedFault fault) {
        }

        /**
         * A failpoint's pause: the calling holder's code stops here until run time {@code untilMicros}
         * while the rest of the run goes on (a simulated run steps the other actions due before then).
         */
        void stall(long untilMicros);
    }

    /** A confirmed freeze: at run time {@code atMicros}, {@code how} (signal, process, host, delay) for the event. */
    record Frozen(long atMicros, String how) {
    }

    private final Host host;
    private final EventSink sink;
    /** Run time (micros) until which each paused holder is paused. */
    private final Map<String, Long> pausedUntil = new ConcurrentHashMap<>();
    /** Specs a live change removed: their sequences draw no more occurrences. */
    private final java.util.Set<FaultSpec> stopped = ConcurrentHashMap.newKeySet();
    /** Database restarts begun and not healed yet (by identity): whoever heals one first removes it. */
    private final java.util.Set<PlannedFault> restartsUnderWay = ConcurrentHashMap.newKeySet();

    FaultScheduler(Host host, EventSink sink) {
        this.host = host;
        this.sink = sink;
    }

    /**
     * Schedules the run's plan as it goes: each sequence's first occurrence now, and each next one when
     * the one before it starts, so a run holds one pending occurrence per spec and target rather than
     * every occurrence of the run ({@code docs/SCENARIOS.md}, Limits). {@code register} makes each
     * visible to the workers' fault queries as it is drawn.
     */
    void schedulePlan(List<FaultPlan.Sequence> plan, Consumer<PlannedFault> register) {
        for (FaultPlan.Sequence s : plan) {
            if (s.hasNext()) {
                release(s, register);
            }
        }
    }

    private void release(FaultPlan.Sequence s, Consumer<PlannedFault> register) {
        if (stopped.contains(s.spec())) {
            return;
        }
        FaultPlan.Planned p = s.next();
        PlannedFault pf = new PlannedFault(p.occurrence(), p.spec(), false, p.place());
        register.accept(pf);
        schedule(pf);
        if (s.hasNext()) {
            // After the occurrence's own start and heal at that instant; the next one starts later still.
            host.at(micros(p.occurrence().start()), p.place(), DRAW_NEXT, () -> release(s, register));
        }
    }

    /** A live change removed {@code spec}: its sequences draw no more (the occurrences drawn are cancelled apart). */
    void stopPlanOf(FaultSpec spec) {
        stopped.add(spec);
    }

    /** The steps of a planned occurrence at one instant, in the order they were always scheduled. */
    private static final int START = 0;
    private static final int END = 1;
    private static final int DRAW_NEXT = 2;

    /**
     * Schedules the start and the heal of {@code pf}. Nothing of it happens once it is cut
     * ({@link #cancel}); a pause that has begun runs its course, as a stalled process resumes when it
     * resumes.
     */
    void schedule(PlannedFault pf) {
        FaultOccurrence f = pf.occurrence;
        long start = micros(f.start());
        long end = micros(f.end());
        switch (f.kind()) {
            case PAUSE -> {
                at(start, pf, START, () -> {
                    pausedUntil.merge(f.target(), end, Math::max);
                    Frozen frozen = host.freeze(f.target());
                    String cause = (pf.byHand ? "pause by hand" : "pause fault")
                            + (frozen == null ? "" : ": " + frozen.how());
                    // A frozen process is recorded when the kernel showed it stopped, not when it was asked.
                    long at = frozen == null ? host.nowMicros() : frozen.atMicros();
                    sink.publish(seq -> new Event.PauseStarted(seq, at, f.target(), micros(f.length()), cause));
                });
                at(end, pf, END, () -> {
                    host.thaw(f.target());
                    sink.publish(seq -> new Event.PauseEnded(seq, host.nowMicros(), f.target()));
                });
            }
            case CONNECTION_KILL -> at(start, pf, START, () -> {
                started(pf, null);
                host.killSession(f.target());
            });
            case DATABASE_RESTART -> {
                at(start, pf, START, () -> {
                    host.begins(pf);
                    started(pf, null);
                    stopDatabase(pf);
                });
                at(end, pf, END, () -> healRestart(pf));
            }
            case CRASH -> {
                boolean newIdentity = pf.spec != null && pf.spec.identity() == FaultSpec.Identity.NEW;
                boolean restarts = f.length().isPositive();
                java.util.concurrent.atomic.AtomicBoolean hit = new java.util.concurrent.atomic.AtomicBoolean();
                at(start, pf, START, () -> {
                    if (!host.running(f.target())) {
                        return; // already down: a dead process cannot crash again
                    }
                    hit.set(true);
                    started(pf, restarts ? "restarts after " + Distribution.text(f.length())
                            + (newIdentity ? " as a new holder" : " as the same holder") : "never restarts");
                    host.crash(f.target());
                });
                if (restarts) {
                    at(end, pf, END, () -> {
                        if (hit.get()) {
                            healed(f);
                            host.restart(f.target(), newIdentity);
                        }
                    });
                }
            }
            case SERVICE_PAUSE, SERVICE_RESTART, SERVICE_LEADER_STOP -> scheduleOnService(pf, start, end);
            case REQUEST_DELAY, REQUEST_JITTER, REPLY_DELAY, RENEWAL_LOSS, CLOCK_SKEW, SLOW_LEASE_SERVICE -> {
                at(start, pf, START, () -> {
                    host.begins(pf);
                    started(pf, null);
                });
                at(end, pf, END, () -> healed(f));
            }
        }
    }

    /**
     * A fault on the run's lease service's server: frozen, stopped, or its leader stopped at its start,
     * back at its end. A leader stop without a duration leaves that member down to the end of the run.
     */
    private void scheduleOnService(PlannedFault pf, long start, long end) {
        FaultKind kind = pf.occurrence.kind();
        if (kind == FaultKind.SERVICE_LEADER_STOP) {
            boolean returns = end > start;
            // The event names the member, known only once it is stopped.
            at(start, pf, START, () -> started(pf, "stopped " + host.service().stopLeader()
                    + (returns ? "" : ", stays down to the end of the run")));
            if (returns) {
                at(end, pf, END, () -> {
                    host.service().startStopped();
                    healed(pf.occurrence);
                });
            }
            return;
        }
        boolean pause = kind == FaultKind.SERVICE_PAUSE;
        at(start, pf, START, () -> {
            started(pf, null);
            if (pause) {
                host.service().pause();
            } else {
                host.service().stop();
            }
        });
        at(end, pf, END, () -> {
            if (pause) {
                host.service().resume();
            } else {
                host.service().start();
            }
            healed(pf.occurrence);
        });
    }

    /**
     * At run time {@code nowMicros}, cancels {@code pf} if it has not started, or heals it now if it
     * is under way (a database restart brings the database back). A pause or a crash that has begun is
     * left to run its course (the crashed holder restarts when planned); a connection kill that
     * happened cannot be undone.
     */
    void cancel(PlannedFault pf, long nowMicros) {
        FaultOccurrence f = pf.occurrence;
        if (micros(f.start()) > nowMicros) {
            pf.cutAtMicros = micros(f.start());
        } else if (micros(f.end()) > nowMicros && f.kind() != FaultKind.PAUSE && f.kind() != FaultKind.CRASH) {
            pf.cutAtMicros = nowMicros;
            if (f.kind() == FaultKind.DATABASE_RESTART) {
                healRestart(pf);
            } else if (f.kind() != FaultKind.CONNECTION_KILL) {
                healed(f);
            }
        }
    }

    /**
     * A failpoint's fault, now, on the thread of the statement that reached {@code point}: a connection
     * kill hits the holder's connection ({@link Host#kill}); a restart stops the database now
     * and starts it at the occurrence's end; a pause stalls the holder right here until its end (its
     * later actions wait too, as under a planned pause) while the rest of the run goes on. Each is
     * published as the planned kind is, the point in its detail.
     */
    void atFailpoint(PlannedFault pf, Failpoint point, StoreSession session) {
        FaultOccurrence f = pf.occurrence;
        long end = micros(f.end());
        String where = "at failpoint " + point;
        switch (f.kind()) {
            case PAUSE -> {
                sink.publish(seq -> new Event.PauseStarted(seq, host.nowMicros(), f.target(), micros(f.length()),
                        "pause " + where));
                stall(f.target(), end);
                sink.publish(seq -> new Event.PauseEnded(seq, host.nowMicros(), f.target()));
            }
            case CONNECTION_KILL -> {
                started(pf, where);
                host.kill(f.target(), session, point.afterStatement());
            }
            case DATABASE_RESTART -> {
                started(pf, where);
                stopDatabase(pf);
                at(end, pf, END, () -> healRestart(pf));
            }
            default -> throw new IllegalArgumentException("a failpoint pauses, kills or restarts, not " + f.kind());
        }
    }

    /**
     * Holds {@code holder} on the calling thread, inside its statement code, until run time {@code untilMicros}:
     * its later actions wait too, as under a planned pause, while the rest of the run goes on.
     */
    void stall(String holder, long untilMicros) {
        pausedUntil.merge(holder, untilMicros, Math::max);
        host.stall(untilMicros);
    }

    private void stopDatabase(PlannedFault pf) {
        restartsUnderWay.add(pf);
        try {
            host.stopDatabase();
        } catch (RuntimeException e) {
            // An external server's restart command failed, or the server did not come back: nothing to heal.
            restartsUnderWay.remove(pf);
            host.databaseBroken(io.fencelab.engine.db.DatabaseException.restartFailed(e));
        }
    }

    /**
     * The restart {@code pf} heals: the database comes back, once, whoever asks first (its end, a cut,
     * the run's end). A server that does not start again ends the run, failed.
     */
    private void healRestart(PlannedFault pf) {
        if (restartsUnderWay.remove(pf)) {
            try {
                host.startDatabase();
            } catch (RuntimeException e) {
                host.databaseBroken(io.fencelab.engine.db.DatabaseException.restartFailed(e));
                return;
            }
            healed(pf.occurrence);
        }
    }

    /**
     * The run ends: a database restart still under way heals now, before {@code RunEnded}, so the
     * final state can be read and the database outlives the run (a restart planned to last past the
     * end would otherwise leave it stopped, and the next run on it would fail).
     */
    void healAtEnd() {
        List.copyOf(restartsUnderWay).forEach(this::healRestart);
    }

    /** Run time (micros) at which {@code holder}'s pause ends; at or before now if it is not paused. */
    long resumesAt(String holder) {
        return pausedUntil.getOrDefault(holder, 0L);
    }

    private void at(long atMicros, PlannedFault pf, int step, Runnable action) {
        Runnable unlessCut = () -> {
            if (!pf.cut()) {
                action.run();
            }
        };
        if (pf.place == null) {
            host.at(atMicros, unlessCut);
        } else {
            host.at(atMicros, pf.place, step, unlessCut);
        }
    }

    /** Publishes the start of {@code pf}; {@code what} says more about it (null: its amount, if any). */
    private void started(PlannedFault pf, String what) {
        FaultOccurrence f = pf.occurrence;
        String amount = what != null ? what : f.amount().isZero() ? null : "amount " + f.amount();
        String detail = !pf.byHand ? amount : amount == null ? "by hand" : "by hand, " + amount;
        sink.publish(seq -> new Event.FaultInjected(seq, host.nowMicros(), f.kind().name(), f.target(),
                micros(f.length()), detail));
    }

    private void healed(FaultOccurrence f) {
        sink.publish(seq -> new Event.FaultHealed(seq, host.nowMicros(), f.kind().name(), f.target()));
    }

    private static long micros(Duration d) {
        return RunCore.micros(d);
    }
}
