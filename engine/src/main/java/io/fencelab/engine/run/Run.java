package io.fencelab.engine.run;

import io.fencelab.engine.chaos.FaultKind;
import io.fencelab.engine.check.Judgement;
import io.fencelab.engine.check.Verdict;
import io.fencelab.engine.clock.Ticker;
import io.fencelab.engine.db.Database;
import io.fencelab.engine.db.DatabaseException;
import io.fencelab.engine.db.RunContext;
import io.fencelab.engine.event.Event;
import io.fencelab.engine.event.Event.RunEnded;
import io.fencelab.engine.event.EventBus;
import io.fencelab.engine.event.EventLog;
import io.fencelab.engine.files.FileProblem;
import io.fencelab.engine.metrics.MetricsSnapshot;
import io.fencelab.engine.metrics.TuningMetrics;
import io.fencelab.engine.resource.ResourceState;
import io.fencelab.engine.store.RealServices;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Optional;

/**
 * A run, wired: spec in; events on the bus, recorded losslessly to a JSON Lines log (the history),
 * counted by the metrics and judged online by the checker, whose {@link Judgement} stays beside the
 * log; a {@link RunResult} out. Subscribe extra consumers (the console) on {@link #bus()} before
 * starting.
 *
 * <p>Simulated runs use a direct bus on the executor's thread, so their log and judgement are
 * identical byte for byte for the same spec and seed, however the events are batched; live runs
 * use the asynchronous bus, so producers never wait.
 */
public final class Run implements AutoCloseable {

    /** Live runs keep this many statements in flight at most (below the pool size). */
    public static final int LIVE_DATABASE_CONCURRENCY = 32;

    private final Database db;
    private final RunSpec spec;
    private final EventBus bus;
    private final EventLog log;
    private final RunJudgement judgement = new RunJudgement();
    /** Why the log could not be written (the run's end reason then), or null. */
    private volatile RunEnded.Reason recordingFailure;
    /** Runs the spec: simulated or live, as the spec says. */
    private final Executor executor;
    /** The lease service's server Fencelab started for this run (stopped with it), or null. */
    private final RealServices.Server server;
    private RunResult result;

    /** A run of {@code spec}, with a server of its lease service started first where it needs one. */
    private static Run open(Database db, RunSpec spec, Path eventLog, Backend backend, Duration fsyncEvery) {
        backend.refusal(spec).ifPresent(why -> {
            throw new IllegalArgumentException(why);
        });
        if (spec.faults().stream().anyMatch(f -> f.kind().onService())) {
            serviceFaultRefusal(spec).ifPresent(why -> {
                throw new IllegalArgumentException(why);
            });
        }
        if (spec.service().ensemble() && !spec.service().needsServer()) {
            throw new IllegalArgumentException("lease.members " + spec.service().members() + " is an ensemble "
                    + "Fencelab starts; your own " + spec.service().kind().key() + " has the members it has: "
                    + "leave out lease.members, or your address");
        }
        RealServices.Server server = spec.service().needsServer()
                ? RealServices.require().start(spec.service().kind(), spec.service().members()) : null;
        try {
            RunSpec served = server == null ? spec : spec.withService(spec.service().withEndpoints(server.endpoints()));
            return new Run(db, served, eventLog, backend, fsyncEvery, server);
        } catch (RuntimeException e) {
            if (server != null) {
                server.close();
            }
            throw e;
        }
    }

    /** Why {@code spec}'s faults on its lease service cannot run, or empty: they need a server Fencelab starts. */
    static Optional<String> serviceFaultRefusal(RunSpec spec) {
        if (!spec.service().real()) {
            return Optional.of("SERVICE_PAUSE and SERVICE_RESTART hit a real lease service (lease.service etcd, "
                    + "zookeeper or redis); this run's leases are PostgreSQL's, whose restart is DATABASE_RESTART");
        }
        if (!spec.service().needsServer()) {
            return Optional.of("SERVICE_PAUSE, SERVICE_RESTART and SERVICE_LEADER_STOP hit only a server Fencelab "
                    + "starts for the run, never your own " + spec.service().kind().key()
                    + "; leave out its address to run on one");
        }
        return Optional.empty();
    }

