package io.fencelab.app.process;

import static org.assertj.core.api.Assertions.assertThat;

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
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Several agent hosts on this machine standing for several machines: each its own process with its
 * own clock offset, reached only through the database.
 */
class AgentHostsRunTest {

    @Test
    void threeHostsWithClocksFiveSecondsBehindRightAndSevenAheadGiveTheOneHostVerdictAndMeasureTheirOffsets(
            @TempDir Path dir) throws Exception {
        try (Database db = EmbeddedDatabase.startThrowaway(24); AgentHosts hosts = new AgentHosts(db, dir)) {
            hosts.start("a", Duration.ofSeconds(-5));
            hosts.start("b", Duration.ZERO);
            hosts.start("c", Duration.ofSeconds(7));
            RunSpec story = Catalog.shipped().load("paused-holder").spec();
            RunResult simulated = ProcessRunTest.run(db, story, dir.resolve("simulated.jsonl"));
            List<String> names = story.workers().stream().map(w -> w.name()).toList();
            Map<String, String> placed = Map.of(names.get(0), "a", names.get(1), "c");
            RunSpec spread = story.toBuilder().executor(ExecutorKind.PROCESS).timeScale(0.2).hosts(placed).build();

            RunResult result = ProcessRunTest.run(db, spread, dir.resolve("hosts.jsonl"));

            assertThat(result.endReason()).isEqualTo("completed");
            assertThat(result.verdict().kind()).isEqualTo(simulated.verdict().kind());
            assertThat(ProcessRunTest.outcomes(result)).as(java.nio.file.Files.readString(result.eventLog()))
                    .isEqualTo(ProcessRunTest.outcomes(simulated));
            List<Event.AgentReport> started = EventLogReader.read(result.eventLog()).stream()
                    .filter(e -> e instanceof Event.AgentReport r && r.kind() == Event.AgentReport.Kind.STARTED)
                    .map(e -> (Event.AgentReport) e).toList();
            assertThat(started).extracting(Event.AgentReport::host).containsExactlyInAnyOrder("a", "c");
            for (Event.AgentReport r : started) {
                long expected = r.host().equals("a") ? 5_000_000 : -7_000_000;
                assertThat(Math.abs(r.clockOffsetMicros() - expected)).as("%s's measured offset", r.host())
                        .isLessThanOrEqualTo(r.clockUncertaintyMicros() + 5_000);
            }
        }
    }

    @Test
    void aHostKilledMidRunEndsTheRunFailedNamingTheHostWithItsEventsKeptAndJudged(@TempDir Path dir)
            throws Exception {
        try (Database db = EmbeddedDatabase.startThrowaway(24); AgentHosts hosts = new AgentHosts(db, dir)) {
            Process a = hosts.start("a", Duration.ZERO);
            hosts.start("b", Duration.ZERO);
            RunSpec story = Catalog.shipped().load("paused-holder").spec();
            List<String> names = story.workers().stream().map(w -> w.name()).toList();
            RunSpec spread = story.toBuilder().executor(ExecutorKind.PROCESS).timeScale(0.2)
                    .hosts(Map.of(names.get(0), "a", names.get(1), "b")).build();

            RunResult result;
            try (Run run = Run.prepare(db, spread, dir.resolve("lost.jsonl"))) {
                run.bus().subscribe("killer", batch -> batch.stream()
                        .filter(e -> e instanceof Event.LeaseAcquired).findFirst()
                        .ifPresent(e -> a.destroyForcibly()));
                result = run.runToEnd();
            }

            assertThat(result.endReason()).isEqualTo("failed: host a lost");
            List<Event> events = EventLogReader.read(result.eventLog());
            assertThat(events).as("the first grant, before the host died, is kept")
                    .anyMatch(e -> e instanceof Event.LeaseAcquired);
            assertThat(events).anyMatch(e -> e instanceof Event.AgentReport r
                    && r.kind() == Event.AgentReport.Kind.LOST && r.host().equals("a"));
            assertThat(events.getLast()).isInstanceOf(Event.RunEnded.class);
            assertThat(result.verdict().isSafe()).as("judged up to the loss").isTrue();
        }
    }
}
