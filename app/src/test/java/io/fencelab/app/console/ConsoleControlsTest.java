package io.fencelab.app.console;

import static io.fencelab.app.console.ConsoleFx.fx;
import static io.fencelab.app.console.ConsoleFx.fxRun;
import static io.fencelab.app.console.ConsoleFx.waitUntil;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.offset;

import io.fencelab.app.console.model.Comparison;
import io.fencelab.app.console.model.HandFault;
import io.fencelab.app.console.model.RunModel;
import io.fencelab.app.console.model.RunPhase;
import io.fencelab.engine.check.WriteClass;
import io.fencelab.engine.clock.Pacer;
import io.fencelab.engine.event.Event;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.atomic.AtomicReference;
import javafx.scene.control.Slider;
import javafx.scene.input.KeyCode;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.testfx.api.FxRobot;

class ConsoleControlsTest extends ConsoleTestBase {

    private void openPausedHolder() {
        waitForDatabase();
        fxRun(() -> console.scenarios().select("paused-holder"));
        waitUntil("the run is prepared", 30, () -> main().phase() == RunPhase.PAUSED);
    }

    @Test
    void stepShowsOneMoreMomentAndThenStaysPaused(FxRobot robot) {
        openPausedHolder();
        assertThat(fx(() -> main().eventCountProperty().get())).as("nothing happens before play or step").isZero();

        robot.type(KeyCode.RIGHT);
        waitUntil("the first step's events arrived", 10, () -> main().eventCountProperty().get() > 0);
        long afterOne = fx(() -> main().eventCountProperty().get());
        ConsoleFx.frames();
        ConsoleFx.frames();
        assertThat(fx(() -> main().eventCountProperty().get())).as("a step is one step, then the run waits")
                .isEqualTo(afterOne);
        assertThat(fx(() -> main().phase())).isEqualTo(RunPhase.PAUSED);

        for (int i = 0; i < 4; i++) {
            long before = fx(() -> main().eventCountProperty().get());
            robot.type(KeyCode.RIGHT);
            waitUntil("step " + (i + 2) + " arrived", 10, () -> main().eventCountProperty().get() > before);
        }
        Event last = fx(() -> main().events().last());
        assertThat(fx(() -> main().nowMicrosProperty().get())).as("the playhead is at the last event")
                .isEqualTo(last.atMicros());
        assertThat(labelText("#narration")).as("the narration tells what happened").isNotBlank()
                .doesNotContain("Press Play");
        screenshot("stepped");
    }

    @Test
    void speedSetsHowFastRunTimeMovesAndPauseStopsIt(FxRobot robot) throws InterruptedException {
        openPausedHolder();
        fxRun(() -> console.runs().setSpeed(10));
        robot.type(KeyCode.SPACE);
        waitUntil("the run plays", 10, () -> main().phase() == RunPhase.PLAYING);
        long start = fx(() -> main().nowMicrosProperty().get());
        long t0 = System.nanoTime();
        Thread.sleep(1_500);
        long now = fx(() -> main().nowMicrosProperty().get());
        double real = (System.nanoTime() - t0) / 1e9;
        assertThat((now - start) / 1e6).as("at 10x, %.1f s of real time is about %.0f s of run time", real, real * 10)
                .isBetween(real * 10 * 0.6, real * 10 * 1.25 + 0.5);

        robot.type(KeyCode.SPACE);
        waitUntil("the run pauses", 10, () -> main().phase() == RunPhase.PAUSED);
        long paused = fx(() -> main().nowMicrosProperty().get());
        Thread.sleep(600);
        assertThat(fx(() -> main().nowMicrosProperty().get())).as("paused, run time stands still")
                .isEqualTo(paused);

        fxRun(() -> {
            console.runs().setSpeed(100);
            console.runs().play();
        });
        waitUntil("the run ends at 100x", 20, () -> main().phase() == RunPhase.ENDED);
        assertThat(fx(() -> main().nowMicrosProperty().get())).isEqualTo(60_000_000L);
    }

    @Test
    void restartWithTheSameSeedShowsTheSameEventsAtAnySpeed() {
        waitForDatabase();
        fxRun(() -> {
            console.scenarios().select("paused-holder-unfenced");
            console.runs().setFastest(true);
            console.runs().play();
        });
        waitUntil("the first run ended", 60, () -> main().phase() == RunPhase.ENDED);
        List<String> first = fx(() -> main().events().toList().stream().map(Object::toString).toList());
        assertThat(fx(() -> main().verdict().isSafe())).as("the unfenced story is judged VIOLATED").isFalse();

        fxRun(() -> {
            console.runs().restart();
            console.runs().setFastest(false);
            console.runs().setSpeed(100);
        });
        waitUntil("the restart is prepared", 30, () -> main().phase() == RunPhase.PAUSED);
        fxRun(() -> console.runs().step());
        waitUntil("one step shown", 30, () -> main().eventCountProperty().get() > 0);
        fxRun(() -> console.runs().play());
        waitUntil("the second run ended", 60, () -> main().phase() == RunPhase.ENDED);
        List<String> second = fx(() -> main().events().toList().stream().map(Object::toString).toList());
        assertThat(second).as("same seed, same events, whatever the speed and stepping").isEqualTo(first);
    }

