package io.fencelab.engine.run;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.fencelab.engine.agent.AgentTables;
import io.fencelab.engine.agent.ClockOffset;
import io.fencelab.engine.chaos.FaultKind;
import io.fencelab.engine.chaos.FaultOccurrence;
import io.fencelab.engine.clock.LiveClock;
import io.fencelab.engine.db.Database;
import io.fencelab.engine.db.DatabaseException;
import io.fencelab.engine.event.Event;
import io.fencelab.engine.event.Event.RunEnded;
import io.fencelab.engine.event.EventSink;
import io.fencelab.engine.failpoint.Failpoint;
import io.fencelab.engine.lease.Lease;
import io.fencelab.engine.store.RunStore;
import io.fencelab.engine.store.StoreSession;
import java.sql.Connection;
import java.sql.SQLException;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

/**
 * Runs a spec with every worker as its own JVM ({@link ExecutorKind#PROCESS}): agents started on this
 * machine, or on agent hosts through the run's database. The run keeps what every executor keeps
 * ({@link RunCore}, the {@link FaultScheduler}) and times the faults; what a fault does to a holder it
 * does to the holder's process ({@link ProcessPlacement}). Agents send their events through the
 * database; {@link EventMerge} puts them in the run's one log, and the lease expiries are reported
 * here, from the merged grants, renewals and releases, since a frozen agent cannot report its own.
 */
public final class ProcessExecutor implements ComposedExecutor, ByHand {

    private static final org.slf4j.Logger log = org.slf4j.LoggerFactory.getLogger(ProcessExecutor.class);

    /** How long an agent's event may take to reach the database before the merge releases later ones. */
    static final Duration MERGE_HOLD = Duration.ofMillis(300);
    /** How often the run takes the agents' events from the database. */
    static final Duration DRAIN_EVERY = Duration.ofMillis(25);
    /** The longest a lease's expiry waits for its running holder's renewal on its way (see {@link #lookAgainAt}). */
    static final Duration EXPIRY_WAIT = Duration.ofSeconds(2);
    /** A host whose heartbeat is older than this is lost. */
    static final Duration HOST_SILENCE = Duration.ofSeconds(4);
    /** How long the run waits for every agent to say it is up. */
    static final Duration AGENTS_UP_LIMIT = Duration.ofSeconds(90);
    /** Agents of this machine starting at once: two per core keep the cores busy without thrashing. */
    static final int STARTING_AT_ONCE = Math.max(2, 2 * Runtime.getRuntime().availableProcessors());
    /** More agents take longer on few cores: this much more per agent. */
    static final Duration AGENTS_UP_PER_AGENT = Duration.ofSeconds(2);
    /** How long the end waits for agents to leave before it kills them. */
    static final Duration AGENTS_LEAVE_LIMIT = Duration.ofSeconds(6);

    private final Database db;
    private final AgentTables tables;
    private final RunCore run;
    private final RealTimeScheduler scheduler;
    private final FaultScheduler faults;
    private final FailpointArming failpoints;
    private final LiveChanges changes;
    private final ProcessPlacement placement;
    private final EventMerge merge;
    private final ServiceFaults service;
    private final EventSink sink;
    /** Each holder's open belief (scope and token) in the merged log: a killed process's ends with it. */
    private final Map<String, Event.BeliefStarted> beliefs = new ConcurrentHashMap<>();
    private final CountDownLatch ended = new CountDownLatch(1);
    private volatile boolean started;
    private volatile RunEnded.Reason endReason;
    private volatile Thread drainer;

    ProcessExecutor(Database db, RunSpec spec, EventSink sink) {
        this(db, spec, sink, ServiceFaults.NONE);
    }

