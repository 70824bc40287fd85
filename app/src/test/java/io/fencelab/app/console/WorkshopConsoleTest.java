package io.fencelab.app.console;

import static io.fencelab.app.console.ConsoleFx.fx;
import static io.fencelab.app.console.ConsoleFx.fxRun;
import static io.fencelab.app.console.ConsoleFx.waitUntil;
import static org.assertj.core.api.Assertions.assertThat;

import io.fencelab.app.console.model.LessonModel;
import io.fencelab.app.console.model.RunPhase;
import io.fencelab.app.console.ui.KeyMap;
import io.fencelab.app.console.workshop.PresenterViews;
import io.fencelab.engine.event.Event;
import io.fencelab.report.HolderLane;
import io.fencelab.report.Span;
import io.fencelab.report.Timeline;
import io.fencelab.scenarios.Catalog;
import io.fencelab.scenarios.Workshop;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import javafx.scene.Node;
import javafx.scene.Parent;
import javafx.scene.control.Label;
import javafx.scene.control.Labeled;
import javafx.scene.control.ListView;
import javafx.scene.input.KeyCode;
import javafx.stage.Stage;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.testfx.api.FxRobot;

/** Workshop mode in the console: the presenter view, the teacher's window, the lesson list, lanes to the playhead. */
class WorkshopConsoleTest extends ConsoleTestBase {

    private static final long TWELVE_S = 12_000_000;

    /** Shows paused-holder at 1280 × 720, played to about 12 s (A frozen since 10 s), at step 2 asking its question. */
    private void pausedHolderAtTwelveSecondsAskingStepTwo() {
        waitForDatabase();
        fxRun(() -> {
            Stage stage = (Stage) console.scene().getWindow();
            stage.setWidth(1280);
            stage.setHeight(720);
            console.scenarios().select("paused-holder");
            console.runs().setSpeed(6);
            console.runs().play();
        });
        waitUntil("the playhead has passed 12 s", 60, () -> main().nowMicrosProperty().get() >= TWELVE_S);
        fxRun(() -> console.runs().pause());
        waitUntil("the story has reached step 2", 10, () -> console.model().lesson().currentStep() == 1);
        // What guided mode does at a step with a question (GuidedModeTest plays that part for real).
        fxRun(() -> {
            console.model().lesson().questionStepProperty().set(1);
            console.model().lesson().questionProperty().set(LessonModel.QuestionState.ASKING);
        });
        ConsoleFx.frames();
    }

    @Test
    void presenterViewAt1280x720HasNoTextSmallerThan18Pixels() {
        pausedHolderAtTwelveSecondsAskingStepTwo();
        fxRun(() -> console.workshop().setPresenter(true));
        ConsoleFx.frames();
        waitUntil("the presenter view is showing", 10, () -> console.view().presenter().getScene() != null);
        ConsoleFx.projectorAt1280x720(console);

        List<String> small = fx(() -> ConsoleFx.textUnder18Px(console.view().presenter()));
        assertThat(small).as("text under 18 px in the presenter view (node: size)").isEmpty();
        assertThat(fx(() -> PresenterViews.smallestCanvasTextPx(console.view().presenter())))
                .as("the smallest text the presenter's timeline draws").isGreaterThanOrEqualTo(18.0);
        assertThat(labelText("#presenter-step")).startsWith("A prepares its update");
        assertThat(fx(() -> texts(console.view().presenter().lookup("#presenter-question"))))
                .as("the question and its choices, without the answer yet")
                .anySatisfy(t -> assertThat(t).contains("What does A notice"))
                .noneSatisfy(t -> assertThat(t).contains("A paused process runs no code"));
        assertThat(fx(() -> console.scene().getWidth())).isEqualTo(1280.0);
        ConsoleFx.screenshot(console.scene().getRoot(), "workshop-presenter");

        fxRun(() -> console.model().lesson().questionProperty().set(LessonModel.QuestionState.REVEALED));
        ConsoleFx.frames();
        assertThat(fx(() -> texts(console.view().presenter().lookup("#presenter-question"))))
                .as("the revealed answer's why").anySatisfy(t -> assertThat(t).contains("A paused process runs no code"));
        ConsoleFx.screenshot(console.scene().getRoot(), "workshop-presenter-reveal");

        fxRun(() -> console.workshop().setPresenter(false));
        assertThat(fx(() -> console.scene().lookup("#modes"))).as("the console is back").isNotNull();
    }

