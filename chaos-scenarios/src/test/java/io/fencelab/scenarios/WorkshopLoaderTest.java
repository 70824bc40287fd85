package io.fencelab.scenarios;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class WorkshopLoaderTest {

    @Test
    void theShippedWorkshopListsItsLessonsInOrderInAboutFortyFiveMinutes() {
        Workshop w = WorkshopLoader.shipped();

        assertThat(w.lessons()).extracting(Workshop.Lesson::source).startsWith("paused-holder",
                "paused-holder-unfenced");
        assertThat(w.lessons()).filteredOn(l -> l.kind() == Workshop.Kind.SWEEP).isNotEmpty();
        assertThat(w.minutes()).isBetween(40, 50);
    }

    @Test
    void anUnknownLessonIsNamedAtItsLineWithTheCatalog(@TempDir Path dir) throws Exception {
        Path file = Files.writeString(dir.resolve("w.yaml"), """
                title: W
                lessons:
                  - scenario: paused-holder
                  - scenario: paused-holdr
                """);

        ScenarioException e = catchThrowableOfType(ScenarioException.class, () -> WorkshopLoader.load(file));

        assertThat(e).isNotNull();
        assertThat(e.getMessage()).contains("w.yaml:4:", "lessons[1].scenario", "paused-holdr",
                "no such file, and no catalog scenario of that name", "paused-holder");
    }

    @Test
    void aLessonFileBesideTheWorkshopIsUsedAndItsProblemsAreShownWithItsOwnLines(@TempDir Path dir) throws Exception {
        Files.writeString(dir.resolve("mine.yaml"), ScenarioValidationTest.MINIMAL.replace("ttl: 30s", "ttl: 30"));
        Path file = Files.writeString(dir.resolve("w.yaml"), """
                title: W
                lessons:
                  - {scenario: mine.yaml, minutes: 5}
                """);

        ScenarioException e = catchThrowableOfType(ScenarioException.class, () -> WorkshopLoader.load(file));

        assertThat(e.getMessage()).contains("w.yaml:3:", "lessons[0].scenario", "mine.yaml:6:", "lease.ttl");
    }

    @Test
    void aSweepLessonNeedsAScenarioThatSuggestsASweep(@TempDir Path dir) throws Exception {
        Path file = Files.writeString(dir.resolve("w.yaml"), """
                title: W
                lessons:
                  - scenario: paused-holder
                    kind: sweep
                """);

        ScenarioException e = catchThrowableOfType(ScenarioException.class, () -> WorkshopLoader.load(file));

        assertThat(e.getMessage()).contains("w.yaml:4:", "lessons[0].kind", "suggests");
    }

    @Test
    void aStepTheRunNeverReachesIsReportedAtItsLine() {
        Scenario s = ScenarioLoader.load("t.yaml", ScenarioValidationTest.MINIMAL.replace("story: [one]\n", """
                story:
                  - text: A acquires
                    on: {type: LeaseAcquired, holder: A}
                  - text: C acquires
                    on: {type: LeaseAcquired, holder: C}
                """));
        java.util.List<io.fencelab.engine.event.Event> log = java.util.List.of(
                new io.fencelab.engine.event.Event.LeaseAcquired(1, 0, "A", "report", 1, 1, 30_000_000));

        assertThat(StoryCheck.unreached(s, "t.yaml", log)).singleElement().satisfies(p -> assertThat(p.toString())
                .startsWith("t.yaml:6:").contains("story[1]", "step 2 is never reached",
                        "no LeaseAcquired holder=C event after step 1"));
    }
}
