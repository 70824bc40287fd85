package io.fencelab.engine.run;

import static org.assertj.core.api.Assertions.assertThat;

import io.fencelab.engine.chaos.Distribution;
import io.fencelab.engine.chaos.FaultKind;
import io.fencelab.engine.chaos.FaultSpec;
import io.fencelab.engine.chaos.FaultStart;
import io.fencelab.engine.check.Verdict;
import io.fencelab.engine.check.WriteJudgement;
import io.fencelab.engine.db.Database;
import io.fencelab.engine.event.Event;
import io.fencelab.engine.event.EventLogReader;
import io.fencelab.engine.failpoint.Failpoint;
import io.fencelab.engine.fence.FenceAudit;
import io.fencelab.engine.fence.FencingMode;
import io.fencelab.engine.fence.FirstWritePolicy;
import io.fencelab.engine.fence.TokenScheme;
import io.fencelab.engine.lease.LeaseService;
import io.fencelab.engine.resource.TargetKind;
import io.fencelab.engine.worker.StalePolicy;
import io.fencelab.engine.worker.TargetWrite;
import io.fencelab.engine.worker.WorkerSpec;
import io.fencelab.testing.EmbeddedDatabase;
import io.fencelab.testing.RunRole;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.stream.LongStream;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The fault matrix at statement boundaries (docs/RELIABILITY.md): holder A's connection is killed,
 * the database restarted, or A paused for longer than its lease, immediately before and after each
 * statement of acquire, renew, release and the write (and between the two statements of
 * check-then-write). Whatever the point, no token is handed out twice, the log loses no event and
 * ends with {@code RunEnded}, the verdict agrees with the database's own audit, and the run ends
 * cleanly, or, where the database dies or breaks for good, fails as {@code fencelab run}'s exit code 3
 * with its events on disk.
 */
@ExtendWith(EmbeddedDatabase.class)
class FaultMatrixTest {

    private static final String SCOPE = "job";
    private static final Duration TTL = Duration.ofSeconds(10);
    /** Longer than the lease: B takes it over while A stands still. */
    private static final Duration PAUSE = Duration.ofSeconds(15);
    private static final Duration DOWN = Duration.ofSeconds(2);
    /** Live runs play a fiftieth of real time: the 60 s run takes 1.2 s. */
    private static final double LIVE_SCALE = 0.02;

    /** Restarts and deaths stop a server: one of their own, so the shared one never goes away under other tests. */
    private static Database restartable;

    /** A role of its own on the restartable server: a "broken for good" case revokes its rights, then gives them back. */
    private static RunRole breakable;

    @BeforeAll
    static void startRestartable() {
        restartable = EmbeddedDatabase.startThrowaway();
        breakable = RunRole.create(restartable, "fencelab_matrix", 16);
    }

    @AfterAll
    static void closeRestartable() {
        breakable.close();
        restartable.close();
    }

    /** How the matrix names what a point does. */
    enum Action {
        KILL(new FailpointAction.KillConnection()),
        RESTART(new FailpointAction.RestartDatabase(DOWN)),
        PAUSE(new FailpointAction.Pause(FaultMatrixTest.PAUSE));

        final FailpointAction action;

        Action(FailpointAction action) {
            this.action = action;
        }
    }

    static Stream<Arguments> matrix() {
        return Arrays.stream(Action.values())
                .flatMap(a -> Arrays.stream(Failpoint.values()).map(p -> Arguments.of(a, p)));
    }

