package io.fencelab.app.process;

import static org.assertj.core.api.Assertions.assertThat;

import io.fencelab.engine.check.Judgement;
import io.fencelab.engine.db.Database;
import io.fencelab.engine.event.Event;
import io.fencelab.engine.event.EventLogReader;
import io.fencelab.engine.run.ExecutorKind;
import io.fencelab.engine.run.Run;
import io.fencelab.engine.run.RunResult;
import io.fencelab.engine.run.RunSpec;
import io.fencelab.scenarios.Catalog;
import io.fencelab.testing.EmbeddedDatabase;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Process runs against their simulated twins: every worker its own JVM, pauses as SIGSTOP, the same
 * verdicts and the same write classes.
 */
class ProcessRunTest {

    /** Each write's outcome as the checker classed it: holder, token, outcome, class; in log order per holder. */
    static List<String> outcomes(RunResult result) throws Exception {
        List<Event> events = EventLogReader.read(result.eventLog());
        Judgement j = result.judgement();
        List<String> out = new ArrayList<>();
        for (Event e : events) {
            switch (e) {
                case Event.WriteAccepted w -> out.add(w.holder() + " " + w.token() + " accepted "
                        + j.writes().classOf(w.seq()));
                case Event.WriteRejectedStale w -> out.add(w.holder() + " " + w.token() + " rejected stale");
                case Event.WriteMissing w -> out.add(w.holder() + " " + w.token() + " missing");
                case Event.WriteOutOfOrder w -> out.add(w.holder() + " " + w.token() + " out of order");
                default -> { }
            }
        }
        out.sort(null);
        return out;
    }

    static RunResult run(Database db, RunSpec spec, Path log) throws Exception {
        try (Run run = Run.prepare(db, spec, log)) {
            return run.runToEnd();
        }
    }

    @Test
    void thePausedHolderStoryAsProcessesFreezesARealJvmAndEndsAsTheSimulatedRunDoes(@TempDir Path dir)
            throws Exception {
        Database db = EmbeddedDatabase.startThrowaway(16);
        try (db) {
            RunSpec story = Catalog.shipped().load("paused-holder").spec();
            RunResult simulated = run(db, story, dir.resolve("simulated.jsonl"));
            RunSpec asProcesses = story.toBuilder().executor(ExecutorKind.PROCESS).timeScale(0.2).build();
            RunResult processes = run(db, asProcesses, dir.resolve("process.jsonl"));

            assertThat(processes.endReason()).isEqualTo("completed");
            assertThat(processes.verdict().kind()).isEqualTo(simulated.verdict().kind());
            assertThat(outcomes(processes)).isEqualTo(outcomes(simulated));
            List<Event> events = EventLogReader.read(processes.eventLog());
            assertThat(events).filteredOn(e -> e instanceof Event.AgentReport r
                    && r.kind() == Event.AgentReport.Kind.STARTED).hasSize(story.workers().size());
            assertThat(events).filteredOn(e -> e instanceof Event.PauseStarted).singleElement()
                    .satisfies(e -> assertThat(((Event.PauseStarted) e).cause()).contains("SIGSTOP to process")
                            .contains("stopped (state T)"));
        }
    }

    @Test
    void aGcStormAsThirtyJvmsFreezesEachForRealAndKeepsTheSimulatedVerdict(@TempDir Path dir) throws Exception {
        try (Database db = EmbeddedDatabase.startThrowaway(48)) {
            RunSpec storm = Catalog.shipped().load("gc-storm").spec();
            RunResult simulated = run(db, storm, dir.resolve("simulated.jsonl"));
            RunSpec asProcesses = storm.toBuilder().executor(ExecutorKind.PROCESS).timeScale(0.25).build();

            RunResult processes = run(db, asProcesses, dir.resolve("process.jsonl"));

            assertThat(processes.endReason()).isEqualTo("completed");
            assertThat(processes.verdict().kind()).as(processes.verdict().witnesses().toString())
                    .isEqualTo(simulated.verdict().kind());
            assertThat(outcomes(processes)).as("no stale write gets through").noneMatch(o -> o.contains("STALE"));
            List<Event> events = EventLogReader.read(processes.eventLog());
            List<Event.PauseStarted> pauses = events.stream().filter(e -> e instanceof Event.PauseStarted)
                    .map(e -> (Event.PauseStarted) e).toList();
            assertThat(pauses).as("the storm froze processes").hasSizeGreaterThan(30)
                    .allSatisfy(p -> assertThat(p.cause()).satisfiesAnyOf(
                            c -> assertThat(c).contains("SIGSTOP to process").contains("stopped (state T)"),
                            c -> assertThat(c).contains("is down")));
            assertThat(events).filteredOn(e -> e instanceof Event.WriteAccepted).hasSizeGreaterThan(20);
        }
    }

