package io.fencelab.scenarios;

import static org.assertj.core.api.Assertions.assertThat;

import io.fencelab.engine.db.Database;
import io.fencelab.engine.event.Event;
import io.fencelab.engine.event.EventLogReader;
import io.fencelab.engine.fence.FencingMode;
import io.fencelab.engine.run.Run;
import io.fencelab.engine.run.RunResult;
import io.fencelab.engine.run.Workloads;
import io.fencelab.testing.EmbeddedDatabase;
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

    @Test
    void theCatalogFileCompilesToTheBuiltInPausedHolderSpec() {
        Scenario scenario = ScenarioLoader.fromResource(RESOURCE);

        assertThat(scenario.name()).isEqualTo("paused-holder");
        assertThat(scenario.spec()).as("the file must describe exactly Workloads.pausedHolder(FENCED)")
                .isEqualTo(Workloads.pausedHolder(FencingMode.FENCED));
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