    /**
     * A from 0 s: one job of 6 s (renewing at 4 s), one write of row {@code result}, release. B from
     * 1 s, asking every second while the lease is held, and job after job of 2 s on the same row for
     * the whole run, so it is there to take the lease over whenever A stands still (and, in a live run
     * on a busy machine, whoever gets the lease first). Leases of 10 s; 60 s run. Check-then-write
     * for its own point, fenced otherwise.
     */
    static RunSpec spec(Failpoint point) {
        List<TargetWrite> result = List.of(new TargetWrite(TargetKind.ROW, "result"));
        WorkerSpec a = new WorkerSpec("A", SCOPE, Duration.ZERO, Duration.ofSeconds(6), result, 1,
                Duration.ofSeconds(1), StalePolicy.ABANDON, false);
        WorkerSpec b = new WorkerSpec("B", SCOPE, Duration.ofSeconds(1), Duration.ofSeconds(2), result, 0,
                Duration.ofSeconds(1), StalePolicy.ABANDON, false);
        FencingMode mode = point == Failpoint.CHECK_THEN_WRITE_BETWEEN ? FencingMode.CHECK_THEN_WRITE : FencingMode.FENCED;
        return new RunSpec("fault-matrix " + point, List.of(a, b), Map.of(), TTL, Duration.ofSeconds(4), mode,
                TokenScheme.MONOTONIC, FirstWritePolicy.CREATE, List.of(), 12L, Duration.ofSeconds(60),
                ExecutorKind.SIMULATED, 1.0);
    }

    @ParameterizedTest(name = "{0} at {1}")
    @MethodSource("matrix")
    void everyPointKeepsTokensEventsAndVerdictWhole(Action action, Failpoint point, Database shared,
                                                   @TempDir Path dir) throws Exception {
        runAndCheck(action == Action.RESTART ? restartable : shared, spec(point), action, point, dir);
    }

    /** Runs {@code spec} with {@code point} armed for A and checks everything the matrix promises. */
    private static void runAndCheck(Database db, RunSpec spec, Action action, Failpoint point, Path dir)
            throws Exception {
        RunResult result;
        long runId;
        try (Run run = Run.prepare(db, spec, dir.resolve("events.jsonl"))) {
            run.armFailpoint(point, "A", action.action);
            runId = run.store().runId();
            result = run.runToEnd();
            assertThat(run.failpointsReached()).as("A's statement code reached " + point).isTrue();
        }
        List<Event> events = EventLogReader.read(result.eventLog());

        assertThat(result.endReason()).as("the run ends cleanly").isEqualTo("completed");
        assertLogWhole(events, result);
        assertTokensUnique(db, runId, events);
        assertVerdictMatchesAudit(db, runId, result, spec.fencing());
        if (action == Action.PAUSE) {
            assertOtherHolderTookOverDuringThePause(events);
        }
    }

    /**
     * After a statement, the run's record of the service's answer comes first and the holder's pause
     * after it: the grant is logged when it was made, and A only starts believing once it resumes.
     * (Inside the statement code, the pause came between the two, and the grant, already expired, was
     * recorded after B's: the simulated run died scheduling its expiry in the past.)
     */
    @org.junit.jupiter.api.Test
    void aPauseAfterTheAcquireComesAfterTheGrantIsRecordedAndBeforeTheHolderBelievesIt(Database db,
                                                                                     @TempDir Path dir)
            throws Exception {
        RunResult result;
        try (Run run = Run.prepare(db, spec(Failpoint.ACQUIRE_AFTER), dir.resolve("events.jsonl"))) {
            run.armFailpoint(Failpoint.ACQUIRE_AFTER, "A", Action.PAUSE.action);
            result = run.runToEnd();
        }
        List<Event> events = EventLogReader.read(result.eventLog());

        int paused = indexOf(events, e -> e instanceof Event.PauseStarted p && p.holder().equals("A"));
        assertThat(events.get(paused - 1)).as("A's grant, recorded at the statement, just before the pause")
                .isInstanceOfSatisfying(Event.LeaseAcquired.class, g -> {
                    assertThat(g.holder()).isEqualTo("A");
                    assertThat(g.atMicros()).isZero();
                });
        assertThat(events.get(paused + 1)).as("the service lets A's lease run out while A stands still")
                .isInstanceOf(Event.LeaseBusy.class);
        int resumed = indexOf(events, e -> e instanceof Event.PauseEnded p && p.holder().equals("A"));
        assertThat(events.get(resumed + 1)).as("A starts believing only once it resumes")
                .isInstanceOfSatisfying(Event.BeliefStarted.class, b -> {
                    assertThat(b.holder()).isEqualTo("A");
                    assertThat(b.atMicros()).isEqualTo(PAUSE.toNanos() / 1_000);
                });
        assertThat(result.verdict().kind()).isEqualTo(Verdict.Kind.SAFE);
    }

