package io.fencelab.app.console.workshop;

import io.fencelab.app.console.model.ConsoleModel;
import io.fencelab.app.console.model.LessonModel;
import io.fencelab.app.console.ui.Intents;
import io.fencelab.app.console.ui.ScreenPlan;
import io.fencelab.app.console.ui.Styles;
import io.fencelab.scenarios.Question;
import io.fencelab.scenarios.Scenario;
import io.fencelab.scenarios.StoryStep;
import io.fencelab.scenarios.Workshop;
import java.util.List;
import java.util.Objects;
import javafx.beans.Observable;
import javafx.geometry.Insets;
import javafx.geometry.Rectangle2D;
import javafx.scene.Parent;
import javafx.scene.Scene;
import javafx.scene.control.Label;
import javafx.scene.control.ScrollPane;
import javafx.scene.control.SplitPane;
import javafx.scene.layout.VBox;
import javafx.stage.Stage;

/**
 * The teacher's window, beside the presenter view (on the laptop's screen when there are two, see
 * {@link ScreenPlan}): the story's steps with the current one marked, the teacher's notes for it and
 * for the lesson, the next question with its answer and why, and the workshop's lesson list with
 * time spent against the plan. With one screen the room sees it too, so it shows no answer. It opens
 * and closes with {@link LessonModel#teacherProperty()}.
 */
public final class TeacherWindow {

    private final ConsoleModel model;
    private final Intents.Workshop intents;
    private final java.util.function.Supplier<ScreenPlan> screens;
    private Stage stage;
    final VBox steps = new VBox(2);
    final Label notes = new Label();
    final Label lessonNotes = new Label();
    final Label question = new Label();
    final Label title = new Label();
    private final LessonListView lessons;
    private final SplitPane root;
    private VBox left;

    /** Puts the console's shortcuts on this window too: the clicker and the keys work whichever window has focus. */
    private final java.util.function.Consumer<Scene> shortcuts;

    public TeacherWindow(ConsoleModel model, Intents.Workshop intents, java.util.function.Supplier<ScreenPlan> screens,
                         java.util.function.Consumer<Scene> shortcuts) {
        this.shortcuts = shortcuts;
        this.model = model;
        this.intents = intents;
        this.screens = screens;
        title.getStyleClass().add("notes-title");
        title.setWrapText(true);
        notes.setId("teacher-notes");
        notes.getStyleClass().add("teacher-notes");
        notes.setWrapText(true);
        notes.setMaxWidth(Double.MAX_VALUE);
        lessonNotes.setId("teacher-lesson-notes");
        lessonNotes.getStyleClass().add("teacher-notes");
        lessonNotes.setWrapText(true);
        lessonNotes.setMaxWidth(Double.MAX_VALUE);
        question.setId("teacher-question");
        question.getStyleClass().add("teacher-question");
        question.setWrapText(true);
        question.setMaxWidth(Double.MAX_VALUE);
        steps.setId("teacher-steps");
        // Left, what the teacher needs now: the notes and the next question; right, where the lesson is.
        left = new VBox(10, title, heading("Notes for this step"), notes, heading("Next question"), question,
                heading("Notes for this lesson"), lessonNotes);
        left.setPadding(new Insets(14));
        ScrollPane scroll = new ScrollPane(left);
        scroll.setFitToWidth(true);
        VBox stepsBox = new VBox(8, heading("Steps"), steps);
        stepsBox.setPadding(new Insets(14));
        ScrollPane stepsScroll = new ScrollPane(stepsBox);
        stepsScroll.setFitToWidth(true);
        lessons = new LessonListView(model.lesson(), intents, "teacher-workshop");
        SplitPane right = new SplitPane(stepsScroll, lessons);
        right.setOrientation(javafx.geometry.Orientation.VERTICAL);
        right.setDividerPositions(0.55);
        root = new SplitPane(scroll, right);
        root.setDividerPositions(0.52);
        root.getStyleClass().add("teacher");
        root.setId("teacher");

        LessonModel lesson = model.lesson();
        for (Observable o : new Observable[] {lesson.steps(), lesson.currentStepProperty(), lesson.questionProperty(),
                lesson.workshopProperty(), lesson.lessonProperty(), lesson.screensProperty(), model.scenarioProperty()}) {
            o.addListener(x -> refresh());
        }
        lesson.teacherProperty().addListener((o, was, now) -> show(now));
        refresh();
    }

