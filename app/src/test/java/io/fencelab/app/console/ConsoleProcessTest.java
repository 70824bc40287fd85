package io.fencelab.app.console;

import static io.fencelab.app.console.ConsoleFx.fx;
import static io.fencelab.app.console.ConsoleFx.fxRun;
import static io.fencelab.app.console.ConsoleFx.waitUntil;
import static org.assertj.core.api.Assertions.assertThat;

import io.fencelab.app.console.model.HandFault;
import io.fencelab.app.console.model.RunPhase;
import io.fencelab.engine.event.Event;
import io.fencelab.report.HolderLane;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A process run in the console plays like a live one: each holder is its own JVM, a pause by hand
 * freezes A's process (SIGSTOP, confirmed), the verdict is judged, and each lane names its host and pid.
 */
class ConsoleProcessTest extends ConsoleTestBase {

    /** ConsoleLiveTest's story, with every worker a process: A paused by hand at 2 s, B writes meanwhile. */
    private static final String STORY = """
            title: The paused holder as processes, paused by hand
            summary: A and B are JVMs of their own; whoever runs it freezes A by hand.
            story:
              - A takes the lease with token 41 and is frozen by hand before it writes.
            executor: process
            seed: 1
            duration: 60s
            timeScale: 0.15
            lease:
              ttl: 30s
              renewEvery: 0s
            fencing: FENCED
            scopes:
              report: 41
            workers:
              - name: A
                scope: report
                workTime: 28s
                idleTime: 5s
                jobs: 1
                writes:
                  - key: report-1
              - name: B
                scope: report
                startAt: 31s
                workTime: 4s
                idleTime: 5s
                jobs: 1
                writes:
                  - key: report-1
            expect:
              verdict: SAFE
            """;

    @TempDir
    Path dir;

    @Test
    void aFreezeByHandStopsAProcessAndEachLaneNamesItsProcess() throws IOException {
        Path file = Files.writeString(dir.resolve("processes.yaml"), STORY);
        waitForDatabase();
        fxRun(() -> console.scenarios().openScenarioFile(file));
        waitUntil("the process run is prepared", 60, () -> main().phase() == RunPhase.PAUSED);
        fxRun(() -> console.runs().play());
        waitUntil("the process run reached 2 s", 120,
                () -> main().phase() == RunPhase.PLAYING && main().nowMicrosProperty().get() >= 2_000_000);
        fxRun(() -> {
            console.model().faultSecondsProperty().set(40);
            console.faults().injectFault(HandFault.PAUSE, "A");
        });
        waitUntil("the run is over", 120, () -> main().phase() == RunPhase.ENDED);
        ConsoleFx.frames();

        List<Event> events = fx(() -> List.copyOf(main().events().toList()));
        assertThat(events).filteredOn(Event.AgentReport.class::isInstance).map(Event.AgentReport.class::cast)
                .filteredOn(r -> r.kind() == Event.AgentReport.Kind.STARTED).extracting(Event.AgentReport::holder)
                .containsExactlyInAnyOrder("A", "B");
        assertThat(events).filteredOn(Event.PauseStarted.class::isInstance).map(Event.PauseStarted.class::cast)
                .singleElement().satisfies(p -> assertThat(p.cause()).as("a real freeze, confirmed")
                        .contains("SIGSTOP to process").contains("(state T)"));
        assertThat(fx(() -> main().verdictProperty().get().isSafe())).as("the fence holds").isTrue();
        List<HolderLane> lanes = fx(() -> main().timeline().holders());
        assertThat(lanes).extracting(HolderLane::holder).containsExactlyInAnyOrder("A", "B");
        assertThat(lanes).allSatisfy(l -> {
            assertThat(l.agent()).as(l.holder() + "'s process").isNotNull();
            assertThat(l.agent().host()).isEqualTo("local");
            assertThat(l.agent().pid()).isPositive();
        });
        assertThat(lanes.get(0).agent().pid()).isNotEqualTo(lanes.get(1).agent().pid());
        screenshot("process-pause-by-hand");
    }
}