    static Stream<Arguments> liveMatrix() {
        return Stream.of(Action.KILL, Action.PAUSE)
                .flatMap(a -> Arrays.stream(Failpoint.values()).map(p -> Arguments.of(a, p)));
    }

    /**
     * The live executor, kills and pauses: the same spec at a fiftieth of real time, the pause a sleep
     * of the worker's own virtual thread. (A restart stops and starts the same server whichever
     * executor asks, and takes seconds of real time: the simulated matrix covers it.)
     */
    @ParameterizedTest(name = "live: {0} at {1}")
    @MethodSource("liveMatrix")
    void liveRunsKeepTheSameAtEveryPoint(Action action, Failpoint point, Database db, @TempDir Path dir)
            throws Exception {
        runAndCheck(db, spec(point).toBuilder().executor(ExecutorKind.LIVE).timeScale(LIVE_SCALE).build(), action,
                point, dir);
    }

    static Stream<Failpoint> deaths() {
        // Two: each waits out the pool's 5 s connection time-out before it calls the database gone.
        return Stream.of(Failpoint.RENEW_AFTER, Failpoint.WRITE_BEFORE);
    }

    @ParameterizedTest(name = "database dies at {0}")
    @MethodSource("deaths")
    void aDatabaseDyingAtAPointEndsTheRunAsFailedWithItsEventsOnDisk(Failpoint point, @TempDir Path dir)
            throws Exception {
        RunSpec spec = spec(point);
        RunResult result;
        long runId;
        try {
            try (Run run = Run.prepare(restartable, spec, dir.resolve("events.jsonl"))) {
                run.armFailpoint(point, "A", new FailpointAction.StopDatabase());
                runId = run.store().runId();
                result = run.runToEnd();
                assertThat(run.failpointsReached()).as("A's statement code reached " + point).isTrue();
            }
        } finally {
            restartable.startEmbedded();
        }
        List<Event> events = EventLogReader.read(result.eventLog());

        assertThat(result.endReason()).startsWith("failed: database unreachable");
        assertThat(result.failed()).as("fencelab run exits with 3 (RunCommand: result.failed())").isTrue();
        assertThat(result.finalStateJudged()).as("the database was gone at the end").isFalse();
        assertLogWhole(events, result);
        assertTokensUnique(restartable, runId, events);
        assertVerdictMatchesAudit(restartable, runId, result, spec.fencing());
    }

    static Stream<Arguments> breakages() {
        // A process run's statements run in agent JVMs, where no failpoint can be armed.
        return Stream.of(ExecutorKind.SIMULATED, ExecutorKind.LIVE)
                .flatMap(x -> Arrays.stream(Failpoint.values()).map(p -> Arguments.of(x, p)));
    }

