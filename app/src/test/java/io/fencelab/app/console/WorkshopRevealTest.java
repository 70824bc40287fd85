package io.fencelab.app.console;

import static io.fencelab.app.console.ConsoleFx.fx;
import static io.fencelab.app.console.ConsoleFx.fxRun;
import static io.fencelab.app.console.ConsoleFx.waitUntil;
import static org.assertj.core.api.Assertions.assertThat;

import io.fencelab.app.console.model.LessonModel;
import io.fencelab.app.console.model.LessonModel.QuestionState;
import io.fencelab.app.console.model.RunPhase;
import io.fencelab.engine.run.ExecutorKind;
import io.fencelab.scenarios.Question;
import io.fencelab.scenarios.StoryStep;
import io.fencelab.scenarios.Workshop;
import java.util.ArrayList;
import java.util.List;
import javafx.scene.Node;
import javafx.scene.Parent;
import javafx.scene.control.Labeled;
import javafx.scene.input.KeyCode;
import javafx.scene.text.Text;
import org.junit.jupiter.api.Test;
import org.testfx.api.FxRobot;

/**
 * The shipped workshop presented from one screen with the clicker's keys only: at every question of
 * every story lesson (the live one included) the run holds before the answer, no answer is anywhere
 * on the window, the room's pick shows, Continue reveals, the reveal stays until the next key, and
 * every key press changes what the room sees. Screenshots: {@code workshop-reveal-<lesson>-<step>.png}.
 */
class WorkshopRevealTest extends ConsoleTestBase {

    private LessonModel lesson() {
        return console.model().lesson();
    }

    @Test
    void everyQuestionOfEveryShippedLessonHoldsRevealsAndStaysUntilTheNextKey(FxRobot robot) {
        waitForDatabase();
        fxRun(() -> console.workshop().openShipped());
        assertThat(fx(() -> lesson().guidedProperty().get())).as("opening a workshop turns guided mode on").isTrue();
        assertThat(fx(() -> lesson().oneScreen())).as("Monocle has one screen").isTrue();
        robot.type(KeyCode.F5);
        waitUntil("the presenter view is on", 10, () -> lesson().presenterProperty().get()
                && console.view().presenter().getScene() != null);
        assertThat(fx(() -> ((javafx.stage.Stage) console.scene().getWindow()).isFullScreen()))
                .as("the presenter view fills the screen").isTrue();
        assertThat(fx(() -> console.view().teacher().stage() == null || !console.view().teacher().stage().isShowing()))
                .as("with one screen F5 shows only the presenter view").isTrue();
        ConsoleFx.projectorAt1280x720(console);
        assertThat(visibleText()).as("the presenter view shows guided mode")
                .anySatisfy(t -> assertThat(t).startsWith("Guided"));

        Workshop shipped = fx(() -> lesson().workshopProperty().get());
        int asked = 0;
        for (int i = 0; i < shipped.lessons().size(); i++) {
            if (shipped.lessons().get(i).kind() == Workshop.Kind.STORY) {
                asked += teach(robot, i, shipped.lessons().get(i));
            }
        }
        assertThat(asked).as("questions asked and revealed").isGreaterThanOrEqualTo(5);
    }

    /** Teaches lesson {@code index} with Page Down and a digit; returns how many questions it revealed. */
    private int teach(FxRobot robot, int index, Workshop.Lesson l) {
        if (index > 0) {
            robot.type(KeyCode.CLOSE_BRACKET);
        }
        waitUntil("lesson " + (index + 1) + " is prepared", 60, () -> lesson().lessonProperty().get() == index
                && console.model().scenario() != null && console.model().scenario().name().equals(l.scenario().name())
                && main().phase() == RunPhase.PAUSED);
        boolean live = l.scenario().spec().executor() == ExecutorKind.LIVE;
        if (!live) {
            // Between the holds a simulated lesson plays as fast as it can.
            fxRun(() -> console.runs().setFastest(true));
        }
        List<StoryStep> steps = fx(() -> List.copyOf(lesson().steps()));
        long questions = steps.stream().filter(StoryStep::asks).count();
        int revealed = 0;
        String before = signature();
        robot.type(KeyCode.PAGE_DOWN);
        for (int presses = 0; presses < 40; presses++) {
            String was = before;
            waitUntil("lesson " + (index + 1) + ": the key press shows and the run settles", 60,
                    () -> !signature().equals(was) && main().phase() != RunPhase.PLAYING,
                    () -> "step " + lesson().currentStep() + ", " + lesson().questionProperty().get() + ", "
                            + main().phase());
            QuestionState state = fx(() -> lesson().questionProperty().get());
            if (state == QuestionState.ASKING) {
                revealed += askAndReveal(robot, index, live);
                before = signature();
                robot.type(KeyCode.PAGE_DOWN);
                continue;
            }
            boolean told = fx(() -> lesson().reached().size() == steps.size());
            if (told && state == QuestionState.NONE) {
                break;
            }
            before = signature();
            robot.type(KeyCode.PAGE_DOWN);
        }
        assertThat(fx(() -> lesson().reached().size())).as("lesson %d told every step", index + 1)
                .isEqualTo(steps.size());
        assertThat((long) revealed).as("lesson %d asked every question", index + 1).isEqualTo(questions);
        return revealed;
    }

