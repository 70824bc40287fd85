package io.fencelab.scenarios;

import static org.assertj.core.api.Assertions.assertThat;

import io.fencelab.engine.db.Database;
import io.fencelab.engine.event.Event;
import io.fencelab.engine.event.EventLogReader;
import io.fencelab.engine.fence.FencedTarget;
import io.fencelab.engine.fence.FencingMode;
import io.fencelab.engine.fence.FirstWritePolicy;
import io.fencelab.engine.run.Run;
import io.fencelab.engine.run.RunResult;
import io.fencelab.engine.run.RunSpec;
import io.fencelab.engine.run.SimulatedExecutor;
import io.fencelab.testing.EmbeddedDatabase;
import io.fencelab.testing.RecordingSink;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

@ExtendWith(EmbeddedDatabase.class)
class PausedHolderScenarioTest {

    static final String RESOURCE = Catalog.RESOURCE_DIR + "paused-holder.yaml";

    static String text() throws IOException {
        try (InputStream in = PausedHolderScenarioTest.class.getClassLoader().getResourceAsStream(RESOURCE)) {
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        }
    }

    /**
     * The file is the one source of the story that the demo, the README and the architecture notes
     * tell: these are its events, in order, and the report ends with B's body.
     */
    @Test
    void theCatalogFileRunsAsTheStoryIsTold(Database db) {
        Scenario scenario = ScenarioLoader.fromResource(RESOURCE);
        assertThat(scenario.name()).isEqualTo("paused-holder");
        RecordingSink sink = new RecordingSink();
        try (SimulatedExecutor run = new SimulatedExecutor(db, scenario.spec(), sink)) {
            run.runToEnd();

            assertThat(sink.events()).filteredOn(e -> !(e instanceof Event.RunStarted || e instanceof Event.RunEnded))
                    .extracting(e -> (e.atMicros() / 1_000_000) + "s " + e.getClass().getSimpleName()
                            + (e.holder() == null ? "" : " " + e.holder())
                            + (e.tokenOrNull() == null ? "" : " " + e.tokenOrNull()))
                    .containsExactly(
                            "0s LeaseAcquired A 41", "0s BeliefStarted A 41",
                            "10s PauseStarted A",
                            "30s LeaseExpired A 41",
                            "31s LeaseAcquired B 42", "31s BeliefStarted B 42",
                            "35s WriteAttempted B 42", "35s WriteAccepted B 42",
                            "35s LeaseReleased B 42", "35s BeliefEnded B 42",
                            "45s PauseEnded A",
                            "45s WriteAttempted A 41", "45s WriteRejectedStale A 41",
                            "45s BeliefEnded A 41");
            assertThat(FencedTarget.row(run.runContext(), FencingMode.FENCED, FirstWritePolicy.CREATE)
                    .read("report", "report-1").orElseThrow().value())
                    .as("the report holds B's body").isEqualTo("report by B, job 1");
        }
    }

    @Test
    void theUnfencedCatalogVariantIsTheSameTimelineWithoutTheFence() {
        RunSpec fenced = ScenarioLoader.fromResource(RESOURCE).spec();
        RunSpec unfenced = Catalog.shipped().load("paused-holder-unfenced").spec();

        assertThat(unfenced.fencing()).isEqualTo(FencingMode.UNFENCED);
        assertThat(unfenced.withFencing(FencingMode.FENCED)).usingRecursiveComparison().ignoringFields("name")
                .as("paused-holder-unfenced.yaml must tell paused-holder.yaml's timeline").isEqualTo(fenced);
    }

    @Test
    void theFileCarriesTeachingNotesAndItsExpectationInWords() {
        Scenario scenario = ScenarioLoader.fromResource(RESOURCE);

        assertThat(scenario.notes().title()).isEqualTo("The paused holder");
        assertThat(scenario.notes().story()).hasSizeGreaterThanOrEqualTo(5);
        assertThat(scenario.notes().firstSentence()).endsWith("make.");
        assertThat(scenario.expectation().describe()).isEqualTo("SAFE with exactly 1 stale rejection");
    }

    @Test
    void aFencedRunMeetsTheFilesExpectation(Database db, @TempDir Path dir) throws Exception {
        Scenario scenario = ScenarioLoader.fromResource(RESOURCE);
        RunResult result = run(db, scenario, dir);

        assertThat(scenario.expectation().mismatches(result, EventLogReader.read(result.eventLog())))
                .as("mismatches of the fenced paused holder").isEmpty();
    }

    @Test
    void anUnfencedVariantMissesTheExpectedVerdict(Database db, @TempDir Path dir) throws Exception {
        Scenario unfenced = ScenarioLoader.load("paused-unfenced.yaml",
                text().replace("fencing: FENCED", "fencing: UNFENCED"));
        assertThat(unfenced.spec().fencing()).isEqualTo(FencingMode.UNFENCED);

        RunResult result = run(db, unfenced, dir);
        List<Event> events = EventLogReader.read(result.eventLog());

        assertThat(unfenced.expectation().mismatches(result, events))
                .anySatisfy(m -> assertThat(m).startsWith("expected verdict SAFE, got VIOLATED (STALE_OVERWRITE"))
                .contains("expected at least 1 staleRejections, got 0");
    }

    static RunResult run(Database db, Scenario scenario, Path dir) throws InterruptedException {
        try (Run run = Run.prepare(db, scenario.spec(), dir.resolve(scenario.name() + ".jsonl"))) {
            return run.runToEnd();
        }
    }
}