    /**
     * The database broken for good, but still answering, at every statement boundary of every kind
     * (acquire, renew, release, write, check-then-write), on both executors: the run's role loses its
     * rights there, and the run ends {@code failed: permission denied …} at the first statement that
     * meets it, exit code 3, with its events kept and judged (docs/RELIABILITY.md, "When the database
     * breaks").
     */
    @ParameterizedTest(name = "{0}: database broken for good at {1}")
    @MethodSource("breakages")
    void aDatabaseBrokenForGoodAtAPointEndsTheRunFailedWithItsEventsKept(ExecutorKind executor, Failpoint point,
                                                                          @TempDir Path dir) throws Exception {
        RunSpec spec = spec(point).toBuilder().executor(executor).timeScale(LIVE_SCALE).build();
        RunResult result;
        long runId;
        try (Run run = Run.prepare(breakable.database(), spec, dir.resolve("events.jsonl"))) {
            run.armFailpoint(point, "A", new FailpointAction.BreakDatabase(breakable::revoke));
            runId = run.store().runId();
            result = run.runToEnd();
            assertThat(run.failpointsReached()).as("A's statement code reached " + point).isTrue();
        } finally {
            breakable.grant();
        }
        List<Event> events = EventLogReader.read(result.eventLog());

        assertThat(result.endReason()).as("the first statement after the breakage ends the run")
                .startsWith("failed: permission denied for table ");
        assertThat(result.failed()).as("fencelab run exits with 3 (RunCommand: result.failed())").isTrue();
        assertThat(events).filteredOn(e -> e instanceof Event.OperationFailed)
                .as("no fault explains it: not a failed statement to retry").isEmpty();
        assertLogWhole(events, result);
        assertTokensUnique(restartable, runId, events);
        assertVerdictMatchesAudit(restartable, runId, result, spec.fencing());
    }

    private static RunSpec withRestart(RunSpec spec, int atSeconds, int downSeconds) {
        FaultSpec restart = new FaultSpec(FaultKind.DATABASE_RESTART, FaultSpec.DATABASE,
                new FaultStart.At(Duration.ofSeconds(atSeconds)), new Distribution.Fixed(Duration.ofSeconds(downSeconds)),
                Duration.ZERO);
        return spec.toBuilder().faults(List.of(restart)).build();
    }

    /**
     * Found by the live matrix: a restart fault whose heal falls after the run's end left the database
     * stopped, so the final state went unjudged and the next run on the database failed.
     */
    @ParameterizedTest(name = "{0}")
    @org.junit.jupiter.params.provider.EnumSource(value = ExecutorKind.class, names = {"SIMULATED", "LIVE"})
    void aRestartStillUnderWayWhenTheRunEndsIsHealedBeforeRunEnded(ExecutorKind executor, @TempDir Path dir)
            throws Exception {
        RunSpec spec = withRestart(spec(Failpoint.ACQUIRE_BEFORE), 55, 10).toBuilder().executor(executor)
                .timeScale(LIVE_SCALE).build();
        RunResult result;
        try (Run run = Run.prepare(restartable, spec, dir.resolve("events.jsonl"))) {
            result = run.runToEnd();
        } finally {
            boolean reachable = restartable.isReachable();
            if (!reachable) {
                restartable.startEmbedded();
            }
            assertThat(reachable).as("the database is back once the run is over").isTrue();
        }
        List<Event> events = EventLogReader.read(result.eventLog());

        assertThat(result.endReason()).isEqualTo("completed");
        assertThat(result.finalStateJudged()).as("the final state was read from the database").isTrue();
        assertLogWhole(events, result);
        assertThat(events.get(events.size() - 2)).as("the restart is healed, last before RunEnded")
                .isInstanceOfSatisfying(Event.FaultHealed.class, h -> assertThat(h.fault()).isEqualTo("DATABASE_RESTART"));
    }

    /**
     * Found by the live matrix: a live run took a statement failing after the restart fault's planned
     * end, while the server was still starting (it takes about a second of real time), for a database
     * that had died, and ended the run {@code failed: database unreachable}.
     */
    @org.junit.jupiter.api.Test
    void aLiveRunWaitsForARestartedDatabaseThatTakesLongerThanPlanned(@TempDir Path dir) throws Exception {
        RunSpec spec = withRestart(spec(Failpoint.ACQUIRE_BEFORE), 3, 1).toBuilder().executor(ExecutorKind.LIVE)
                .timeScale(LIVE_SCALE).build();
        RunResult result;
        try (Run run = Run.prepare(restartable, spec, dir.resolve("events.jsonl"))) {
            result = run.runToEnd();
        }

        assertThat(result.endReason()).as("1 s of run time is 20 ms of real time, far less than a restart takes")
                .isEqualTo("completed");
        assertThat(EventLogReader.read(result.eventLog())).filteredOn(e -> e instanceof Event.OperationFailed)
                .as("statements failed while the server was down").isNotEmpty();
    }

