package io.fencelab.engine.run;

import io.fencelab.engine.agent.AgentTables;
import io.fencelab.engine.agent.ClockOffset;
import io.fencelab.engine.chaos.FaultKind;
import io.fencelab.engine.chaos.FaultOccurrence;
import io.fencelab.engine.clock.LiveClock;
import io.fencelab.engine.db.Database;
import io.fencelab.engine.event.Event;
import io.fencelab.engine.event.Event.RunEnded;
import io.fencelab.engine.event.EventJson;
import io.fencelab.engine.event.EventSink;
import io.fencelab.engine.postgres.PostgresRunStore;
import io.fencelab.engine.store.RunStore;
import io.fencelab.engine.worker.WorkerSpec;
import java.io.UncheckedIOException;
import java.sql.Connection;
import java.sql.SQLException;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;
import java.util.function.LongFunction;

/**
 * One agent of a process run, inside the agent's JVM ({@code fencelab agent}): it joins the run's
 * database slice, takes its part of the plan, runs its one worker in real time on a clock corrected
 * to the database's, and sends every event back through the database; it takes the orders the run
 * sends it (fault occurrences aimed at it, a connection kill, the end) and leaves when the run is over.
 *
 * <p>Its worker is composed as a live run's are ({@link RunCore}, {@link RealTimeScheduler}), with
 * two differences: pauses are not this JVM's business (the run freezes the whole process), and lease
 * expiries are reported by the run, which sees every holder's leases.
 */
public final class AgentRun {

    private static final org.slf4j.Logger log = org.slf4j.LoggerFactory.getLogger(AgentRun.class);

    /** Exchanges with the database per clock measurement: the shortest round trip of these is kept. */
    static final int CLOCK_SAMPLES = 8;
    /** How often an agent measures its clock again during the run. */
    static final Duration CLOCK_EVERY = Duration.ofSeconds(5);
    /** How long an agent waits for its run to start before it gives up. */
    static final Duration START_LIMIT = Duration.ofSeconds(600);
    /** Actions under way may finish this long after the end; then the agent leaves anyway. */
    static final Duration END_DRAIN_LIMIT = Duration.ofSeconds(3);
    /** Concurrent statements of one agent: its worker's actions, plus a pipelined job's writes. */
    private static final int AGENT_DATABASE_CONCURRENCY = 3;

    /** What an agent needs to join: the run, which worker it is, and how it was started. */
    public record Joining(long runId, String worker, String host, int incarnation, boolean newIdentity) {
        /** The agent's name in the run's tables: the worker's, with {@code #n} from its second process on. */
        public String agent() {
            return agentName(worker, incarnation);
        }
    }

    /** Agent {@code n} of {@code worker} ({@code A}, {@code A#2}, …): '#' is never in a worker's name. */
    public static String agentName(String worker, int incarnation) {
        return incarnation <= 1 ? worker : worker + "#" + incarnation;
    }

    private final Joining joining;
    private final AgentTables tables;
    private final Clock rawClock;
    private final CountDownLatch ended = new CountDownLatch(1);
    private volatile boolean finishing;
    private RunCore core;
    private RealTimeScheduler scheduler;

    private AgentRun(Joining joining, AgentTables tables, Clock rawClock) {
        this.joining = joining;
        this.tables = tables;
        this.rawClock = rawClock;
    }

    /**
     * Runs the agent to its end: says it is up, waits for the run's start, runs its worker, and returns
     * when the run is over or ordered to end. {@code compile} turns the plan text back into the run's spec.
     *
     * @param rawClock this host's clock (an artificial offset already applied in tests)
     * @return the process exit code: 0 after a normal end, 1 when the run never started or was gone
     */
    public static int run(Database db, Joining joining, Function<String, RunSpec> compile, Clock rawClock)
            throws InterruptedException {
        AgentTables tables = new AgentTables(db);
        AgentRun agent = new AgentRun(joining, tables, rawClock);
        // One listening connection for the agent's life: each login costs a SCRAM hash, and fifty agents
        // log in at once.
        try (AgentTables.Listener listener = tables.listen()) {
            AgentTables.RunPlan plan = agent.await(listener, false);
            if (plan == null) {
                return 1;
            }
            // Ready means ready to act: the plan compiled and the clock measured before it says it is up, so
            // a slow start (a cold JVM compiling the plan) cannot make its worker late for the run's start.
            agent.prepare(db, compile.apply(plan.plan()));
            tables.agentUp(joining.runId(), joining.agent(), ProcessHandle.current().pid(), joining.host());
            plan = agent.await(listener, true);
            if (plan == null) {
                return 1;
            }
            agent.begin(plan);
            agent.takeOrders(listener);
        }
        return 0;
    }

