package io.fencelab.app.console.view;

import io.fencelab.app.console.feed.FrameLoop;
import io.fencelab.app.console.model.ConsoleModel;
import io.fencelab.app.console.model.LessonModel;
import io.fencelab.app.console.model.RunModel;
import io.fencelab.app.console.model.RunPhase;
import io.fencelab.engine.check.Verdict;
import io.fencelab.engine.event.Event;
import io.fencelab.report.Timeline;
import io.fencelab.report.VerdictText;
import io.fencelab.scenarios.Question;
import io.fencelab.scenarios.Scenario;
import io.fencelab.scenarios.StoryStep;
import io.fencelab.scenarios.Workshop;
import java.util.List;
import java.util.Objects;
import javafx.beans.Observable;
import javafx.geometry.Insets;
import javafx.geometry.Pos;
import javafx.scene.canvas.Canvas;
import javafx.scene.control.Label;
import javafx.scene.layout.BorderPane;
import javafx.scene.layout.HBox;
import javafx.scene.layout.Priority;
import javafx.scene.layout.Region;
import javafx.scene.layout.VBox;

/**
 * What the room sees (F5): only the timeline, drawn {@link TimelineRenderer#PRESENTATION} times
 * larger, the current story step in large type, its question (the answer only once revealed), and
 * the verdict in words. Readable from the back of a room at 1280 × 720: no text under 18 px, dark
 * on white. It reads the run, the window and the lesson from the model and asks nothing of anyone.
 */
public final class PresenterView extends BorderPane {

    /** Style classes of the verdict badge. */
    private static final List<String> BADGES = List.of("presenter-safe", "presenter-violated", "presenter-none");

    private final ConsoleModel model;
    private final PresenterTimeline timeline;
    final Label title = new Label();
    final Label position = new Label();
    final Label badge = new Label();
    final Label verdictWords = new Label();
    final Label stepNumber = new Label();
    final Label stepText = new Label();
    final VBox question = new VBox(8);
    private int toldWitnesses = -1;
    private RunPhase toldPhase;

    public PresenterView(ConsoleModel model, FrameLoop loop) {
        this.model = model;
        getStyleClass().add("presenter");
        getStylesheets().add(Objects.requireNonNull(PresenterView.class.getResource(
                "/io/fencelab/app/console/presenter.css"), "presenter.css is missing from the build").toExternalForm());
        setId("presenter");

        title.getStyleClass().add("presenter-title");
        title.setId("presenter-title");
        position.getStyleClass().add("presenter-position");
        badge.getStyleClass().add("presenter-badge");
        badge.setId("presenter-verdict");
        badge.setMinWidth(Region.USE_PREF_SIZE);
        Region spacer = new Region();
        HBox.setHgrow(spacer, Priority.ALWAYS);
        HBox header = new HBox(20, title, spacer, position, badge);
        header.setAlignment(Pos.CENTER_LEFT);
        header.getStyleClass().add("presenter-header");
        header.setPadding(new Insets(10, 24, 10, 24));
        verdictWords.getStyleClass().add("presenter-verdict-words");
        verdictWords.setId("presenter-verdict-words");
        verdictWords.setWrapText(true);
        verdictWords.setPadding(new Insets(0, 24, 6, 24));
        verdictWords.managedProperty().bind(verdictWords.textProperty().isNotEmpty());
        setTop(new VBox(header, verdictWords));

        timeline = new PresenterTimeline(model, loop);
        setCenter(timeline);
        setRight(new VotePanel(model)); // the room's votes: where to vote while asking, the chart at the reveal

        stepNumber.getStyleClass().add("presenter-step-number");
        stepNumber.setMinWidth(Region.USE_PREF_SIZE);
        stepText.getStyleClass().add("presenter-step");
        stepText.setId("presenter-step");
        stepText.setWrapText(true);
        HBox step = new HBox(18, stepNumber, stepText);
        step.setAlignment(Pos.TOP_LEFT);
        question.getStyleClass().add("presenter-question");
        question.setId("presenter-question");
        VBox bottom = new VBox(12, step, question);
        bottom.getStyleClass().add("presenter-bottom");
        bottom.setPadding(new Insets(14, 24, 18, 24));
        setBottom(bottom);

        LessonModel lesson = model.lesson();
        for (Observable o : new Observable[] {lesson.steps(), lesson.currentStepProperty(), lesson.questionProperty(),
                lesson.workshopProperty(), lesson.lessonProperty(), model.scenarioProperty()}) {
            o.addListener(x -> showStep());
        }
        RunModel run = model.main();
        for (Observable o : new Observable[] {run.verdictProperty(), run.phaseProperty(), run.eventCountProperty()}) {
            o.addListener(x -> showVerdict());
        }
        showStep();
        showVerdict();
    }