    /** Seqs gap-free from 1, everything published on disk, one {@code RunEnded}, last, with the run's reason. */
    private static void assertLogWhole(List<Event> events, RunResult result) {
        assertThat(events).as("every published event is on disk").hasSize((int) result.events());
        assertThat(events.stream().mapToLong(Event::seq).toArray()).as("seqs gap-free from 1")
                .containsExactly(LongStream.rangeClosed(1, events.size()).toArray());
        assertThat(events).filteredOn(e -> e instanceof Event.RunEnded).as("one RunEnded").hasSize(1);
        assertThat(events.getLast()).as("the log ends with RunEnded")
                .isInstanceOfSatisfying(Event.RunEnded.class, e -> assertThat(e.reason()).isEqualTo(result.endReason()));
    }

    /**
     * Every counter value the lease table issued was announced by exactly one {@code LeaseAcquired}:
     * none twice (reuse), none missing (a grant the log lost), none the table does not know.
     */
    private static void assertTokensUnique(Database db, long runId, List<Event> events) {
        List<Long> granted = events.stream().filter(e -> e instanceof Event.LeaseAcquired)
                .map(e -> ((Event.LeaseAcquired) e).token()).toList();
        long last = new LeaseService(db.existingRun(runId), new io.fencelab.engine.clock.VirtualClock())
                .current(SCOPE).map(LeaseService.ScopeState::lastToken).orElse(0L);
        assertThat(granted).as("LeaseAcquired tokens, in log order, against the lease table's counter " + last)
                .doesNotHaveDuplicates()
                .containsExactlyInAnyOrder(LongStream.rangeClosed(1, last).boxed().toArray(Long[]::new));
    }

    /**
     * The checker's word against the database's: a stale overwrite in the judgement exactly when the
     * audit trigger recorded a regression; under FENCED neither, and the verdict SAFE.
     */
    private static void assertVerdictMatchesAudit(Database db, long runId, RunResult result, FencingMode mode) {
        List<FenceAudit.Entry> regressions = new FenceAudit(db.existingRun(runId)).regressions();
        List<WriteJudgement> staleOverwrites = result.judgement().writes().all().stream()
                .filter(WriteJudgement::isStaleOverwrite).toList();
        assertThat(staleOverwrites.isEmpty()).as("stale overwrites judged %s vs regressions audited %s",
                staleOverwrites, regressions).isEqualTo(regressions.isEmpty());
        assertThat(result.verdict().kind() == Verdict.Kind.SAFE).as("verdict %s vs regressions audited %s",
                result.verdict(), regressions).isEqualTo(regressions.isEmpty());
        if (mode == FencingMode.FENCED) {
            assertThat(result.verdict().kind()).as("fencing holds whatever the fault").isEqualTo(Verdict.Kind.SAFE);
        }
    }

    /** The pause outlasted A's lease, so B acquired while A stood still. */
    private static void assertOtherHolderTookOverDuringThePause(List<Event> events) {
        int started = indexOf(events, e -> e instanceof Event.PauseStarted p && p.holder().equals("A"));
        int ended = indexOf(events, e -> e instanceof Event.PauseEnded p && p.holder().equals("A"));
        assertThat(started).as("A's pause is in the log").isNotNegative();
        assertThat(ended).as("and its end, after its start").isGreaterThan(started);
        assertThat(events.subList(started, ended))
                .as("B acquires while A is paused")
                .anyMatch(e -> e instanceof Event.LeaseAcquired g && g.holder().equals("B"));
    }

    private static int indexOf(List<Event> events, java.util.function.Predicate<Event> p) {
        for (int i = 0; i < events.size(); i++) {
            if (p.test(events.get(i))) {
                return i;
            }
        }
        return -1;
    }
}
