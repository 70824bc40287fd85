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
            List<StoryStep> steps = scenario.notes().steps();
            List<StoryTracker.Reached> reached = StoryTracker.of(steps, events);
            assertThat(reached).as("%s: every story step is reached by the run (reached %s)", name, reached)
                    .hasSameSizeAs(steps);
            for (int i = 0; i < steps.size(); i++) {
                if (steps.get(i).asks()) {
                    long askedAt = reached.get(i).throughSeq();
                    assertThat(reached.subList(i + 1, reached.size()))
                            .as("%s: step %d asks \"%s\", so a later step must show its answer after seq %d",
                                    name, i + 1, steps.get(i).question().ask(), askedAt)
                            .anySatisfy(r -> assertThat(r.throughSeq()).isGreaterThan(askedAt));
                }
            }
        } finally {
            if (db != null) {
                db.close();
            }
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("catalog")
    void everyStepIsTiedToTheMomentItTells(String name) {
        List<StoryStep> steps = Catalog.shipped().load(name).notes().steps();
        for (int i = 0; i < steps.size(); i++) {
            assertThat(steps.get(i).cue())
                    .as("%s: story step %d (\"%s\", line %d) needs `on:` an event or `at:` a run time",
                            name, i + 1, Texts.abbreviate(steps.get(i).text()), steps.get(i).line())
                    .isNotEqualTo(Cue.WITH_PREVIOUS);
        }
    }

    @Test
    void everyStoryLessonOfTheShippedWorkshopAsksTheRoomSomething() {
        for (Workshop.Lesson lesson : WorkshopLoader.shipped().lessons()) {
            if (lesson.kind() == Workshop.Kind.STORY) {
                assertThat(lesson.scenario().notes().steps())
                        .as("workshop lesson %s (line %d) needs at least one step with a question (`ask:`)",
                                lesson.source(), lesson.line())
                        .anyMatch(StoryStep::asks);
            }
        }
    }

    private static Database shared;

    @org.junit.jupiter.api.BeforeAll
    static void shared(Database db) {
        shared = db;
    }
}