    private Run(Database db, RunSpec spec, Path eventLog, Backend backend, Duration fsyncEvery,
                RealServices.Server server) {
        this.server = server;
        // Refused before anything runs, rather than failing at the fault's time in the middle of the run.
        if (backend == Backend.POSTGRES
                && spec.faults().stream().anyMatch(f -> f.kind() == FaultKind.DATABASE_RESTART)) {
            db.restartRefusal().ifPresent(why -> {
                throw new IllegalArgumentException(why);
            });
        }
        this.db = db;
        this.spec = spec;
        this.bus = spec.executor() == ExecutorKind.SIMULATED ? EventBus.direct(64) : EventBus.async();
        try {
            this.log = fsyncEvery == null ? EventLog.create(eventLog)
                    : EventLog.createDurable(eventLog, fsyncEvery, Ticker.system());
        } catch (IOException e) {
            throw new UncheckedIOException("cannot create the event log: " + FileProblem.of(eventLog, e), e);
        }
        bus.subscribe("recorder", this::record);
        bus.subscribe("judgement", judgement::accept);
        try {
            executor = switch (spec.executor()) {
                case SIMULATED -> new SimulatedExecutor(db, spec, bus, backend);
                case LIVE -> new LiveExecutor(db, spec, bus, LIVE_DATABASE_CONCURRENCY, new ServiceFaults(server));
                case PROCESS -> new ProcessExecutor(db, spec, bus, new ServiceFaults(server));
            };
        } catch (RuntimeException e) {
            // Refused before it began (a broken schema, Database#checkSchema): no log of a run that never ran.
            discardLog();
            throw e;
        }
    }

    private void discardLog() {
        try {
            log.close();
            java.nio.file.Files.deleteIfExists(log.file());
        } catch (IOException e) {
            // the refusal is what the caller needs to hear; an empty file left behind says nothing
        }
    }

    /** Prepares a run of {@code spec} (its executor kind decides which) that records to {@code eventLog}. */
    public static Run prepare(Database db, RunSpec spec, Path eventLog) {
        return open(db, spec, eventLog, Backend.POSTGRES, null);
    }

    /**
     * As {@link #prepare(Database, RunSpec, Path)} with a durable log: forced to disk at the end of
     * the run and every {@code fsyncEvery} of real time while events come ({@link EventLog#createDurable}).
     */
    public static Run prepareDurable(Database db, RunSpec spec, Path eventLog, Duration fsyncEvery) {
        return open(db, spec, eventLog, Backend.POSTGRES, java.util.Objects.requireNonNull(fsyncEvery));
    }

    /**
     * As {@link #prepare(Database, RunSpec, Path)} with the leases and fenced resources in
     * {@code backend}: {@link Backend#MEMORY} for fast simulated sweeps ({@code db} then only names
     * the PostgreSQL version the model stands for).
     *
     * @throws IllegalArgumentException if the backend cannot run the spec ({@link Backend#refusal}: a
     *                                  live run on the in-memory backend), or the spec restarts a
     *                                  database Fencelab cannot restart ({@link Database#restartRefusal})
     */
    public static Run prepare(Database db, RunSpec spec, Path eventLog, Backend backend) {
        return open(db, spec, eventLog, backend, null);
    }

    /** How many times the event log was forced to disk so far (0 unless {@linkplain #prepareDurable durable}). */
    public long logForces() {
        return log.forces();
    }

    public EventBus bus() {
        return bus;
    }

    public RunSpec spec() {
        return spec;
    }

    /**
     * The run's database slice.
     *
     * @throws IllegalStateException for a run on the in-memory backend
     */
    public RunContext runContext() {
        return executor.runContext();
    }

    /** Where the run's leases and fenced resources live. */
    public io.fencelab.engine.store.RunStore store() {
        return executor.store();
    }

    /** The executor that runs the spec. */
    public Executor executor() {
        return executor;
    }

    /** The simulated executor, for step / run-until / speed control; empty for live runs. */
    public Optional<SimulatedExecutor> simulatedExecutor() {
        return executor instanceof SimulatedExecutor s ? Optional.of(s) : Optional.empty();
    }

