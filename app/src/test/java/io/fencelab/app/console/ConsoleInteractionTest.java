package io.fencelab.app.console;

import static io.fencelab.app.console.ConsoleFx.fx;
import static io.fencelab.app.console.ConsoleFx.fxRun;
import static io.fencelab.app.console.ConsoleFx.waitUntil;
import static org.assertj.core.api.Assertions.assertThat;

import io.fencelab.app.console.model.RunPhase;
import io.fencelab.app.console.timeline.TimelineView;
import io.fencelab.engine.check.WriteClass;
import io.fencelab.engine.event.Event;
import io.fencelab.engine.fence.FencingMode;
import io.fencelab.report.Mark;
import javafx.geometry.Point2D;
import javafx.geometry.VerticalDirection;
import javafx.scene.control.Button;
import javafx.scene.control.TabPane;
import javafx.scene.control.TableView;
import javafx.scene.control.TextArea;
import javafx.scene.input.KeyCode;
import javafx.scene.input.MouseButton;
import org.controlsfx.control.CheckComboBox;
import org.controlsfx.control.PropertySheet;
import org.junit.jupiter.api.Test;
import org.testfx.api.FxRobot;

/** Pointer and keyboard on the console: hover, pin, zoom, pan, table filters, the parameter sheet. */
class ConsoleInteractionTest extends ConsoleTestBase {

    private Mark.Write runPausedHolderToTheEnd() {
        waitForDatabase();
        fxRun(() -> {
            console.scenarios().select("paused-holder");
            console.runs().setFastest(true);
            console.runs().play();
        });
        waitUntil("the run ended with its timeline", 60, () -> main().phase() == RunPhase.ENDED
                && main().timeline() != null
                && main().timeline().holder("A").map(lane -> !lane.writes().isEmpty()).orElse(false));
        ConsoleFx.frames();
        return fx(() -> main().timeline().holder("A").orElseThrow().writes().getFirst());
    }

    @Test
    void aMovingPlayheadMovesItsLayerAndRedrawsTheCanvasOnlyAFewTimesASecond() {
        waitForDatabase();
        fxRun(() -> {
            console.scenarios().select("paused-holder");
            console.runs().setSpeed(20);
            console.runs().play();
        });
        waitUntil("the run passed 20 s", 30, () -> main().nowMicrosProperty().get() >= 20_000_000);
        fxRun(() -> console.runs().pause());
        waitUntil("paused", 10, () -> main().phase() == RunPhase.PAUSED);
        ConsoleFx.frames();
        TimelineView timeline = fx(() -> console.view().timeline());
        long redraws = fx(timeline::redraws);
        long start = fx(() -> main().nowMicrosProperty().get());
        long t0 = System.nanoTime();
        for (int s = 1; s <= 5; s++) {
            long now = start + s * 1_000_000L;
            fxRun(() -> main().nowMicrosProperty().set(now));
            ConsoleFx.frames();
            double x = fx(() -> xOf(timeline, now));
            assertThat(fx(timeline::tintStart)).as("the tint of what is to come starts at most a step behind "
                    + "the playhead at %d s", now / 1_000_000).isBetween(x - 6, x);
        }
        // A is frozen at 20 s, so its lanes run on to the playhead: the canvas is redrawn for that, but
        // only a few times a second, however often the playhead moves.
        long allowed = (System.nanoTime() - t0) / TimelineView.STREAM_REDRAW_GAP_NANOS + 1;
        assertThat(fx(timeline::redraws) - redraws).as("moving the playhead redraws the timeline canvas at most "
                + "every %d ms (to grow the lanes still open)", TimelineView.STREAM_REDRAW_GAP_NANOS / 1_000_000)
                .isLessThanOrEqualTo(allowed);
        fxRun(() -> console.navigation().zoom(0.5, start));
        ConsoleFx.frames();
        assertThat(fx(timeline::redraws)).as("zooming redraws it at once").isGreaterThan(redraws);
    }

    /** Where run time {@code micros} is on the timeline's canvas. */
    private double xOf(TimelineView timeline, long micros) {
        var w = console.model().window();
        // The renderer's gutter (132 px) and right padding (14 px).
        double plotW = timeline.canvas().getWidth() - 132 - 14;
        return 132 + (micros - w.start()) / w.span() * plotW;
    }

    @Test
    void hoveringAMarkTellsWhatItIsAndClickingPinsIt(FxRobot robot) {
        Mark.Write stale = runPausedHolderToTheEnd();
        assertThat(stale.kind()).isEqualTo(WriteClass.REJECTED_STALE);
        TimelineView timeline = fx(() -> console.view().timeline());
        Point2D at = fx(() -> timeline.canvas().localToScreen(timeline.canvasPointOf(stale.seq())));

        robot.moveTo(at);
        waitUntil("the tooltip shows", 10, () -> !timeline.tooltipText().isEmpty());
        assertThat(fx(timeline::tooltipText)).contains("write rejected as stale").contains("token 41")
                .contains("45.000 s");
        screenshot("hover");

        robot.clickOn(MouseButton.PRIMARY);
        waitUntil("the event is pinned", 10, () -> main().pinnedSeqProperty().get() == stale.seq());
        assertThat(fx(() -> ((TextArea) console.scene().lookup("#pinned-event")).getText()))
                .contains("\"type\" : \"WriteRejectedStale\"").contains("\"highest\" : \"42\"");
    }

