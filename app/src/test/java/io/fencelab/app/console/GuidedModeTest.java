package io.fencelab.app.console;

import static io.fencelab.app.console.ConsoleFx.fx;
import static io.fencelab.app.console.ConsoleFx.fxRun;
import static io.fencelab.app.console.ConsoleFx.waitUntil;
import static org.assertj.core.api.Assertions.assertThat;

import io.fencelab.app.console.model.HandFault;
import io.fencelab.app.console.model.LessonModel;
import io.fencelab.app.console.model.LessonModel.QuestionState;
import io.fencelab.app.console.model.RunPhase;
import io.fencelab.engine.event.Event;
import io.fencelab.scenarios.StoryTracker;
import java.util.List;
import javafx.scene.Node;
import javafx.scene.control.ScrollPane;
import javafx.scene.input.KeyCode;
import org.junit.jupiter.api.Test;
import org.testfx.api.FxRobot;

/**
 * Guided mode on the paused-holder story: the run stops exactly at each step's event (nothing after
 * it shown), questions are asked there and revealed by Continue, Back and a click on a step move the
 * run, and faults by hand still apply from a stop.
 */
class GuidedModeTest extends ConsoleTestBase {

    /** The event each step of the paused-holder story is tied to, in order. */
    private static final List<Class<? extends Event>> STEP_EVENTS = List.of(Event.LeaseAcquired.class,
            Event.PauseStarted.class, Event.LeaseExpired.class, Event.LeaseAcquired.class, Event.WriteAccepted.class,
            Event.WriteAttempted.class, Event.WriteRejectedStale.class);

    private LessonModel lesson() {
        return console.model().lesson();
    }

    private void openGuided() {
        waitForDatabase();
        fxRun(() -> {
            console.scenarios().select("paused-holder");
            console.lesson().setGuided(true);
            console.runs().setFastest(true);
        });
        waitUntil("the run is prepared", 30, () -> main().phase() == RunPhase.PAUSED);
        assertThat(fx(() -> lesson().steps())).hasSize(STEP_EVENTS.size());
    }

    /** Waits until the run is paused at step {@code step} (0-based) and checks that it stays there, exactly. */
    private void assertStoppedAt(int step) {
        waitUntil("the run stopped at step " + (step + 1), 30, () -> lesson().currentStep() == step
                && main().phase() == RunPhase.PAUSED);
        ConsoleFx.frames();
        ConsoleFx.frames();
        StoryTracker.Reached reached = fx(() -> lesson().reached().get(step));
        Event last = fx(() -> main().events().last());
        assertThat(fx(() -> lesson().currentStep())).as("the run waits at step %d", step + 1).isEqualTo(step);
        assertThat(last.seq()).as("the events shown end at step %d's event", step + 1).isEqualTo(reached.throughSeq());
        assertThat(last).as("step %d is tied to this event", step + 1).isInstanceOf(STEP_EVENTS.get(step));
        assertThat(fx(() -> main().nowMicrosProperty().get())).as("the playhead is at the step")
                .isEqualTo(last.atMicros());
    }

    /** Story step {@code number}'s row (1-based), scrolled into view as a user would. */
    private Node stepRow(int number) {
        Node row = fx(() -> console.view().lookup("#story-step-" + number));
        fxRun(() -> {
            Node n = row;
            while (!(n instanceof ScrollPane)) {
                n = n.getParent();
            }
            ScrollPane pane = (ScrollPane) n;
            double content = pane.getContent().getBoundsInLocal().getHeight();
            double viewport = pane.getViewportBounds().getHeight();
            double y = row.localToScene(0, 0).getY() - pane.getContent().localToScene(0, 0).getY();
            pane.setVvalue(content <= viewport ? 0 : Math.max(0, Math.min(1, (y - viewport / 3) / (content - viewport))));
        });
        ConsoleFx.frames();
        return row;
    }

    @Test
    void guidedModeStopsAtEveryStepAndAsksBeforeTheAnswerIsShown(FxRobot robot) {
        openGuided();
        robot.type(KeyCode.PAGE_DOWN);
        assertStoppedAt(0);
        assertThat(fx(() -> lesson().questionProperty().get())).isEqualTo(QuestionState.NONE);

        robot.type(KeyCode.SPACE);
        assertStoppedAt(1);
        assertThat(fx(() -> lesson().questionProperty().get())).as("step 2 asks the room")
                .isEqualTo(QuestionState.ASKING);

        robot.type(KeyCode.PAGE_DOWN);
        waitUntil("the answer is revealed", 10, () -> lesson().questionProperty().get() == QuestionState.REVEALED);
        assertStoppedAt(2);
        assertThat(fx(() -> lesson().questionProperty().get())).as("the answer stays on screen at the next step")
                .isEqualTo(QuestionState.REVEALED);
        robot.type(KeyCode.PAGE_DOWN);
        waitUntil("the answer is cleared", 10, () -> lesson().questionProperty().get() == QuestionState.NONE);
        assertThat(fx(() -> lesson().currentStep())).as("clearing the answer does not move the run").isEqualTo(2);

        for (int step = 3; step <= 5; step++) {
            robot.type(KeyCode.PAGE_DOWN);
            assertStoppedAt(step);
        }
        assertThat(fx(() -> lesson().questionProperty().get())).isEqualTo(QuestionState.ASKING);
        assertThat(fx(() -> main().events().toList())).as("A's write is not answered while the room predicts")
                .noneMatch(e -> e instanceof Event.WriteRejectedStale);
        robot.type(KeyCode.DIGIT2);
        waitUntil("the room's pick is marked", 10, () -> lesson().pickProperty().get() == 1);
        assertThat(fx(() -> console.view().lookup("#question").isVisible())).isTrue();
        screenshot("workshop-question");

        robot.type(KeyCode.PAGE_DOWN);
        assertStoppedAt(6);
        assertThat(fx(() -> lesson().questionProperty().get())).isEqualTo(QuestionState.REVEALED);
        assertThat(labelText("#question-why")).contains("newest token");
        screenshot("workshop-reveal");

        robot.type(KeyCode.PAGE_DOWN);
        robot.type(KeyCode.PAGE_DOWN);
        waitUntil("the run played to its end", 30, () -> main().phase() == RunPhase.ENDED);
        assertThat(fx(() -> lesson().reached())).hasSize(STEP_EVENTS.size());
    }