    /** The live executor, for faults by hand and live changes; empty for simulated runs. */
    public Optional<LiveExecutor> liveExecutor() {
        return executor instanceof LiveExecutor l ? Optional.of(l) : Optional.empty();
    }

    /** Faults by hand and live changes: a live or a process run's; empty for a simulated run. */
    public Optional<ByHand> byHand() {
        return executor instanceof ByHand b ? Optional.of(b) : Optional.empty();
    }

    /**
     * Arms a failpoint before the run starts (tests only): the first time worker {@code holder}'s
     * statement code reaches {@code point}, {@code action} happens there
     * ({@link Executor#armFailpoint}).
     */
    public void armFailpoint(io.fencelab.engine.failpoint.Failpoint point, String holder, FailpointAction action) {
        executor.armFailpoint(point, holder, action);
    }

    /** Whether every failpoint armed on this run was reached. */
    public boolean failpointsReached() {
        return executor.failpointsReached();
    }

    /** The verdict so far, from the events seen so far. */
    public Verdict verdictSoFar() {
        return judgement.verdict();
    }

    /** The judgement so far, from the events seen so far. */
    public Judgement judgementSoFar() {
        return judgement.judgement();
    }

    public MetricsSnapshot metricsSoFar() {
        return judgement.metrics();
    }

    /** The tuning figures so far, from the events seen so far. */
    public TuningMetrics tuningSoFar() {
        return judgement.tuningSoFar();
    }

    /** Runs to the end (or until stopped or the database is lost) and returns the result. */
    public RunResult runToEnd() throws InterruptedException {
        bus.start();
        return finish(executor.execute());
    }

    /**
     * Ends the run now, from any thread; what happened so far is kept and judged. A simulated run
     * ends before its next action, on the thread running it.
     */
    public void stop() {
        executor.requestStop();
    }

    /**
     * The recorder: a run whose history cannot be written is a failed run, ended at once (a disk
     * full, for one), instead of going on without its log. What was written stays in the file.
     */
    private void record(List<Event> batch) {
        if (recordingFailure != null) {
            return; // the log refuses more after a failure, and the run is ending
        }
        try {
            log.append(batch);
        } catch (IOException e) {
            recordingFailed(e);
            stop();
        }
    }

    private void recordingFailed(IOException e) {
        if (recordingFailure == null) {
            recordingFailure = RunEnded.Reason.failed(FileProblem.isNoSpace(e) ? FileProblem.noSpace(log.file())
                    : "cannot record the events: " + FileProblem.of(log.file(), e));
        }
    }

    /** Why the event log could not be written, if it could not: the run then ended {@code failed: …}. */
    public Optional<RunEnded.Reason> recordingFailure() {
        return Optional.ofNullable(recordingFailure);
    }

    private synchronized RunResult finish(RunEnded.Reason executorEnd) {
        if (result != null) {
            return result;
        }
        bus.flush();
        bus.close();
        try {
            log.close();
        } catch (IOException e) {
            recordingFailed(e);
        }
        RunEnded.Reason end = recordingFailure != null ? recordingFailure : executorEnd;
        Judgement judged;
        if (end != null && end.failed()) {
            // The database went away: asking it for the final state would only wait out the pool's time-out.
            judged = judgementSoFar();
        } else {
            try {
                List<ResourceState> finalState = store().finalState();
                judged = judgement.judgement(finalState);
            } catch (DatabaseException | org.jdbi.v3.core.JdbiException e) {
                judged = judgementSoFar();
            }
        }
        result = new RunResult(spec, store().runId(), end, judged, metricsSoFar(), judgement.tuning(judged), log.file(),
                bus.published(), store().describe());
        return result;
    }

    @Override
    public void close() {
        try {
            executor.close();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        if (result == null) {
            // Closed before its end was returned: stopped, or however the executor says it ended.
            RunEnded.Reason end = executor.endReason();
            finish(end != null ? end : RunEnded.Reason.STOPPED);
        }
        if (server != null) {
            server.close();
        }
    }
}