    /** Puts the show-of-hands input under the next question. */
    public void showHands(javafx.scene.Node hands) {
        left.getChildren().add(left.getChildren().indexOf(question) + 1, hands);
    }

    private static Label heading(String text) {
        Label l = new Label(text);
        l.getStyleClass().add("teacher-heading");
        return l;
    }

    /** The window's content (tests look into it). */
    public Parent root() {
        return root;
    }

    /** The window, once opened (null before). */
    public Stage stage() {
        return stage;
    }

    private void show(boolean open) {
        if (!open) {
            if (stage != null) {
                stage.hide();
            }
            return;
        }
        if (stage == null) {
            stage = new Stage();
            stage.setTitle("Fencelab: teacher's notes");
            Scene scene = new Scene(root, 1100, 720);
            scene.getStylesheets().addAll(Styles.STYLESHEET, Objects.requireNonNull(
                    TeacherWindow.class.getResource("/io/fencelab/app/console/presenter.css")).toExternalForm());
            shortcuts.accept(scene);
            stage.setScene(scene);
            stage.setOnHidden(e -> {
                if (model.lesson().teacherProperty().get()) {
                    intents.teacher().accept(false);
                }
            });
        }
        place();
        stage.show();
    }

    /** On the laptop's screen when there are two (the presenter view has the other); else where it opens. */
    private void place() {
        ScreenPlan plan = screens.get();
        if (plan.shared()) {
            return;
        }
        Rectangle2D b = plan.teacher();
        stage.setX(b.getMinX() + 20);
        stage.setY(b.getMinY() + 20);
        stage.setWidth(Math.min(1100, b.getWidth() - 40));
        stage.setHeight(Math.min(720, b.getHeight() - 40));
    }

    private void refresh() {
        LessonModel lesson = model.lesson();
        Scenario scenario = model.scenario();
        title.setText(scenario == null ? "No lesson on show" : scenario.notes().title());
        steps.getChildren().clear();
        int current = lesson.currentStep();
        List<StoryStep> all = lesson.steps();
        for (int i = 0; i < all.size(); i++) {
            StoryStep s = all.get(i);
            Label l = new Label((i + 1) + ".  " + s.text() + (s.asks() ? "   [question]" : ""));
            l.setWrapText(true);
            l.setMaxWidth(Double.MAX_VALUE);
            l.getStyleClass().add("teacher-step");
            if (i == current) {
                l.getStyleClass().add("teacher-step-current");
            } else if (i < current) {
                l.getStyleClass().add("teacher-step-done");
            }
            steps.getChildren().add(l);
        }
        StoryStep step = lesson.current();
        notes.setText(step == null ? (current < 0 && !all.isEmpty() ? "The run has not reached step 1 yet." : "—")
                : step.notes().isEmpty() ? "No notes for this step." : step.notes());
        question.setText(nextQuestion(all, current, lesson.questionProperty().get(), !lesson.oneScreen()));
        Workshop w = lesson.workshopProperty().get();
        int l = lesson.lessonProperty().get();
        lessonNotes.setText(w != null && l >= 0 && l < w.lessons().size() && !w.lessons().get(l).notes().isEmpty()
                ? w.lessons().get(l).notes() : "—");
    }

    /**
     * The question being asked now (unless already revealed), else the next step's that asks: its
     * step, the choices, and (with {@code answer}: only where the room cannot see this window) the
     * answer and why.
     */
    static String nextQuestion(List<StoryStep> steps, int current, LessonModel.QuestionState state, boolean answer) {
        int from = current < 0 ? 0
                : state == LessonModel.QuestionState.REVEALED || current >= steps.size() || !steps.get(current).asks()
                ? current + 1 : current;
        for (int i = from; i < steps.size(); i++) {
            StoryStep s = steps.get(i);
            if (s.asks()) {
                Question q = s.question();
                StringBuilder b = new StringBuilder("At step " + (i + 1)
                        + (i == current ? " (asking now)" : "") + ": " + q.ask() + "\n");
                for (int c = 0; c < q.choices().size(); c++) {
                    b.append("\n").append(Question.letter(c)).append("   ").append(q.choices().get(c));
                }
                if (answer) {
                    b.append("\n\nAnswer: ").append(Question.letter(q.answer())).append(", ").append(q.rightChoice())
                            .append("\nWhy: ").append(q.why());
                } else {
                    b.append("\n\n(The answer is not shown here: with one screen the room could read it. It "
                            + "is in the handout's answers.)");
                }
                return b.toString();
            }
        }
        return "No question left in this lesson.";
    }
}
