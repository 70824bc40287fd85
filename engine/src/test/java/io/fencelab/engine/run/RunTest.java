package io.fencelab.engine.run;

import static org.assertj.core.api.Assertions.assertThat;

import io.fencelab.engine.check.Invariant;
import io.fencelab.engine.check.SafetyChecker;
import io.fencelab.engine.check.Verdict;
import io.fencelab.engine.check.WriteClass;
import io.fencelab.engine.db.Database;
import io.fencelab.engine.event.Event;
import io.fencelab.engine.event.EventLogReader;
import io.fencelab.engine.fence.FencingMode;
import io.fencelab.testing.EmbeddedDatabase;
import io.fencelab.testing.Specs;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

@ExtendWith(EmbeddedDatabase.class)
class RunTest {

    @Test
    void aFencedStoryIsJudgedSafeWithOneStaleRejection(Database db, @TempDir Path dir) throws Exception {
        RunResult result;
        try (Run run = Run.prepare(db, Specs.staleHolder(FencingMode.FENCED), dir.resolve("events.jsonl"))) {
            result = run.runToEnd();
        }

        assertThat(result.endReason()).isEqualTo("completed");
        assertThat(result.verdict().kind()).isEqualTo(Verdict.Kind.SAFE);
        assertThat(result.finalStateJudged()).isTrue();
        assertThat(result.metrics().totals().staleRejections()).isEqualTo(1);
        assertThat(result.metrics().totals().acceptedWrites()).isEqualTo(1);
        assertThat(EventLogReader.read(result.eventLog())).hasSize((int) result.events());
    }

    @Test
    void aDurableRunForcesItsLogToDiskAtTheEndAndTheDefaultNever(Database db, @TempDir Path dir) throws Exception {
        RunResult result;
        long durableForces;
        try (Run run = Run.prepareDurable(db, Specs.staleHolder(FencingMode.FENCED), dir.resolve("durable.jsonl"),
                Duration.ofHours(1))) {
            result = run.runToEnd();
            durableForces = run.logForces();
        }
        long defaultForces;
        try (Run run = Run.prepare(db, Specs.staleHolder(FencingMode.FENCED), dir.resolve("default.jsonl"))) {
            run.runToEnd();
            defaultForces = run.logForces();
        }

        assertThat(durableForces).as("once, at the end (the run is far shorter than the interval)").isEqualTo(1);
        assertThat(defaultForces).as("no fsync unless asked").isZero();
        assertThat(result.judgement().incomplete()).as("a finished run's log ends with RunEnded").isEmpty();
        assertThat(EventLogReader.read(result.eventLog())).hasSize((int) result.events());
    }

    @Test
    void anUnfencedStoryIsJudgedViolatedWhileTheLogHoldsOnlyWhatHappened(Database db, @TempDir Path dir) throws Exception {
        RunResult result;
        try (Run run = Run.prepare(db, Specs.staleHolder(FencingMode.UNFENCED), dir.resolve("events.jsonl"))) {
            result = run.runToEnd();
        }

        assertThat(result.verdict().kind()).isEqualTo(Verdict.Kind.VIOLATED);
        assertThat(result.verdict().witnesses()).first()
                .satisfies(w -> assertThat(w.invariant()).isEqualTo(Invariant.STALE_OVERWRITE))
                .satisfies(w -> assertThat(w.summary()).contains("A wrote with token 1").contains("B's write with token 2"));
        List<String> lines = Files.readAllLines(result.eventLog());
        assertThat(lines).as("the log is the history; the checker's conclusions stay beside it")
                .noneMatch(line -> line.contains("\"Violation\"")).hasSize((int) result.events());
        Event.WriteAccepted stale = EventLogReader.read(result.eventLog()).stream()
                .filter(e -> e instanceof Event.WriteAccepted w && w.holder().equals("A"))
                .map(Event.WriteAccepted.class::cast).findFirst().orElseThrow();
        assertThat(result.judgement().classOf(stale.seq())).as("A's late write, in the judgement")
                .isEqualTo(WriteClass.STALE_OVERWRITE);
        assertThat(result.judgement().writes().of(stale.seq()).against()).as("the newer token it went over")
                .isEqualTo(2L);
    }

    @Test
    void theSameSpecAndSeedWriteTheSameLogByteForByte(Database db, @TempDir Path dir) throws Exception {
        RunSpec storm = Specs.storm(6, 2, FencingMode.UNFENCED, 21, Duration.ofSeconds(20));
        Path first = runTo(db, storm, dir.resolve("first.jsonl"));
        Path second = runTo(db, storm, dir.resolve("second.jsonl"));

        assertThat(Files.size(first)).isGreaterThan(10_000);
        assertThat(Files.mismatch(first, second)).as("first differing byte").isEqualTo(-1L);
    }

    @Test
    void judgingTheLogOfflineGivesTheOnlineVerdict(Database db, @TempDir Path dir) throws Exception {
        RunResult result;
        try (Run run = Run.prepare(db, Specs.storm(6, 2, FencingMode.UNFENCED, 8, Duration.ofSeconds(20)),
                dir.resolve("events.jsonl"))) {
            result = run.runToEnd();
        }

        Verdict offline = SafetyChecker.judge(EventLogReader.read(result.eventLog()));
        assertThat(offline.kind()).isEqualTo(result.verdict().kind());
        assertThat(offline.witnesses()).isEqualTo(result.verdict().witnesses().stream()
                .filter(w -> w.invariant() != Invariant.FINAL_STATE_MISMATCH).toList());
    }

    @Test
    void aDatabaseThatDiesMidRunStopsTheRunAndKeepsTheEvents(@TempDir Path dir) throws Exception {
        Database doomed = EmbeddedDatabase.startThrowaway();
        try {
            RunSpec spec = Specs.storm(20, 4, FencingMode.FENCED, 2, Duration.ofSeconds(60))
                    .withExecutor(ExecutorKind.LIVE);
            RunResult result;
            try (Run run = Run.prepare(doomed, spec, dir.resolve("events.jsonl"))) {
                Thread killer = Thread.ofPlatform().start(() -> {
                    sleep(1_500);
                    doomed.stopEmbedded();
                });
                result = run.runToEnd();
                killer.join();
            }

            assertThat(result.endReason()).startsWith("failed: database unreachable");
            assertThat(result.finalStateJudged()).isFalse();
            List<Event> logged = EventLogReader.read(result.eventLog());
            assertThat(logged).filteredOn(e -> e instanceof Event.LeaseAcquired).isNotEmpty();
            assertThat(logged).filteredOn(e -> e instanceof Event.RunEnded).singleElement()
                    .satisfies(e -> assertThat(((Event.RunEnded) e).reason()).startsWith("failed"));
        } finally {
            doomed.close();
        }
    }

    private static Path runTo(Database db, RunSpec spec, Path file) throws Exception {
        try (Run run = Run.prepare(db, spec, file)) {
            run.runToEnd();
        }
        return file;
    }

    private static void sleep(long millis) {
        try {
            Thread.sleep(millis);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