    /** The renderer the presenter's timeline draws with (tests read its text size). */
    TimelineRenderer renderer() {
        return timeline.renderer;
    }

    public Canvas canvas() {
        return timeline.canvas;
    }

    private void showStep() {
        LessonModel lesson = model.lesson();
        Scenario scenario = model.scenario();
        Workshop w = lesson.workshopProperty().get();
        int l = lesson.lessonProperty().get();
        String name = scenario == null ? "Fencelab" : scenario.notes().title();
        title.setText(w != null && l >= 0 ? "Lesson " + (l + 1) + " of " + w.lessons().size() + ": " + name : name);
        StoryStep current = lesson.current();
        int n = lesson.steps().size();
        if (current == null) {
            stepNumber.setText("");
            position.setText(n == 0 ? "" : "before step 1 of " + n);
            stepText.setText(scenario == null ? "Choose a lesson." : scenario.notes().firstSentence());
        } else {
            stepNumber.setText(Integer.toString(lesson.currentStep() + 1));
            position.setText("step " + (lesson.currentStep() + 1) + " of " + n);
            stepText.setText(current.text());
        }
        question.getChildren().clear();
        LessonModel.QuestionState state = lesson.questionProperty().get();
        boolean shown = current != null && current.asks() && state != LessonModel.QuestionState.NONE;
        question.setVisible(shown);
        question.setManaged(shown);
        if (shown) {
            boolean revealed = state == LessonModel.QuestionState.REVEALED;
            Question q = current.question();
            Label ask = new Label(q.ask());
            ask.setWrapText(true);
            ask.getStyleClass().add("presenter-ask");
            question.getChildren().add(ask);
            for (int i = 0; i < q.choices().size(); i++) {
                Label c = new Label(Question.letter(i) + "   " + q.choices().get(i));
                c.setWrapText(true);
                c.getStyleClass().add("presenter-choice");
                if (revealed) {
                    c.getStyleClass().add(i == q.answer() ? "presenter-choice-right" : "presenter-choice-wrong");
                }
                question.getChildren().add(c);
            }
            if (revealed) {
                Label why = new Label(q.why());
                why.setWrapText(true);
                why.getStyleClass().add("presenter-why");
                question.getChildren().add(why);
            }
        }
    }

    /** The badge follows the verdict every batch; the words are told again only when they can change. */
    private void showVerdict() {
        RunModel run = model.main();
        Verdict v = run.verdict();
        boolean started = run.eventCountProperty().get() > 0;
        RunPhase phase = run.phase();
        boolean failedSafe = v.isSafe() && phase == RunPhase.FAILED; // never SAFE: nothing after the failure was tested
        badge.setText(!started ? "not run yet" : failedSafe ? "FAILED" : v.isSafe() ? "SAFE" : "VIOLATED");
        Styles.choose(badge, BADGES, !started || failedSafe ? "presenter-none" : v.isSafe() ? "presenter-safe"
                : "presenter-violated");
        int witnesses = v.witnesses().size();
        if (!started) {
            verdictWords.setText("");
            toldWitnesses = -1;
            toldPhase = null;
            return;
        }
        if (witnesses == toldWitnesses && phase == toldPhase) {
            return;
        }
        toldWitnesses = witnesses;
        toldPhase = phase;
        // The verdict's headline as the report tells it; while the run goes on only once it is decided.
        if (phase.isOver() || witnesses > 0) {
            List<Event> events = run.events().snapshot();
            List<String> words = VerdictText.of(events, run.judgement());
            verdictWords.setText(words.isEmpty() ? "" : words.getFirst());
        } else {
            verdictWords.setText("");
        }
    }