    @Test
    void teachersWindowShowsTheStepsNotesAndTheNextQuestionWithItsAnswer() {
        waitForDatabase();
        // The workshop first: opening it loads its first lesson, the paused holder, from the start,
        // guided; this test plays it unguided to 12 s. Two screens, faked: a laptop and a projector.
        fxRun(() -> {
            console.workshop().openShipped();
            console.lesson().setGuided(false);
            console.model().lesson().screensProperty().set(2);
        });
        pausedHolderAtTwelveSecondsAskingStepTwo();
        fxRun(() -> {
            console.model().lesson().questionProperty().set(LessonModel.QuestionState.NONE);
            console.workshop().setPresenter(true);
        });
        ConsoleFx.frames();
        assertThat(fx(() -> console.model().lesson().teacherProperty().get()))
                .as("with two screens the teacher's window opens with the presenter view").isTrue();
        waitUntil("the teacher's window is showing", 10,
                () -> console.view().teacher().stage() != null && console.view().teacher().stage().isShowing());
        Parent root = fx(() -> console.view().teacher().root());
        assertThat(fx(() -> ((Label) root.lookup("#teacher-notes")).getText()))
                .as("the current step's notes").contains("Let the room commit to an answer");
        String question = fx(() -> ((Label) root.lookup("#teacher-question")).getText());
        assertThat(question).as("the next question, its choices and its answer")
                .contains("At step 2").contains("What does A notice")
                .contains("Answer: B, Nothing at all; it is frozen and cannot look at a clock.");
        assertThat(fx(() -> ((Label) root.lookup("#teacher-lesson-notes")).getText()))
                .as("the lesson's notes from the workshop").contains("The story every fencing talk starts with");
        assertThat(fx(() -> ((ListView<?>) root.lookup("#teacher-workshop-lessons")).getItems())).hasSize(6);
        ConsoleFx.frames();
        ConsoleFx.screenshot(root, "workshop-teacher");

        fxRun(() -> console.model().lesson().currentStepProperty().set(1));
        assertThat(fx(() -> ((Label) root.lookup("#teacher-question")).getText())).contains("(asking now)");
        fxRun(() -> console.workshop().setTeacher(false));
        assertThat(fx(() -> console.view().teacher().stage().isShowing())).isFalse();
    }

    @Test
    void withOneScreenTheTeachersNotesOpenOnlyOnTAndNeverOverAQuestionNorWithAnAnswer(FxRobot robot) {
        waitForDatabase();
        fxRun(() -> {
            console.workshop().openShipped();
            console.lesson().setGuided(false);
            console.model().lesson().screensProperty().set(1);
        });
        pausedHolderAtTwelveSecondsAskingStepTwo();
        robot.type(KeyCode.F5);
        waitUntil("the presenter view is on", 10, () -> console.model().lesson().presenterProperty().get());
        assertThat(fx(() -> console.model().lesson().teacherProperty().get()))
                .as("with one screen F5 shows only the presenter view").isFalse();
        robot.type(KeyCode.T);
        ConsoleFx.frames();
        assertThat(fx(() -> console.model().lesson().teacherProperty().get()))
                .as("T over a question: the room would read the notes").isFalse();
        assertThat(fx(() -> console.model().messageProperty().get())).contains("after the question");

        fxRun(() -> console.lesson().clearQuestion());
        robot.type(KeyCode.T);
        waitUntil("T opens the teacher's window", 10,
                () -> console.view().teacher().stage() != null && console.view().teacher().stage().isShowing());
        String question = fx(() -> ((Label) console.view().teacher().root().lookup("#teacher-question")).getText());
        assertThat(question).as("the next question, without its answer").contains("What does A notice")
                .doesNotContain("Answer:").doesNotContain("A paused process runs no code");

        fxRun(() -> console.model().lesson().questionProperty().set(LessonModel.QuestionState.ASKING));
        assertThat(fx(() -> console.view().teacher().stage().isShowing()))
                .as("a question coming up closes the teacher's window").isFalse();
    }