    /** @param service the run's lease service's server, for faults on it ({@link ServiceFaults#NONE}: none) */
    ProcessExecutor(Database db, RunSpec spec, EventSink sink, ServiceFaults service) {
        this.service = service;
        AgentSupport support = AgentSupport.installed().orElseThrow(() -> new IllegalStateException(
                "a process run starts agents with the fencelab program; only the engine is here"));
        this.db = db;
        this.sink = sink;
        this.merge = new EventMerge(RunCore.micros(MERGE_HOLD), spec.firstTokens(), System::nanoTime,
                spec.service().token().consecutive());
        this.tables = new AgentTables(db);
        LiveClock clock = new LiveClock(measure(db).corrected(Clock.systemUTC()));
        this.placement = new ProcessPlacement(db, spec, tables, support, merge, this::agentGone);
        placement.checkHosts();
        RunStore store = Backend.POSTGRES.open(db, spec, clock);
        this.scheduler = new RealTimeScheduler(clock, spec.timeScale(), 4, store, new ProcessHooks(this::core, this::finish));
        this.run = new RunCore(spec, sink, store, scheduler, placement, this::finish);
        run.waitBeforeExpiries(this::lookAgainAt);
        placement.bind(store.runId());
        tables.createRun(store.runId(), support.plan(spec));
        this.faults = new FaultScheduler(new Faults(), sink);
        this.failpoints = new FailpointArming(run, faults, scheduler::acting, holder -> { });
        this.changes = new LiveChanges(run, faults);
    }

    private static ClockOffset measure(Database db) {
        try (Connection c = db.dataSource().getConnection()) {
            return ClockOffset.measure(c, Clock.systemUTC(), AgentRun.CLOCK_SAMPLES);
        } catch (SQLException e) {
            throw DatabaseException.from(e);
        }
    }

    /**
     * Starts every agent, waits until each says it is up, then starts run time on the database's clock
     * and returns. An agent that does not come up ends the run, failed, before it began.
     */
    public void start() throws InterruptedException {
        long runId = run.store().runId();
        Duration limit = AGENTS_UP_LIMIT.plus(AGENTS_UP_PER_AGENT.multipliedBy(run.allWorkers().size()));
        placement.startAll(STARTING_AT_ONCE, limit);
        String missing = placement.awaitUp(limit);
        Instant zero = tables.startRun(runId);
        scheduler.beginAt(zero);
        started = true;
        run.publishStart("process");
        drainer = Thread.ofPlatform().daemon().name("fencelab-process-merge").start(this::drainLoop);
        if (missing != null) {
            finish(RunEnded.Reason.failed(missing));
            return;
        }
        faults.schedulePlan(run.plan(), run.faults()::register);
        scheduler.afterRunTime(run.spec().duration(), () -> finish(RunEnded.Reason.COMPLETED));
    }

    private RunEnded.Reason awaitEnd() throws InterruptedException {
        ended.await();
        return endReason;
    }

    @Override
    public RunEnded.Reason execute() throws InterruptedException {
        start();
        RunEnded.Reason end = awaitEnd();
        close();
        return end;
    }

    @Override
    public void requestStop() {
        finish(RunEnded.Reason.STOPPED);
    }

    @Override
    public RunEnded.Reason endReason() {
        return endReason;
    }

    /**
     * See {@link LiveExecutor#inject}: the same faults, on processes.
     *
     * @throws IllegalStateException before run time starts (its agents are still starting) and once it is over
     */
    @Override
    public synchronized FaultOccurrence inject(FaultKind kind, String target, Duration length, Duration amount) {
        if (!started) {
            throw new IllegalStateException("the run has not started yet: its agents are still starting");
        }
        return changes.inject(kind, target, length, amount);
    }

    /** A process run's settings are its agents' plan: they cannot change while it runs. */
    @Override
    public void change(RunSpec next) {
        throw new IllegalArgumentException("a process run's settings are fixed when its agents start; "
                + "stop it and start it again with the new settings");
    }

    @Override
    public void armFailpoint(Failpoint point, String holder, FailpointAction action) {
        throw new UnsupportedOperationException("a process run's statements run in its agents' JVMs, "
                + "where no failpoint can be armed; use a live run");
    }

    @Override
    public RunCore core() {
        return run;
    }