    static RunSpec scenario(String yaml) {
        return io.fencelab.scenarios.ScenarioLoader.load("test.yaml", """
                title: a process run of a test
                summary: What the test says.
                story: [It runs.]
                executor: process
                expect: {verdict: SAFE}
                """ + yaml).spec();
    }

    /** A frozen process renews nothing: the lease's expiry, read from the database during the freeze, stands still. */
    @Test
    void aFrozenAgentsRenewalsStopAsTheDatabaseSeesThem(@TempDir Path dir) throws Exception {
        RunSpec spec = scenario("""
                duration: 8s
                lease: {ttl: 1500ms, renewEvery: 250ms}
                workers:
                  - {name: A, scope: s, workTime: 6s, jobs: 1, writes: [{target: ROW, key: r}]}
                faults:
                  - {kind: PAUSE, target: A, at: 2s, duration: 3s}
                """);
        try (Database db = EmbeddedDatabase.startThrowaway(16); Run run = Run.prepare(db, spec, dir.resolve("e.jsonl"))) {
            long runId = run.store().runId();
            List<java.time.Instant[]> samples = java.util.Collections.synchronizedList(new ArrayList<>());
            Thread sampler = Thread.ofVirtual().start(() -> {
                while (!Thread.currentThread().isInterrupted()) {
                    db.jdbi().useHandle(h -> h.createQuery("SELECT l.expires_at, clock_timestamp() AS now, "
                                    + "a.started_at FROM lease l JOIN agent_run a USING (run_id) "
                                    + "WHERE l.run_id = :run AND l.scope = 's'")
                            .bind("run", runId)
                            .map((rs, ctx) -> new java.time.Instant[]{
                                    rs.getObject(1, java.time.OffsetDateTime.class).toInstant(),
                                    rs.getObject(2, java.time.OffsetDateTime.class).toInstant(),
                                    rs.getObject(3, java.time.OffsetDateTime.class).toInstant()})
                            .findOne().ifPresent(samples::add));
                    try {
                        Thread.sleep(50);
                    } catch (InterruptedException e) {
                        return;
                    }
                }
            });
            RunResult result = run.runToEnd();
            sampler.interrupt();
            sampler.join();

            List<Event> events = EventLogReader.read(result.eventLog());
            Event.PauseStarted frozen = events.stream().filter(e -> e instanceof Event.PauseStarted)
                    .map(e -> (Event.PauseStarted) e).findFirst().orElseThrow();
            Event.PauseEnded thawed = events.stream().filter(e -> e instanceof Event.PauseEnded)
                    .map(e -> (Event.PauseEnded) e).findFirst().orElseThrow();
            java.time.Instant zero = samples.getFirst()[2];
            java.time.Instant from = zero.plusNanos(frozen.atMicros() * 1_000 + 300_000_000L);
            java.time.Instant to = zero.plusNanos(thawed.atMicros() * 1_000);
            List<java.time.Instant> duringFreeze = samples.stream()
                    .filter(x -> x[1].isAfter(from) && x[1].isBefore(to)).map(x -> x[0]).distinct().toList();
            List<java.time.Instant> before = samples.stream()
                    .filter(x -> x[1].isBefore(zero.plusNanos(frozen.atMicros() * 1_000))).map(x -> x[0]).distinct()
                    .toList();
            assertThat(before).as("renewals move the expiry before the freeze").hasSizeGreaterThanOrEqualTo(3);
            assertThat(duringFreeze).as("while frozen, the database sees no renewal").hasSize(1);
            assertThat(events).as("the service's expiry is reported while the holder is frozen")
                    .anyMatch(e -> e instanceof Event.LeaseExpired x && x.atMicros() < thawed.atMicros());
        }
    }