    @Test
    void compareShowsTheSameScenarioWithFencingOnAndOffSideBySide() {
        openPausedHolder();
        runComparedToTheEnd(Comparison.FENCING);
        waitUntil("the witness is highlighted", 30, () -> !console.model().second().timeline().highlights().isEmpty());
        ConsoleFx.frames();
        assertThat(fx(() -> console.sessions().drivers().size())).as("two runs").isEqualTo(2);
        assertThat(fx(() -> console.model().first().infoProperty().get().fencing())).isEqualTo("FENCED");
        assertThat(fx(() -> console.model().second().infoProperty().get().fencing())).isEqualTo("UNFENCED");
        assertThat(fx(() -> console.model().first().infoProperty().get().seed()))
                .isEqualTo(fx(() -> console.model().second().infoProperty().get().seed()));
        assertThat(labelText("#compare-verdict-first")).isEqualTo("SAFE");
        assertThat(labelText("#compare-verdict-second")).isEqualTo("VIOLATED");
        assertThat(fx(() -> console.scene().lookup("#timeline-first").isVisible())).isTrue();
        screenshot("compare");
    }

    @Test
    void compareShowsTheSameScenarioWithTwoLeaseTtlsOneAboveTheOther() {
        openPausedHolder();
        runComparedToTheEnd(Comparison.leaseTtl(10, 30));
        ConsoleFx.frames();

        assertThat(labelText("#compare-title-first")).startsWith("lease ttl 10 s");
        assertThat(labelText("#compare-title-second")).startsWith("lease ttl 30 s");
        assertThat(fx(() -> heldUntil(console.model().first(), "A"))).as("A's 10 s lease").isEqualTo(10_000_000L);
        assertThat(fx(() -> heldUntil(console.model().second(), "A"))).as("A's 30 s lease").isEqualTo(30_000_000L);
        assertThat(labelText("#compare-verdict-first")).isEqualTo("SAFE");
        assertThat(labelText("#compare-verdict-second")).isEqualTo("SAFE");
        screenshot("compare-ttl");
    }

    /** Compares the scenario on show under {@code comparison}, as fast as possible, until both runs are drawn. */
    private void runComparedToTheEnd(Comparison comparison) {
        fxRun(() -> {
            console.compare().setComparison(comparison);
            console.compare().setCompare(true);
            console.runs().setFastest(true);
            console.runs().play();
        });
        waitUntil("both runs ended", 60, () -> console.sessions().allOver()
                && console.model().first().phase() == RunPhase.ENDED
                && console.model().second().phase() == RunPhase.ENDED);
        waitUntil("both timelines are drawn", 30, () -> console.model().first().timeline() != null
                && console.model().second().timeline() != null);
    }

    /** When the lease service stopped counting {@code holder}'s first lease as held. */
    private static long heldUntil(RunModel run, String holder) {
        return run.timeline().holder(holder).orElseThrow().spans().stream()
                .filter(io.fencelab.report.Span.Held.class::isInstance).findFirst().orElseThrow().endMicros();
    }