    @Test
    void aWorkshopFileWithAStepNeverReachedIsRefusedOnOpenWithValidatesLocatedMessage(@TempDir Path dir)
            throws IOException {
        String holder;
        try (var in = getClass().getClassLoader().getResourceAsStream(Catalog.RESOURCE_DIR + "paused-holder.yaml")) {
            holder = new String(in.readAllBytes(), StandardCharsets.UTF_8);
        }
        // A first step no run reaches (there is no C), so none after it is reached either.
        Files.writeString(dir.resolve("never.yaml"), holder.replace("story:\n",
                "story:\n  - text: C acquires the lease.\n    on: {type: LeaseAcquired, holder: C}\n"));
        Path workshop = Files.writeString(dir.resolve("w.yaml"),
                "title: Never\nlessons:\n  - scenario: never.yaml\n    minutes: 5\n");
        waitForDatabase();
        fxRun(() -> console.workshop().openFile(workshop));
        waitUntil("the file is refused", 120, () -> !console.model().scenarioProblemProperty().get().isEmpty());
        String problem = fx(() -> console.model().scenarioProblemProperty().get());
        assertThat(problem).as("the step's own line, as fencelab validate says it")
                .contains("w.yaml is not a valid workshop")
                .contains("never.yaml:25:1: story[0]: step 1 is never reached");
        assertThat(fx(() -> console.model().lesson().workshopProperty().get())).as("nothing opened").isNull();
    }

    @Test
    void pageDownMovesTheLessonWithTheFocusLeftInATuneViewField(FxRobot robot) {
        waitForDatabase();
        fxRun(() -> console.workshop().openShipped());
        int sweep = fx(() -> console.model().lesson().workshopProperty().get().lessons().size() - 1);
        fxRun(() -> console.workshop().choose(sweep));
        waitUntil("the sweep lesson's run is prepared", 30, () -> main().phase() == RunPhase.PAUSED
                && console.model().tune().shownProperty().get());
        javafx.scene.Node field = fx(() -> console.view().tune().lookupAll("*").stream()
                .filter(n -> n.isVisible() && KeyMap.typingInto(n)).findFirst().orElseThrow());
        fxRun(field::requestFocus);
        waitUntil("a Tune-view field has the focus", 10, () -> KeyMap.typingInto(console.scene().getFocusOwner()));
        robot.type(KeyCode.PAGE_DOWN);
        waitUntil("Page Down played the lesson on to its first step", 30,
                () -> console.model().lesson().currentStep() == 0 && main().phase() == RunPhase.PAUSED);
        assertThat(fx(() -> KeyMap.typingInto(console.scene().getFocusOwner()))).as("the focus stayed in the field")
                .isTrue();
        assertThat(fx(() -> console.model().speedProperty().get())).as("the 10-minute run plays at 3× in its lesson")
                .isEqualTo(3.0);

        fxRun(() -> console.workshop().setPresenter(true));
        ConsoleFx.projectorAt1280x720(console);
        robot.type(KeyCode.H);
        waitUntil("H shows the sweep's heatmap in the presenter view", 10,
                () -> console.view().presenter().lookup("#presenter-heatmap") != null);
        ConsoleFx.screenshot(console.scene().getRoot(), "workshop-presenter-heatmap");
        robot.type(KeyCode.H);
        waitUntil("H again brings the timeline back", 10,
                () -> console.view().presenter().lookup("#presenter-heatmap") == null);
    }

    @Test
    void theRatesChartStartsEmptyForTheNextLesson() {
        waitForDatabase();
        fxRun(() -> {
            console.workshop().openShipped();
            console.lesson().setGuided(false);
            console.workshop().choose(1);
            console.runs().setFastest(true);
            console.runs().play();
        });
        waitUntil("lesson 2 has ended", 60, () -> console.sessions().allOver());
        ConsoleFx.frames();
        assertThat(chartPoints()).as("lesson 2's rates are drawn").isPositive();
        fxRun(() -> console.workshop().next());
        waitUntil("lesson 3 is prepared", 30, () -> main().phase() == RunPhase.PAUSED);
        ConsoleFx.frames();
        assertThat(chartPoints()).as("lesson 3's chart has none of lesson 2's rates").isZero();
    }