    /** SIGKILL: no release, the service's lease expires on its own, and the next holder gets a newer token. */
    @Test
    void aKilledAgentsLeaseExpiresOnTheServiceAndTheNextHolderTakesOver(@TempDir Path dir) throws Exception {
        RunSpec spec = scenario("""
                duration: 8s
                lease: {ttl: 1500ms, renewEvery: 250ms}
                workers:
                  - {name: A, scope: s, workTime: 6s, jobs: 1, writes: [{target: ROW, key: r}]}
                  - {name: B, scope: s, startAt: 1500ms, idleTime: 200ms, workTime: 500ms, jobs: 1,
                     writes: [{target: ROW, key: r}]}
                faults:
                  - {kind: CRASH, target: A, at: 1s}
                """);
        try (Database db = EmbeddedDatabase.startThrowaway(16)) {
            RunResult result = run(db, spec, dir.resolve("e.jsonl"));

            List<Event> events = EventLogReader.read(result.eventLog());
            Event.LeaseAcquired a = grantOf(events, "A");
            Event.LeaseAcquired b = grantOf(events, "B");
            assertThat(events).as("a killed process releases nothing")
                    .noneMatch(e -> e instanceof Event.LeaseReleased r && r.holder().equals("A"));
            Event.LeaseExpired expired = events.stream().filter(e -> e instanceof Event.LeaseExpired x
                    && x.holder().equals("A")).map(e -> (Event.LeaseExpired) e).findFirst().orElseThrow();
            assertThat(expired.token()).isEqualTo(a.token());
            assertThat(b.seq()).as("B's grant comes after A's lease expired").isGreaterThan(expired.seq());
            assertThat(b.token()).isGreaterThan(a.token());
            assertThat(events).as("the run ends A's belief for the dead process")
                    .anyMatch(e -> e instanceof Event.BeliefEnded x && x.holder().equals("A")
                            && x.cause() == Event.BeliefEnded.Cause.CRASHED);
            assertThat(result.verdict().isSafe()).isTrue();
        }
    }

    /** A connection kill is an order to the agent: its next action's session is terminated in its own JVM. */
    @Test
    void aConnectionKillReachesTheAgentAndItsNextStatementFails(@TempDir Path dir) throws Exception {
        RunSpec spec = scenario("""
                duration: 4s
                lease: {ttl: 1500ms, renewEvery: 250ms}
                workers:
                  - {name: A, scope: s, workTime: 3s, jobs: 1, writes: [{target: ROW, key: r}]}
                faults:
                  - {kind: CONNECTION_KILL, target: A, at: 1s}
                """);
        try (Database db = EmbeddedDatabase.startThrowaway(16)) {
            RunResult result = run(db, spec, dir.resolve("e.jsonl"));

            List<Event> events = EventLogReader.read(result.eventLog());
            long killedAt = events.stream().filter(e -> e instanceof Event.FaultInjected f
                    && f.fault().equals("CONNECTION_KILL")).findFirst().orElseThrow().atMicros();
            assertThat(events).as("A's next statement after the kill fails on its terminated connection")
                    .anyMatch(e -> e instanceof Event.OperationFailed f && f.holder().equals("A")
                            && f.atMicros() > killedAt);
            assertThat(result.endReason()).isEqualTo("completed");
        }
    }

    private static Event.LeaseAcquired grantOf(List<Event> events, String holder) {
        return events.stream().filter(e -> e instanceof Event.LeaseAcquired x && x.holder().equals(holder))
                .map(e -> (Event.LeaseAcquired) e).findFirst().orElseThrow();
    }
}