    /** The run's plan once it exists ({@code started}: once the run has started); null if it ended or never came. */
    private AgentTables.RunPlan await(AgentTables.Listener listener, boolean started) {
        long deadline = System.nanoTime() + START_LIMIT.toNanos();
        while (System.nanoTime() < deadline) {
            AgentTables.RunPlan plan = tables.plan(joining.runId()).orElse(null);
            if (plan != null && plan.over()) {
                return null;
            }
            if (plan != null && (!started || plan.start() != null)) {
                return plan;
            }
            // The run's start is NOTIFYed: the look every second is only a safety net, since fifty agents
            // asking every few milliseconds would take the cores their neighbours need to start.
            listener.awaitNotification(Duration.ofSeconds(1));
        }
        log.warn("agent {}: run {} did not {} within {}", joining.agent(), joining.runId(),
                started ? "start" : "give its plan", START_LIMIT);
        return null;
    }

    private RunSpec spec;
    private ClockOffset offset;
    private EventSink sink;
    private Database db;

    /** Everything but the start: the spec of its one worker, the clock measured, the store joined. */
    private void prepare(Database database, RunSpec full) {
        this.db = database;
        WorkerSpec mine = full.workers().stream().filter(w -> w.name().equals(joining.worker())).findFirst()
                .orElseThrow(() -> new IllegalArgumentException("run " + joining.runId() + " has no worker "
                        + joining.worker()));
        // Its worker only, and no fault plan: the run times the faults and sends this agent its own.
        spec = full.toBuilder().workers(List.of(mine)).faults(List.of()).hosts(Map.of()).build();
        offset = measure(database);
        LiveClock clock = new LiveClock(offset.corrected(rawClock));
        // With a real lease service, the agent's worker holds its own client of it, as the holder's process would.
        RunStore store = ServiceRunStore.over(PostgresRunStore.join(database, joining.runId(), clock,
                spec.userFences().fences()), spec, clock);
        sink = new Outbox(tables, joining.runId(), joining.agent());
        scheduler = new RealTimeScheduler(clock, spec.timeScale(), AGENT_DATABASE_CONCURRENCY, store,
                new ProcessHooks(() -> core, this::finish));
        core = new RunCore(spec, sink, store, scheduler, WorkerPlacement.inJvm(), this::finish, false);
        // A pause at a grant cannot be timed by the run: it happens here, on the worker's thread, with its
        // client's keep-alive frozen, which the service cannot tell from a SIGSTOP of this process.
        core.pauseAtGrants(full.faults().stream().filter(f -> f.target().equals(joining.worker())).toList(),
                (holder, untilMicros) -> scheduler.stall(untilMicros));
    }

    /** Run time started at the plan's time zero: the worker starts when its spec says. */
    private void begin(AgentTables.RunPlan plan) {
        scheduler.beginAt(plan.start());
        WorkerSpec mine = spec.workers().getFirst();
        WorkerPlacement.InJvm placed = (WorkerPlacement.InJvm) core.allWorkers().getFirst();
        if (joining.incarnation() > 1) {
            placed.worker().startIncarnation(joining.incarnation(), joining.newIdentity());
        } else {
            long waitMicros = RunCore.micros(mine.startAt()) - scheduler.nowMicros();
            placed.startAfter(Duration.ofNanos(Math.max(0, waitMicros) * 1_000));
        }
        String holder = placed.worker().holder();
        sink.publish(seq -> new Event.AgentReport(seq, scheduler.nowMicros(), Event.AgentReport.Kind.STARTED,
                joining.host(), holder, ProcessHandle.current().pid(), offset.offsetMicros(),
                offset.uncertaintyMicros(), null));
        // A run that outlives its plan by far has lost its run side: leave rather than run on alone.
        scheduler.afterRunTime(spec.duration().plusSeconds(60), () -> finish(RunEnded.Reason.STOPPED));
        scheduler.afterRunTime(CLOCK_EVERY, () -> remeasure(holder));
    }

