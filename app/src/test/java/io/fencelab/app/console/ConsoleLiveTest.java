package io.fencelab.app.console;

import static io.fencelab.app.console.ConsoleFx.fx;
import static io.fencelab.app.console.ConsoleFx.fxRun;
import static io.fencelab.app.console.ConsoleFx.waitUntil;
import static org.assertj.core.api.Assertions.assertThat;

import io.fencelab.app.console.model.HandFault;
import io.fencelab.app.console.model.Parameters;
import io.fencelab.app.console.model.RunPhase;
import io.fencelab.engine.check.WriteClass;
import io.fencelab.engine.event.Event;
import io.fencelab.engine.fence.FencingMode;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A live run in the console takes faults by hand and parameter changes while it runs: they apply
 * from that moment, in the same run, and the timeline marks each change.
 */
class ConsoleLiveTest extends ConsoleTestBase {

    /**
     * The paused-holder story without its scripted pause, live, about 7 times faster: 60 run seconds
     * in 9 s. A works for 28 s before it writes, so a pause by hand at 2 s lands before the write
     * even when the FX thread of a loaded machine answers seconds late.
     */
    private static final String STORY_WITHOUT_PAUSE = """
            title: The paused holder, paused by hand
            summary: The paused-holder story without its scripted pause; whoever runs it pauses A by hand.
            story:
              - A takes the lease with token 41 and is paused by hand before it writes.
            executor: live
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

    private void openStory() throws IOException {
        Path file = dir.resolve("paused-by-hand.yaml");
        Files.writeString(file, STORY_WITHOUT_PAUSE);
        waitForDatabase();
        fxRun(() -> console.scenarios().openScenarioFile(file));
        waitUntil("the live run is prepared", 30, () -> main().phase() == RunPhase.PAUSED);
        assertThat(fx(() -> console.model().capabilitiesProperty().get().liveChanges())).isTrue();
    }

    private void playAndWaitForRunTime(long micros) {
        fxRun(() -> console.runs().play());
        waitUntil("the live run reached " + micros / 1_000_000.0 + " s", 30,
                () -> main().phase() == RunPhase.PLAYING && main().nowMicrosProperty().get() >= micros);
    }

    /** At 2 s of run time, pauses A by hand for 40 s (past its lease and B's write), then waits for the end. */
    private void pauseAByHandAtTwoSecondsAndWaitForTheEnd() {
        playAndWaitForRunTime(2_000_000);
        fxRun(() -> {
            console.model().faultSecondsProperty().set(40);
            console.faults().injectFault(HandFault.PAUSE, "A");
        });
        waitUntil("the run is over", 30, () -> main().phase() == RunPhase.ENDED);
        ConsoleFx.frames();
    }

    private List<Event> events() {
        return fx(() -> List.copyOf(main().events().toList()));
    }

    @Test
    void aPauseByHandInTheRunningLiveRunIsRefusedByTheFence() throws IOException {
        openStory();
        pauseAByHandAtTwoSecondsAndWaitForTheEnd();

        List<Event> events = events();
        assertThat(events).filteredOn(Event.PauseStarted.class::isInstance).map(Event.PauseStarted.class::cast)
                .singleElement().satisfies(p -> {
                    assertThat(p.holder()).isEqualTo("A");
                    assertThat(p.cause()).isEqualTo("pause by hand");
                    assertThat(p.atMicros()).as("the pause starts when asked, not at a replayed time")
                            .isGreaterThanOrEqualTo(2_000_000);
                });
        assertThat(events).filteredOn(Event.WriteRejectedStale.class::isInstance)
                .map(Event.WriteRejectedStale.class::cast).singleElement()
                .satisfies(r -> assertThat(r.token()).isEqualTo(41));
        assertThat(fx(() -> main().verdictProperty().get().isSafe())).isTrue();
        assertThat(fx(() -> List.copyOf(console.model().handFaults()))).singleElement()
                .satisfies(line -> assertThat(line).contains("pause now on A").endsWith("(live)"));
        assertThat(fx(() -> main().timeline().holder("A").orElseThrow().marks()))
                .anyMatch(m -> m instanceof io.fencelab.report.Mark.Write w && w.kind() == WriteClass.REJECTED_STALE);
        screenshot("live-pause-by-hand");
    }

    @Test
    void aParameterChangeAppliesToTheRunningLiveRunAndIsMarkedOnTheTimeline() throws IOException {
        openStory();
        playAndWaitForRunTime(1_000_000);

        fxRun(() -> {
            Parameters p = console.model().parametersProperty().get();
            console.runs().applyParameters(new Parameters(p.leaseTtlSeconds(), p.renewEverySeconds(),
                    p.workers(), p.pauses(), p.pauseSeconds(), p.networkDelayMillis(), FencingMode.UNFENCED,
                    p.tokenScheme(), p.executor()));
        });
        waitUntil("the change is on the timeline", 10, () -> !main().timeline().changes().isEmpty());
        List<Event> sofar = events();
        assertThat(sofar).as("the same run goes on: no restart").filteredOn(Event.RunStarted.class::isInstance)
                .hasSize(1);
        assertThat(sofar).filteredOn(e -> e instanceof Event.LeaseAcquired a && a.holder().equals("A"))
                .singleElement().satisfies(a -> assertThat(a.seq()).isLessThan(
                        sofar.stream().filter(Event.SettingChanged.class::isInstance).findFirst().orElseThrow().seq()));
        pauseAByHandAtTwoSecondsAndWaitForTheEnd();

        assertThat(fx(() -> main().timeline().changes())).singleElement()
                .satisfies(c -> assertThat(c.text()).isEqualTo("fencing FENCED \u2192 UNFENCED"));
        assertThat(fx(() -> main().verdictProperty().get().isSafe()))
                .as("with fencing turned off mid-run, A's stale write overwrites B's").isFalse();
        assertThat(fx(() -> console.model().messageProperty().get())).contains("running live run");
        screenshot("live-change");
    }
}