    private int chartPoints() {
        return fx(() -> ((javafx.scene.chart.XYChart<?, ?>) console.scene().lookup("#rate-chart")).getData().stream()
                .mapToInt(s -> s.getData().size()).sum());
    }

    @Test
    void theShippedWorkshopOpensAsALessonListAndChoosingALessonLoadsIt() {
        waitForDatabase();
        ConsoleFx.openShippedWorkshopAt1280x720(console);
        Workshop shipped = fx(() -> console.model().lesson().workshopProperty().get());
        assertThat(shipped).as("the open workshop").isNotNull();
        @SuppressWarnings("unchecked")
        ListView<Workshop.Lesson> list = fx(() -> (ListView<Workshop.Lesson>) console.scene().lookup("#workshop-lessons"));
        assertThat(fx(() -> list.getItems())).extracting(l -> l.scenario().name())
                .startsWith("paused-holder", "paused-holder-unfenced");
        assertThat(fx(() -> console.model().scenario().name())).as("the first lesson is on show")
                .isEqualTo("paused-holder");

        fxRun(() -> list.getSelectionModel().select(1));
        assertThat(fx(() -> console.model().lesson().lessonProperty().get())).isEqualTo(1);
        assertThat(fx(() -> console.model().scenario().name())).as("choosing a lesson loads its scenario")
                .isEqualTo("paused-holder-unfenced");
        assertThat(fx(() -> console.model().lesson().progress().done())).as("the lesson left is done").contains(0);
        ConsoleFx.frames();
        screenshot("workshop-lessons");

        int sweep = shipped.lessons().size() - 1;
        assertThat(shipped.lessons().get(sweep).kind()).isEqualTo(Workshop.Kind.SWEEP);
        fxRun(() -> console.workshop().choose(sweep));
        assertThat(fx(() -> console.model().tune().shownProperty().get())).as("a sweep lesson opens the Tune view")
                .isTrue();
        assertThat(fx(() -> console.model().tune().scenarioProperty().get())).isEqualTo("k8s-leader-gc");
        fxRun(() -> console.workshop().previous());
        assertThat(fx(() -> console.model().tune().shownProperty().get())).as("a story lesson shows the run")
                .isFalse();
        assertThat(fx(() -> console.model().lesson().lessonProperty().get())).isEqualTo(sweep - 1);
    }

    @Test
    void lanesOfThePausedHolderRunOnToThePlayheadWhileTheRunGoesOn() {
        runToEnd("paused-holder");
        List<Event> all = fx(() -> main().events().snapshot());
        List<Event> upToTwelve = all.stream().filter(e -> e.atMicros() <= TWELVE_S).toList();
        Timeline atTwelve = Timeline.from(upToTwelve, fx(() -> main().judgement()));
        HolderLane a = atTwelve.holder("A").orElseThrow();
        Span.Pause pause = a.pauses().getFirst();
        assertThat(pause.startMicros()).isEqualTo(10_000_000);
        assertThat(pause.endMicros()).as("the log ends with the pause's start").isEqualTo(10_000_000);
        assertThat(atTwelve.drawnEnd(pause, TWELVE_S)).as("A's pause is drawn to the playhead at 12 s")
                .isEqualTo(TWELVE_S);
        assertThat(atTwelve.drawnEnd(a.held().getFirst(), TWELVE_S)).as("A's lease too").isEqualTo(TWELVE_S);
        assertThat(atTwelve.drawnEnd(a.believed().getFirst(), TWELVE_S)).as("A's belief too").isEqualTo(TWELVE_S);

        Timeline finished = fx(() -> main().timeline());
        Span.Pause whole = finished.holder("A").orElseThrow().pauses().getFirst();
        assertThat(finished.drawnEnd(whole, 0)).as("a finished run's pause ends where it ended")
                .isEqualTo(whole.endMicros()).isEqualTo(45_000_000);
    }

    private static List<String> texts(Node node) {
        List<String> out = new ArrayList<>();
        if (node instanceof Labeled l) {
            out.add(l.getText());
        }
        if (node instanceof Parent p) {
            for (Node child : p.getChildrenUnmodifiable()) {
                out.addAll(texts(child));
            }
        }
        return out;
    }
}