    private int askAndReveal(FxRobot robot, int index, boolean live) {
        int step = fx(() -> lesson().questionStepProperty().get());
        Question q = fx(() -> lesson().steps().get(step).question());
        String name = "workshop-reveal-" + (index + 1) + "-" + (step + 1);
        // The run holds before the answering event: nothing after the step's event is shown, for a while.
        long throughSeq = fx(() -> lesson().reached().get(step).throughSeq());
        ConsoleFx.frames();
        ConsoleFx.frames();
        assertThat(fx(() -> main().events().last().seq())).as("%s: the run holds at the question's event", name)
                .isEqualTo(throughSeq);
        assertThat(fx(() -> main().phase())).as("%s: held", name).isEqualTo(RunPhase.PAUSED);
        List<String> asking = visibleText();
        assertThat(asking).as("%s: the question is on the presenter view", name)
                .anySatisfy(t -> assertThat(t).contains(q.ask()));
        assertThat(asking).as("%s: no answer anywhere on the presenter's window", name)
                .noneSatisfy(t -> assertThat(t).contains(q.why()))
                .noneSatisfy(t -> assertThat(t).contains("Answer:"));
        robot.type(KeyCode.T);
        ConsoleFx.frames();
        assertThat(fx(() -> console.view().teacher().stage() == null || !console.view().teacher().stage().isShowing()))
                .as("%s: with one screen the teacher's notes do not open over a question", name).isTrue();
        waitUntil(name + ": the refused T says why on the presenter view", 10,
                () -> visibleText().stream().anyMatch(t -> t.startsWith("The teacher's window opens after the question")));

        // A show of hands keyed in with one screen: Shift + 1 is one more hand for A, counted at once.
        String counted = signature();
        robot.press(KeyCode.SHIFT).type(KeyCode.DIGIT1).release(KeyCode.SHIFT);
        waitUntil(name + ": a raised hand keyed in is counted", 10, () -> !signature().equals(counted)
                && fx(() -> console.model().votes().countsProperty().get()) != null
                && fx(() -> console.model().votes().countsProperty().get().hands().get(0)) == 1);

        String before = signature();
        robot.type(KeyCode.DIGIT2);
        waitUntil(name + ": the room's pick is marked", 10, () -> !signature().equals(before)
                && visibleText().stream().anyMatch(t -> t.startsWith("B ") && t.contains("◀ the room")));

        String picked = signature();
        robot.type(KeyCode.PAGE_DOWN);
        waitUntil(name + ": Continue reveals and the run settles", 60, () -> !signature().equals(picked)
                && lesson().questionProperty().get() == QuestionState.REVEALED && main().phase() != RunPhase.PLAYING);
        ConsoleFx.frames();
        ConsoleFx.frames();
        assertThat(fx(() -> lesson().questionProperty().get())).as("%s: the reveal stays", name)
                .isEqualTo(QuestionState.REVEALED);
        assertThat(visibleText()).as("%s: the answer and why stay on the presenter view", name)
                .anySatisfy(t -> assertThat(t).contains(q.why()));
        if (!live) {
            assertThat(fx(() -> main().events().last().seq())).as("%s: the run played on to the answer", name)
                    .isGreaterThan(throughSeq);
        }
        ConsoleFx.screenshot(console.scene().getRoot(), name);
        return 1;
    }

    /** What the room sees, as text: every visible label and text node of the window. */
    private List<String> visibleText() {
        return fx(() -> {
            List<String> out = new ArrayList<>();
            collect(console.scene().getRoot(), out);
            return out;
        });
    }

    private String signature() {
        return String.join("\n", visibleText());
    }

    private static void collect(Node node, List<String> out) {
        if (!node.isVisible()) {
            return;
        }
        if (node instanceof Labeled l && !l.getText().isEmpty()) {
            out.add(l.getText());
        } else if (node instanceof Text t && !t.getText().isEmpty()) {
            out.add(t.getText());
        }
        if (node instanceof Parent p) {
            for (Node child : p.getChildrenUnmodifiable()) {
                collect(child, out);
            }
        }
    }
}