    @Override
    public FailpointArming failpoints() {
        return failpoints;
    }

    // ---- events --------------------------------------------------------------------------------

    /** Takes the agents' events from the database and releases them in order, until the run has ended. */
    private void drainLoop() {
        long lastHostCheck = System.nanoTime();
        while (ended.getCount() > 0 && endReason == null) {
            try {
                drainOnce(scheduler.nowMicros());
                if (System.nanoTime() - lastHostCheck > TimeUnit.SECONDS.toNanos(1)) {
                    lastHostCheck = System.nanoTime();
                    placement.lostHost(HOST_SILENCE).ifPresent(this::hostLost);
                }
                Thread.sleep(DRAIN_EVERY);
            } catch (InterruptedException e) {
                return;
            } catch (RuntimeException e) {
                if (!run.store().isReachable()) {
                    finish(RunResult.UNREACHABLE);
                    return;
                }
                log.warn("process run {}: taking the agents' events failed once: {}", run.spec().name(),
                        db.scrub(String.valueOf(e.getMessage())));
            }
        }
    }

    /**
     * A running, unfrozen holder's renewal made just before its lease's expiry may still be on its way
     * through the database: the run looks again until the holder's agent has sent something stamped after
     * the expiry (its renewal, if any, came first) and the merge has passed it on, or until
     * {@link #EXPIRY_WAIT}. A frozen, killed or exited holder cannot renew: its expiry is decided at once.
     */
    private long lookAgainAt(Lease lease, long dueMicros, long nowMicros) {
        Optional<String> agent = placement.reportingAgent(lease.holder());
        if (agent.isEmpty() || nowMicros >= dueMicros + RunCore.micros(EXPIRY_WAIT)) {
            return -1;
        }
        long passedOn = RunCore.micros(MERGE_HOLD) + 2 * RunCore.micros(DRAIN_EVERY);
        if (merge.heardAt(agent.get()) >= dueMicros && nowMicros >= dueMicros + passedOn) {
            return -1;
        }
        return nowMicros + RunCore.micros(DRAIN_EVERY) * 4;
    }

    private synchronized void drainOnce(long nowMicros) {
        merge.add(tables.drainEvents(run.store().runId()));
        for (ObjectNode json : merge.due(nowMicros)) {
            Event published = publishMerged(json);
            observe(published);
        }
    }

    private Event publishMerged(ObjectNode json) {
        Event[] out = new Event[1];
        sink.publish(seq -> out[0] = EventMerge.numbered(json, seq));
        return out[0];
    }

    /** What the run learns from an agent's event: the service's leases, the holders' beliefs. */
    private void observe(Event e) {
        switch (e) {
            case Event.LeaseAcquired a -> run.leaseChanged(null, lease(a.holder(), a.scope(), a.token(),
                    a.expiresAtMicros()), false);
            case Event.LeaseRenewed r -> run.leaseChanged(null, lease(r.holder(), r.scope(), r.token(),
                    r.expiresAtMicros()), false);
            case Event.LeaseReleased r -> run.leaseChanged(null, lease(r.holder(), r.scope(), r.token(), 0), true);
            case Event.BeliefStarted b -> beliefs.put(b.holder(), b);
            case Event.BeliefEnded b -> beliefs.remove(b.holder());
            default -> { }
        }
    }

    private Lease lease(String holder, String scope, long token, long expiresAtMicros) {
        Instant expires = scheduler.atRunMicros(expiresAtMicros);
        return new Lease(scope, holder, token, expires, expires);
    }

    // ---- agents and hosts ------------------------------------------------------------------------

    /** An agent's process is gone without being killed by a fault. */
    private void agentGone(String holder, String why) {
        if (endReason != null) {
            return;
        }
        sink.publish(seq -> new Event.AgentReport(seq, scheduler.nowMicros(), Event.AgentReport.Kind.EXITED,
                placement.hostName(holder), holder, null, null, null, why));
    }

