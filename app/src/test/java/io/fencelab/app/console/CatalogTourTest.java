package io.fencelab.app.console;

import static io.fencelab.app.console.ConsoleFx.fx;
import static io.fencelab.app.console.ConsoleFx.fxRun;
import static io.fencelab.app.console.ConsoleFx.waitUntil;
import static org.assertj.core.api.Assertions.assertThat;

import io.fencelab.app.console.model.RunModel;
import io.fencelab.app.console.model.RunPhase;
import io.fencelab.engine.run.ExecutorKind;
import io.fencelab.scenarios.Catalog;
import io.fencelab.scenarios.CatalogEntry;
import io.fencelab.scenarios.Scenario;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Every catalog scenario, run in the console: its verdict there is the one the scenario expects. */
class CatalogTourTest extends ConsoleTestBase {

    @Test
    void everyCatalogScenarioShowsTheVerdictItExpects() {
        waitForDatabase();
        List<CatalogEntry> entries = fx(() -> List.copyOf(console.model().catalog()));
        assertThat(entries).hasSizeGreaterThan(1);
        List<String> wrong = new ArrayList<>();
        RunModel main = fx(() -> console.model().main());
        for (CatalogEntry entry : entries) {
            Scenario scenario = Catalog.shipped().load(entry.name());
            String expected = scenario.expectation().verdict().name();
            // A live run races for real: the race it shows may not happen every time.
            int attempts = scenario.spec().executor() == ExecutorKind.LIVE ? 3 : 1;
            String shown = "";
            for (int attempt = 1; attempt <= attempts && !shown.equals(expected); attempt++) {
                fxRun(() -> {
                    console.scenarios().select(entry);
                    console.runs().setFastest(true);
                });
                waitUntil(entry.name() + " is prepared", 60, () -> main.phase() == RunPhase.PAUSED);
                fxRun(() -> console.runs().play());
                waitUntil(entry.name() + " ended", 120, () -> main.phase().isOver());
                waitUntil(entry.name() + "'s timeline is drawn", 60, () -> main.timeline() != null
                        && main.timeline().runMicros() >= main.events().last().atMicros());
                ConsoleFx.frames();
                shown = labelText("#verdict-label");
            }
            if (!shown.equals(expected)) {
                wrong.add(entry.name() + ": shows " + shown + ", expects " + expected + " ("
                        + fx(() -> main.problemProperty().get()) + ")");
            }
            screenshot("catalog-" + entry.name());
        }
        assertThat(wrong).as("scenarios whose verdict in the console is not the expected one").isEmpty();
    }
}