    @Test
    void ctrlWheelZoomsAroundThePointerAndDraggingPans(FxRobot robot) {
        runPausedHolderToTheEnd();
        TimelineView timeline = fx(() -> console.view().timeline());
        double span = fx(() -> console.model().window().span());
        Point2D middle = fx(() -> timeline.canvas().localToScreen(timeline.canvas().getWidth() * 0.6,
                timeline.canvas().getHeight() * 0.5));
        // Monocle's robot reports a wheel turned DOWN as a positive delta, which real mice give for UP.
        robot.moveTo(middle).press(KeyCode.CONTROL).scroll(3, VerticalDirection.DOWN).release(KeyCode.CONTROL);
        waitUntil("zoomed in", 10, () -> console.model().window().span() < span * 0.9);
        double zoomed = fx(() -> console.model().window().span());
        double start = fx(() -> console.model().window().start());

        robot.drag(middle, MouseButton.PRIMARY).moveBy(-200, 0).release(MouseButton.PRIMARY);
        waitUntil("panned later in time", 10, () -> console.model().window().start() > start);
        assertThat(fx(() -> console.model().window().span())).as("panning keeps the zoom").isEqualTo(zoomed);
        assertThat(fx(() -> console.model().window().followProperty().get())).isFalse();

        robot.type(KeyCode.HOME);
        waitUntil("the whole run is shown again", 10, () -> console.model().window().span() >= span * 0.99);
    }

    @Test
    void theEventTableFiltersByHolderAndTypeAndARowPinsItsEvent(FxRobot robot) {
        Mark.Write stale = runPausedHolderToTheEnd();
        fxRun(() -> ((TabPane) console.scene().lookup("#below")).getSelectionModel().select(1));
        @SuppressWarnings("unchecked")
        TableView<Event> table = (TableView<Event>) fx(() -> console.scene().lookup("#event-table"));
        waitUntil("the table lists every event", 10, () -> table.getItems().size() == main().events().size());
        waitUntil("the filters know the holders", 10, () -> holders().getItems().size() == 2);

        fxRun(() -> holders().getCheckModel().check("A"));
        assertThat(fx(() -> table.getItems().stream().allMatch(e -> "A".equals(e.holder())))).isTrue();
        fxRun(() -> types().getCheckModel().check("WriteRejectedStale"));
        assertThat(fx(() -> table.getItems().stream().map(Event::seq).toList())).containsExactly(stale.seq());

        fxRun(() -> table.getSelectionModel().select(0));
        waitUntil("the row's event is pinned", 10, () -> main().pinnedSeqProperty().get() == stale.seq());
        screenshot("event-table");
    }

    @Test
    void switchingBetweenTheChartsAndTheTableLaysOutWithoutAnError() {
        runPausedHolderToTheEnd();
        java.util.List<Throwable> thrown = new java.util.concurrent.CopyOnWriteArrayList<>();
        Thread.UncaughtExceptionHandler previous = fx(() -> Thread.currentThread().getUncaughtExceptionHandler());
        fxRun(() -> Thread.currentThread().setUncaughtExceptionHandler((t, e) -> thrown.add(e)));
        try {
            TabPane below = fx(() -> (TabPane) console.scene().lookup("#below"));
            for (int tab : new int[] {1, 0, 1, 0}) {
                fxRun(() -> below.getSelectionModel().select(tab));
                ConsoleFx.frames();
            }
        } finally {
            fxRun(() -> Thread.currentThread().setUncaughtExceptionHandler(previous));
        }
        assertThat(thrown).as("the hidden table's layout after the tab switches").isEmpty();
    }

    @Test
    void theParameterSheetRunsTheScenarioAgainWithTheChange(FxRobot robot) {
        runPausedHolderToTheEnd();
        String seed = fx(() -> main().infoProperty().get().seed());
        PropertySheet sheet = fx(() -> (PropertySheet) console.scene().lookup("#parameter-sheet"));
        fxRun(() -> sheet.getItems().stream().filter(i -> i.getName().equals("fencing mode")).findFirst()
                .orElseThrow().setValue(FencingMode.UNFENCED));
        fxRun(() -> ((Button) console.scene().lookup("#apply-parameters")).fire());
        waitUntil("a new run with fencing off is prepared", 30,
                () -> "UNFENCED".equals(main().infoProperty().get().fencing()) && main().phase() == RunPhase.PAUSED);
        assertThat(fx(() -> main().infoProperty().get().seed())).as("same seed").isEqualTo(seed);
        fxRun(() -> console.runs().play());
        waitUntil("it ended violated", 60, () -> main().phase() == RunPhase.ENDED && !main().verdict().isSafe());
    }

    @SuppressWarnings("unchecked")
    private CheckComboBox<String> holders() {
        return (CheckComboBox<String>) fx(() -> console.scene().lookup("#filter-holders"));
    }

    @SuppressWarnings("unchecked")
    private CheckComboBox<String> types() {
        return (CheckComboBox<String>) fx(() -> console.scene().lookup("#filter-types"));
    }
}