    private void hostLost(String host) {
        sink.publish(seq -> new Event.AgentReport(seq, scheduler.nowMicros(), Event.AgentReport.Kind.LOST, host,
                null, null, null, null, "no heartbeat for " + HOST_SILENCE.toSeconds() + " s"));
        finish(RunEnded.Reason.failed("host " + host + " lost"));
    }

    /** After a kill: once its last events are merged, a belief the process held ends with it. */
    private void endBeliefOfKilled(String holder) {
        scheduler.at(scheduler.nowMicros() + RunCore.micros(MERGE_HOLD) + RunCore.micros(DRAIN_EVERY) * 2, () -> {
            synchronized (this) {
                Event.BeliefStarted open = beliefs.remove(holder);
                if (open != null) {
                    sink.publish(seq -> new Event.BeliefEnded(seq, scheduler.nowMicros(), holder, open.scope(),
                            open.token(), Event.BeliefEnded.Cause.CRASHED, "crashed (its process was killed)"));
                }
            }
        });
    }

    // ---- the end -----------------------------------------------------------------------------------

    private synchronized void finish(RunEnded.Reason reason) {
        if (endReason != null) {
            return;
        }
        run.markFinished();
        endReason = reason;
        Thread.ofVirtual().name("fencelab-process-end").start(() -> {
            try {
                placement.endAll(AGENTS_LEAVE_LIMIT);
                faults.healAtEnd();
                Thread t = drainer;
                if (t != null) {
                    t.interrupt();
                    t.join(2_000);
                }
                lastEvents();
                run.publishEnd(reason);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            } finally {
                ended.countDown();
            }
        });
    }

    /** Every event the agents sent before they left, merged. */
    private void lastEvents() {
        try {
            synchronized (this) {
                merge.add(tables.drainEvents(run.store().runId()));
                for (ObjectNode json : merge.due(Long.MAX_VALUE)) {
                    observe(publishMerged(json));
                }
            }
        } catch (RuntimeException e) {
            log.warn("process run {}: the agents' last events could not be taken: {}", run.spec().name(),
                    db.scrub(String.valueOf(e.getMessage())));
        }
    }

    @Override
    public void close() throws InterruptedException {
        finish(RunEnded.Reason.STOPPED);
        ended.await(AGENTS_LEAVE_LIMIT.toMillis() + 5_000, TimeUnit.MILLISECONDS);
        placement.killAll();
        scheduler.shutdown();
        run.store().close();
    }

    /** What faults do to processes. */
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
            placement.order(holder, AgentTables.OrderKind.KILL_SESSION, null);
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

        @Override
        public void crash(String holder) {
            WorkerPlacement.Placed w = run.worker(holder);
            if (w != null) {
                w.crash();
                endBeliefOfKilled(holder);
            }
        }

        @Override
        public void restart(String holder, boolean newIdentity) {
            WorkerPlacement.Placed w = run.worker(holder);
            if (w != null) {
                w.restart(newIdentity);
            }
        }

        @Override
        public void databaseBroken(DatabaseException failure) {
            run.databaseBroken(failure);
        }

        @Override
        public void kill(String holder, StoreSession session, boolean afterStatement) {
            killSession(holder);
        }

        @Override
        public void stall(long untilMicros) {
            throw new UnsupportedOperationException("no failpoint is armed in a process run");
        }

        @Override
        public FaultScheduler.Frozen freeze(String holder) {
            return placement.freeze(holder, scheduler);
        }

        @Override
        public void thaw(String holder) {
            placement.thaw(holder);
        }

        @Override
        public void begins(PlannedFault fault) {
            placement.forward(fault);
        }
    }

    /** The order body of a fault occurrence, as {@link AgentRun#faultOf} reads it. */
    static String faultOrder(FaultOccurrence f) {
        return f.kind().name() + " " + f.target() + " " + RunCore.micros(f.start()) + " " + RunCore.micros(f.length())
                + " " + RunCore.micros(f.amount());
    }
}