    /**
     * The main run's timeline, drawn large. Paced as the desk's timeline is ({@link RedrawPacing}):
     * a moving playhead moves its layer, and the canvas repaints only when what it shows changed.
     */
    private static final class PresenterTimeline extends Region {
        private final Canvas canvas = new Canvas();
        private final TimelineRenderer renderer = new TimelineRenderer(TimelineRenderer.PRESENTATION);
        private final PlayheadLayer playhead = new PlayheadLayer();
        private final RedrawPacing pacing = new RedrawPacing();
        private final ConsoleModel model;

        PresenterTimeline(ConsoleModel model, FrameLoop loop) {
            this.model = model;
            getStyleClass().add("presenter-timeline");
            getChildren().addAll(canvas, playhead);
            setMinSize(200, 160);
            RunModel run = model.main();
            pacing.follow(run, model.window(), this::playheadStep);
            loop.addDraw(now -> {
                if (!isVisible() || getScene() == null || canvas.getWidth() < 10 || canvas.getHeight() < 10) {
                    return;
                }
                switch (pacing.next(now, run.phase() == RunPhase.PLAYING)) {
                    case REPAINT -> redraw();
                    case MOVE_PLAYHEAD -> movePlayhead();
                    case NOTHING -> { }
                }
            });
        }

        private long playheadStep() {
            double plotPx = Math.max(10, canvas.getWidth() / TimelineRenderer.PRESENTATION - TimelineRenderer.GUTTER
                    - TimelineRenderer.RIGHT_PAD);
            return (long) Math.floor((model.main().nowMicrosProperty().get() - model.window().start())
                    / model.window().span() * plotPx);
        }

        @Override
        protected void layoutChildren() {
            double w = Math.floor(getWidth());
            double h = Math.floor(getHeight());
            if (canvas.getWidth() != w || canvas.getHeight() != h) {
                canvas.setWidth(w);
                canvas.setHeight(h);
                pacing.changed();
            }
            playhead.resizeRelocate(0, 0, w, h);
        }

        void redraw() {
            if (canvas.getWidth() < 10 || canvas.getHeight() < 10) {
                return;
            }
            RunModel run = model.main();
            Timeline timeline = run.timeline();
            pacing.repainted(timeline != null && timeline.hasOpenSpans());
            renderer.draw(canvas.getGraphicsContext2D(), canvas.getWidth(), canvas.getHeight(),
                    new TimelineRenderer.Frame(timeline, model.window().start(), model.window().span(), 0, -1,
                            run.focusedWitnessProperty().get(), seq -> {
                                Event e = run.events().bySeq(seq);
                                return e == null ? -1 : e.atMicros();
                            }, 0, run.phase() == RunPhase.IDLE ? "Choose a lesson." : "Press Play.",
                            run.phase().isOver() ? 0 : run.nowMicrosProperty().get()));
            movePlayhead();
        }

        /** The playhead and the tint, on the same layer as the desk's timeline, scaled as the drawing is. */
        private void movePlayhead() {
            pacing.playheadMoved();
            RunModel run = model.main();
            double scale = TimelineRenderer.PRESENTATION;
            playhead.getTransforms().setAll(new javafx.scene.transform.Scale(scale, scale, 0, 0));
            playhead.show(run.timeline(), canvas.getWidth() / scale, canvas.getHeight() / scale,
                    model.window().start(), model.window().span(), run.nowMicrosProperty().get(),
                    run.endMicrosProperty().get(), run.phase().isOver(), 0);
        }
    }
}