    @Test
    void backReturnsToThePreviousStepAndContinueGoesOnFromThere(FxRobot robot) {
        openGuided();
        for (int step = 0; step <= 3; step++) {
            fxRun(() -> console.lesson().clearQuestion());
            robot.type(KeyCode.PAGE_DOWN);
            assertStoppedAt(step);
        }
        robot.type(KeyCode.PAGE_UP);
        assertStoppedAt(2);
        assertThat(fx(() -> main().events().toList())).as("the run was replayed to step 3, no further")
                .noneMatch(e -> e instanceof Event.LeaseAcquired a && a.holder().equals("B"));
        robot.type(KeyCode.PAGE_UP);
        assertStoppedAt(1);
        assertThat(fx(() -> lesson().questionProperty().get())).as("back at a question, the room is asked again")
                .isEqualTo(QuestionState.ASKING);
        robot.type(KeyCode.PAGE_DOWN);
        assertStoppedAt(2);
        robot.type(KeyCode.PAGE_DOWN);
        robot.type(KeyCode.PAGE_DOWN);
        assertStoppedAt(3);
    }

    @Test
    void clickingAStepMovesTheRunThereForwardAndBack(FxRobot robot) {
        waitForDatabase();
        fxRun(() -> console.scenarios().select("paused-holder"));
        waitUntil("the run is prepared", 30, () -> main().phase() == RunPhase.PAUSED);
        Node fifth = stepRow(5);
        robot.clickOn(fifth);
        assertStoppedAt(4);
        screenshot("workshop-story");
        Node second = stepRow(2);
        robot.clickOn(second);
        assertStoppedAt(1);
        assertThat(fx(() -> lesson().questionProperty().get())).as("outside guided mode no question is asked")
                .isEqualTo(QuestionState.NONE);
        Node seventh = stepRow(7);
        robot.clickOn(seventh);
        assertStoppedAt(6);
        assertThat(fx(() -> seventh.getStyleClass())).contains("current");
        assertThat(fx(() -> fifth.getStyleClass())).contains("reached");
    }

    @Test
    void aFaultByHandAppliesFromAStop(FxRobot robot) {
        openGuided();
        for (int step = 0; step <= 3; step++) {
            fxRun(() -> console.lesson().clearQuestion());
            robot.type(KeyCode.PAGE_DOWN);
            assertStoppedAt(step);
        }
        fxRun(() -> console.model().faultHolderProperty().set("B"));
        robot.type(KeyCode.P);
        waitUntil("the run is back at the stop with the fault", 30, () -> main().phase() == RunPhase.PAUSED
                && console.model().handFaults().size() == 1 && lesson().currentStep() == 3);
        assertThat(fx(() -> console.model().handFaults())).singleElement().asString().contains("pause now on B");
        robot.type(KeyCode.PAGE_DOWN);
        waitUntil("B's pause is shown", 30, () -> main().events().toList().stream()
                .anyMatch(e -> e instanceof Event.PauseStarted p && p.holder().equals("B")));
    }

    @Test
    void theHelpOverlayListsEveryShortcutOfTheKeyMap(FxRobot robot) {
        waitForDatabase();
        fxRun(() -> console.scenarios().select("paused-holder"));
        robot.write('?');
        waitUntil("the help shows", 10, () -> console.view().lookup("#help").isVisible());
        List<String> shown = fx(() -> ((javafx.scene.layout.GridPane) console.view().lookup("#help-table"))
                .getChildren().stream().filter(n -> javafx.scene.layout.GridPane
                .getColumnIndex(n) == 0).map(n -> ((javafx.scene.control.Label) n).getText()).toList());
        assertThat(shown).as("one row per shortcut, in the key map's order")
                .isEqualTo(io.fencelab.app.console.ui.KeyMap.shortcuts().stream()
                        .map(io.fencelab.app.console.ui.KeyMap.Shortcut::keys).toList());
        assertThat(shown).contains("F5", "G", "Page Up", "Space / Page Down", HandFault.PAUSE.key);
        screenshot("workshop-help");
        robot.type(KeyCode.ESCAPE);
        waitUntil("the help is closed", 10, () -> !console.view().lookup("#help").isVisible());
        robot.type(KeyCode.G);
        waitUntil("G turns guided mode on", 10, () -> lesson().guidedProperty().get());
        assertThat(fx(() -> ((javafx.scene.control.ToggleButton) console.view().lookup("#guided")).isSelected()))
                .as("the Guided button follows").isTrue();
        robot.type(KeyCode.F5);
        waitUntil("F5 asks for the presenter view", 10, () -> lesson().presenterProperty().get());
        robot.type(KeyCode.F5);
        waitUntil("F5 again returns to the console", 10, () -> !lesson().presenterProperty().get());
    }
}