    private ClockOffset measure(Database db) {
        try (Connection c = db.dataSource().getConnection()) {
            return ClockOffset.measure(c, rawClock, CLOCK_SAMPLES);
        } catch (SQLException e) {
            throw io.fencelab.engine.db.DatabaseException.from(e);
        }
    }

    /** Measures the clock again and logs it; the run's times stay on the offset measured at the start. */
    private void remeasure(String holder) {
        if (finishing) {
            return;
        }
        try {
            ClockOffset now = measure(db);
            sink.publish(seq -> new Event.AgentReport(seq, scheduler.nowMicros(), Event.AgentReport.Kind.CLOCK,
                    joining.host(), holder, null, now.offsetMicros(), now.uncertaintyMicros(), null));
        } catch (RuntimeException e) {
            // the database is away for a moment; the next measurement will tell
        }
        scheduler.afterRunTime(CLOCK_EVERY, () -> remeasure(holder));
    }

    /** Takes the run's orders until the agent ends. */
    private void takeOrders(AgentTables.Listener listener) throws InterruptedException {
        long lastRunCheck = System.nanoTime();
        try {
            while (ended.getCount() > 0) {
                for (AgentTables.Order order : tables.ordersForAgent(joining.runId(), joining.agent())) {
                    obey(order);
                }
                if (System.nanoTime() - lastRunCheck > TimeUnit.SECONDS.toNanos(1)) {
                    lastRunCheck = System.nanoTime();
                    if (tables.runOver(joining.runId())) {
                        finish(RunEnded.Reason.COMPLETED);
                    }
                }
                listener.awaitNotification(Duration.ofSeconds(1)); // orders are NOTIFYed: this is a safety net
            }
        } catch (RuntimeException e) {
            // The database went away: the worker's own statements have found out too.
            log.warn("agent {}: orders no longer reach it: {}", joining.agent(), e.getMessage());
            finish(RunEnded.Reason.STOPPED);
        }
        ended.await(END_DRAIN_LIMIT.toMillis() + 1_000, TimeUnit.MILLISECONDS);
        scheduler.shutdown();
        core.store().close();
    }

    private void obey(AgentTables.Order order) {
        String detail = null;
        switch (order.kind()) {
            case FAULT -> core.faults().register(faultOf(order.body()));
            case KILL_SESSION -> scheduler.killSession(joining.worker());
            case END -> finish(RunEnded.Reason.COMPLETED);
            default -> detail = "an agent does not take " + order.kind() + " orders";
        }
        tables.done(order.id(), new AgentTables.OrderResult(detail == null, ProcessHandle.current().pid(), null, null,
                detail));
    }

    /** A fault occurrence as {@link ProcessExecutor#faultOrder} wrote it. */
    static PlannedFault faultOf(String body) {
        String[] f = body.split(" ");
        return new PlannedFault(new FaultOccurrence(FaultKind.valueOf(f[0]), f[1],
                Duration.ofNanos(Long.parseLong(f[2]) * 1_000), Duration.ofNanos(Long.parseLong(f[3]) * 1_000),
                Duration.ofNanos(Long.parseLong(f[4]) * 1_000)), null, false);
    }

    private synchronized void finish(RunEnded.Reason reason) {
        if (finishing) {
            return;
        }
        finishing = true;
        core.markFinished();
        scheduler.afterActions(END_DRAIN_LIMIT, ended::countDown);
    }

    /**
     * The agent's event sink: numbers its events and sends each one to the database before the worker
     * goes on, so a process frozen or killed after a statement has already told the run what it saw.
     */
    private static final class Outbox implements EventSink {
        private final AgentTables tables;
        private final long runId;
        private final String agent;
        private long next;

        Outbox(AgentTables tables, long runId, String agent) {
            this.tables = tables;
            this.runId = runId;
            this.agent = agent;
        }

        @Override
        public synchronized long publish(LongFunction<? extends Event> factory) {
            long seq = ++next;
            Event event = factory.apply(seq);
            try {
                tables.sendEvent(runId, agent, seq, event.atMicros(), EventJson.writer().writeValueAsString(event));
            } catch (com.fasterxml.jackson.core.JsonProcessingException e) {
                throw new UncheckedIOException(e);
            }
            return seq;
        }
    }
}
