package io.fencelab.scenarios;

import static org.assertj.core.api.Assertions.assertThat;

import io.fencelab.engine.db.Database;
import io.fencelab.engine.event.Event;
import io.fencelab.engine.event.EventLogReader;
import io.fencelab.engine.run.Run;
import io.fencelab.engine.run.RunResult;
import io.fencelab.testing.EmbeddedDatabase;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/** Every shipped scenario runs, on real PostgreSQL, and its stated expectation holds. */
@ExtendWith(EmbeddedDatabase.class)
class CatalogScenariosTest {

    static Stream<String> catalog() {
        return Catalog.shipped().names().stream();
    }

    @Test
    void theCatalogHoldsEveryScenarioTheWorkshopNeeds() {
        assertThat(catalog()).contains("paused-holder", "paused-holder-unfenced", "check-then-write-race",
                "fence-first-write-only", "random-uuid-tokens", "wall-clock-tokens-skew", "delayed-write", "gc-storm",
                "silent-renewal-loss", "blind-retry", "per-customer-scopes", "token-exhaustion", "json-precision",
                "db-restart", "connection-kill", "ordering-within-generation", "token-goes-backwards");
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("catalog")
    void theScenarioMeetsItsExpectation(String name, @TempDir Path dir) throws Exception {
        Database db = name.equals("db-restart")
                // Restarting the shared server would disturb other tests: this one gets its own.
                ? EmbeddedDatabase.startThrowaway()
                : null;
        try {
            Scenario scenario = Catalog.shipped().load(name);
            RunResult result;
            try (Run run = Run.prepare(db != null ? db : shared, scenario.spec(), dir.resolve("events.jsonl"))) {
                result = run.runToEnd();
            }
            List<Event> events = EventLogReader.read(result.eventLog());

            assertThat(scenario.expectation().mismatches(result, events))
                    .as("%s: expected %s; verdict %s, witnesses %s", name, scenario.expectation().describe(),
                            result.verdict().kind(), result.verdict().witnesses())
                    .isEmpty();
            List<StoryTracker.Reached> reached = StoryTracker.of(scenario.notes().steps(), events);
            assertThat(reached).as("%s: every story step is reached by the run (reached %s)", name, reached)
                    .hasSameSizeAs(scenario.notes().steps());
        } finally {
            if (db != null) {
                db.close();
            }
        }
    }

    private static Database shared;

    @org.junit.jupiter.api.BeforeAll
    static void shared(Database db) {
        shared = db;
    }
}