    @Test
    void exportWritesTheReportFilesAndPicturesAndASavedRunReplays(@TempDir Path dir) throws IOException {
        openPausedHolder();
        fxRun(() -> {
            console.runs().setFastest(true);
            console.runs().play();
        });
        waitUntil("the run ended", 60, () -> main().phase() == RunPhase.ENDED && main().timeline() != null);

        AtomicReference<String> done = new AtomicReference<>();
        fxRun(() -> console.export().exportReport(dir.resolve("report"), done::set));
        waitUntil("the report is written", 30, () -> done.get() != null);
        assertThat(done.get()).startsWith("Report written to");
        for (String file : List.of("report.html", "events.jsonl", "metrics.csv", "summary.json")) {
            assertThat(dir.resolve("report").resolve(file)).as(file).isNotEmptyFile();
        }
        assertThat(Files.readString(dir.resolve("report/summary.json"))).contains("\"verdict\" : \"SAFE\"");
        assertThat(Files.readString(dir.resolve("report/report.html"))).contains("The paused holder");

        AtomicReference<String> png = new AtomicReference<>();
        fxRun(() -> console.view().savePng(io.fencelab.app.console.ui.Dialogs.Part.TIMELINE,
                dir.resolve("timeline.png"), png::set));
        waitUntil("the picture is saved", 30, () -> png.get() != null);
        assertThat(javax.imageio.ImageIO.read(dir.resolve("timeline.png").toFile()).getWidth()).isGreaterThan(400);

        fxRun(() -> console.scenarios().openSavedRun(dir.resolve("report/events.jsonl")));
        waitUntil("the saved run is loaded", 20, () -> main().phase() == RunPhase.PAUSED);
        fxRun(() -> console.runs().play());
        waitUntil("the replay ended", 30, () -> main().phase() == RunPhase.ENDED && main().timeline() != null
                && main().timeline().holder("A").map(l -> !l.writes().isEmpty()).orElse(false));
        assertThat(fx(() -> main().timeline().holder("A").orElseThrow().writes()))
                .anySatisfy(w -> assertThat(w.kind()).isEqualTo(WriteClass.REJECTED_STALE));
        assertThat(labelText("#verdict-label")).isEqualTo("SAFE");
        assertThat(fx(() -> main().infoProperty().get().executor())).isEqualTo("replay of simulated");
        screenshot("replay");
    }

    @Test
    void aFaultInjectedByHandReplaysTheSameHistoryThenAddsTheFault() {
        openPausedHolder();
        fxRun(() -> {
            console.runs().setSpeed(10);
            console.runs().play();
        });
        waitUntil("the run reached 32 s", 30, () -> main().nowMicrosProperty().get() >= 32_000_000);
        fxRun(() -> console.runs().pause());
        waitUntil("paused", 10, () -> main().phase() == RunPhase.PAUSED);
        ConsoleFx.frames();
        long now = fx(() -> main().nowMicrosProperty().get());
        List<String> before = fx(() -> main().events().toList().stream().filter(e -> e.atMicros() < now)
                .map(Object::toString).toList());

        fxRun(() -> {
            console.model().faultHolderProperty().set("B");
            console.faults().injectFault(HandFault.PAUSE, "B");
        });
        waitUntil("the run is back at the moment of the fault", 30,
                () -> main().phase() == RunPhase.PAUSED && main().nowMicrosProperty().get() >= now);
        ConsoleFx.frames();
        List<String> after = fx(() -> main().events().toList().stream().filter(e -> e.atMicros() < now)
                .map(Object::toString).toList());
        assertThat(after).as("everything before the fault happened exactly as before").isEqualTo(before);
        assertThat(fx(() -> console.model().handFaults())).singleElement().asString().contains("pause now on B");
        assertThat(fx(() -> ((javafx.scene.control.ComboBox<?>) console.scene().lookup("#fault-holder")).getValue()))
                .as("the holder picker still shows the chosen holder after the run restarted").isEqualTo("B");

        fxRun(() -> {
            console.runs().setFastest(true);
            console.runs().play();
        });
        waitUntil("the run ended", 30, () -> main().phase() == RunPhase.ENDED);
        assertThat(fx(() -> main().events().toList())).as("B was paused by hand")
                .anySatisfy(e -> assertThat(e).isInstanceOfSatisfying(Event.PauseStarted.class,
                        p -> assertThat(p.holder()).isEqualTo("B")));
        screenshot("hand-fault");
    }

    @Test
    void theSpeedSliderSpansExactlyThePacersSpeeds() {
        Slider slider = fx(() -> (Slider) console.scene().lookup("#speed"));
        assertThat(fx(() -> Math.pow(10, slider.getMin()))).as("the slowest the slider offers")
                .isCloseTo(Pacer.MIN_SPEED, offset(1e-12));
        assertThat(fx(() -> Math.pow(10, slider.getMax()))).as("the fastest the slider offers")
                .isCloseTo(Pacer.MAX_SPEED, offset(1e-9));
        assertThat(fx(() -> slider.getTooltip().getText())).as("the tooltip names the same limits")
                .isEqualTo("Run seconds per real second, from 0.01x to 100x");

        fxRun(() -> slider.setValue(slider.getMax()));
        assertThat(fx(() -> console.model().speedProperty().get())).as("the slider's end is a speed the pacer allows")
                .matches(Pacer::isAllowed).isCloseTo(Pacer.MAX_SPEED, offset(1e-9));
        fxRun(() -> slider.setValue(slider.getMin()));
        assertThat(fx(() -> console.model().speedProperty().get())).matches(Pacer::isAllowed)
                .isCloseTo(Pacer.MIN_SPEED, offset(1e-12));
    }
}
