package io.fencelab.app.console.workshop;

import io.fencelab.app.console.model.ConsoleModel;
import io.fencelab.app.console.model.LessonModel;
import io.fencelab.app.console.model.RunModel;
import io.fencelab.app.console.model.RunPhase;
import io.fencelab.app.console.model.TimeWindow;
import io.fencelab.app.console.run.StoryView;
import io.fencelab.app.console.timeline.PlayheadLayer;
import io.fencelab.app.console.timeline.RedrawPacing;
import io.fencelab.app.console.timeline.TimelineRenderer;
import io.fencelab.app.console.tune.HeatmapView;
import io.fencelab.app.console.ui.FrameLoop;
import io.fencelab.app.console.ui.ScaledScreen;
import io.fencelab.app.console.ui.Styles;
import io.fencelab.app.votes.VoteTally;
import io.fencelab.engine.check.Judgement;
import io.fencelab.engine.check.Verdict;
import io.fencelab.engine.event.Event;
import io.fencelab.report.VerdictText;
import io.fencelab.scenarios.Question;
import io.fencelab.scenarios.Scenario;
import io.fencelab.scenarios.StoryStep;
import io.fencelab.scenarios.Workshop;
import java.util.List;
import java.util.Objects;
import javafx.animation.PauseTransition;
import javafx.beans.Observable;
import javafx.geometry.Insets;
import javafx.geometry.Pos;
import javafx.scene.canvas.Canvas;
import javafx.scene.control.ContentDisplay;
import javafx.scene.control.Label;
import javafx.scene.layout.BorderPane;
import javafx.scene.layout.HBox;
import javafx.scene.layout.Priority;
import javafx.scene.layout.Region;
import javafx.scene.layout.VBox;
import javafx.util.Duration;

/**
 * What the room sees (F5): only the timeline, drawn {@link TimelineRenderer#PRESENTATION} times
 * larger, the current story step in large type, its question (the answer only once revealed), and
 * the verdict in words. Designed for the back of a room at 1280 × 720: no text under 18 px, dark
 * on white. It is shown through {@link #screen()}, which fills a larger screen (a projector at
 * 1920 × 1080) by drawing the whole layout larger. It reads the run, the window and the lesson from
 * the model and asks nothing of anyone.
 */
public final class PresenterView extends BorderPane {

    /** A holder lane's height, in drawing units, below which the presenter shows fewer lanes instead. */
    static final double READABLE_HOLDER_H = 34;

    /** The question's column beside the timeline, in pixels (about a third of 1280). */
    static final double QUESTION_WIDTH = 440;

    /** Style classes of the verdict badge. */
    private static final List<String> BADGES = List.of("presenter-safe", "presenter-violated", "presenter-none");

    private final ConsoleModel model;
    private final PresenterTimeline timeline;
    /** This view as it is put on a screen: scaled from 1280 × 720 to fill it. */
    private final ScaledScreen screen;
    final Label title = new Label();
    final Label position = new Label();
    final Label badge = new Label();
    final Label lanesShown = new Label();
    /** Guided mode, shown (the room and the teacher see that the run waits for Continue), with the speed. */
    final Label guided = new Label();
    /** The sweep's heatmap, shown (1.8 times larger) in place of the timeline on H in a sweep lesson. */
    private final HeatmapView heatmap;
    final Label verdictWords = new Label();
    /** Where the room votes while a question is asked (in the question's column; hidden without a vote server). */
    private final VotePanel votePanel;
    /** What the console's status line said last, shown for {@link #NOTICE_SHOWN}. */
    final Label notice = new Label();
    static final Duration NOTICE_SHOWN = Duration.seconds(5);
    final Label stepNumber = new Label();
    final Label stepText = new Label();
    final VBox question = new VBox(8);
    /** What the verdict's words were last worked out for (witnesses, decided, how the judged log ends). */
    private List<Object> told;

    public PresenterView(ConsoleModel model, FrameLoop loop) {
        this.model = model;
        getStyleClass().add("presenter");
        getStylesheets().add(Objects.requireNonNull(PresenterView.class.getResource(
                "/io/fencelab/app/console/presenter.css"), "presenter.css is missing from the build").toExternalForm());
        // The room's votes (VotePanel) are drawn only here.
        getStylesheets().add(Objects.requireNonNull(PresenterView.class.getResource(
                "/io/fencelab/app/console/votes.css"), "votes.css is missing from the build").toExternalForm());
        setId("presenter");
        setTop(new VBox(header(), verdictWords()));

        timeline = new PresenterTimeline(model, loop, lanesShown, this::screenScale);
        styleQuestion();
        HBox.setHgrow(timeline, Priority.ALWAYS);
        heatmap = new HeatmapView(model.tune(), point -> { }, loop);
        Region largeHeatmap = ScaledScreen.fixed(heatmap, TimelineRenderer.PRESENTATION);
        largeHeatmap.setId("presenter-heatmap");
        VBox.setVgrow(largeHeatmap, Priority.ALWAYS);
        VBox bottom = new VBox(12, step(), notice());
        bottom.getStyleClass().add("presenter-bottom");
        bottom.setPadding(new Insets(14, 24, 18, 24));
        // The step under the timeline; the question, when shown, in a column of the full height beside both.
        VBox.setVgrow(timeline, Priority.ALWAYS);
        VBox story = new VBox(timeline, bottom);
        HBox.setHgrow(story, Priority.ALWAYS);
        setCenter(new HBox(story, question));
        // H in a sweep lesson: the heatmap takes the timeline's place.
        model.lesson().heatmapProperty().addListener((o, was, now) -> story.getChildren().set(0, now ? largeHeatmap : timeline));

        votePanel = new VotePanel(model);
        follow();
        screen = new ScaledScreen(this, DESIGN_W, DESIGN_H);
        screen.setId("presenter-screen");
        // The timeline's canvas holds as many pixels as the screen shows, so it stays crisp when scaled.
        screen.scaleProperty().addListener(o -> timeline.requestLayout());
    }

    /** The title, then how many lanes are shown, guided mode and its pace, the step reached and the verdict's badge. */
    private HBox header() {
        // The title takes the room the position and the badge leave, and wraps rather than being cut.
        title.getStyleClass().add("presenter-title");
        title.setId("presenter-title");
        title.setWrapText(true);
        title.setMinWidth(0);
        title.setMinHeight(Region.USE_PREF_SIZE);
        title.setMaxWidth(Double.MAX_VALUE);
        HBox.setHgrow(title, Priority.ALWAYS);
        position.getStyleClass().add("presenter-position");
        position.setId("presenter-position");
        position.setMinWidth(Region.USE_PREF_SIZE);
        badge.getStyleClass().add("presenter-badge");
        badge.setId("presenter-verdict");
        badge.setMinWidth(Region.USE_PREF_SIZE);
        lanesShown.getStyleClass().add("presenter-position");
        lanesShown.setId("presenter-lanes");
        lanesShown.setMinWidth(Region.USE_PREF_SIZE);
        lanesShown.managedProperty().bind(lanesShown.textProperty().isNotEmpty());
        Region spacer = new Region();
        HBox.setHgrow(spacer, Priority.ALWAYS);
        guided.getStyleClass().add("presenter-guided");
        guided.setId("presenter-guided");
        guided.setMinWidth(Region.USE_PREF_SIZE);
        HBox header = new HBox(20, title, spacer, lanesShown, guided, position, badge);
        header.setAlignment(Pos.CENTER_LEFT);
        header.getStyleClass().add("presenter-header");
        header.setPadding(new Insets(10, 24, 10, 24));
        return header;
    }

    /** The verdict in words under the header, taking no room while it says nothing. */
    private Label verdictWords() {
        verdictWords.getStyleClass().add("presenter-verdict-words");
        verdictWords.setId("presenter-verdict-words");
        verdictWords.setWrapText(true);
        verdictWords.setMinHeight(Region.USE_PREF_SIZE);
        verdictWords.setMaxWidth(Double.MAX_VALUE);
        verdictWords.setPadding(new Insets(0, 24, 6, 24));
        verdictWords.managedProperty().bind(verdictWords.textProperty().isNotEmpty());
        return verdictWords;
    }

    /**
     * The question stands beside the timeline, never over it or below it: the lanes it asks
     * about keep the whole height, and the timeline narrows while it is asked.
     */
    private void styleQuestion() {
        question.getStyleClass().add("presenter-question");
        question.setId("presenter-question");
        question.setPrefWidth(QUESTION_WIDTH);
        question.setMinWidth(QUESTION_WIDTH);
        question.setMaxWidth(QUESTION_WIDTH);
        question.setPadding(new Insets(12, 18, 12, 18));
    }

    /** The current story step: its number, then its text in large type. */
    private HBox step() {
        stepNumber.getStyleClass().add("presenter-step-number");
        stepNumber.setMinWidth(Region.USE_PREF_SIZE);
        stepText.getStyleClass().add("presenter-step");
        stepText.setId("presenter-step");
        stepText.setWrapText(true);
        stepText.setMinHeight(Region.USE_PREF_SIZE);
        HBox step = new HBox(18, stepNumber, stepText);
        step.setAlignment(Pos.TOP_LEFT);
        return step;
    }

    /**
     * The console's status line is hidden here, so what it says (a key refused, a live run that
     * cannot go back) shows under the step for a few seconds: every key press shows something.
     */
    private Label notice() {
        notice.getStyleClass().add("presenter-notice");
        notice.setId("presenter-notice");
        notice.setWrapText(true);
        notice.setMinHeight(Region.USE_PREF_SIZE);
        notice.managedProperty().bind(notice.visibleProperty());
        notice.setVisible(false);
        PauseTransition noticeShown = new PauseTransition(NOTICE_SHOWN);
        noticeShown.setOnFinished(e -> notice.setVisible(false));
        model.messageProperty().addListener((o, was, now) -> {
            notice.setText(now == null ? "" : now);
            notice.setVisible(now != null && !now.isBlank());
            noticeShown.playFromStart();
        });
        return notice;
    }

    /** Shows the step, guided mode and the verdict now, and again whenever what they show changes. */
    private void follow() {
        LessonModel lesson = model.lesson();
        for (Observable o : new Observable[] {lesson.steps(), lesson.currentStepProperty(), lesson.questionProperty(),
                lesson.questionStepProperty(), lesson.pickProperty(), lesson.workshopProperty(), lesson.lessonProperty(),
                model.votes().countsProperty(),
                model.scenarioProperty()}) {
            o.addListener(x -> showStep());
        }
        RunModel run = model.main();
        for (Observable o : new Observable[] {lesson.guidedProperty(), run.phaseProperty(), model.speedProperty(),
                model.fastestProperty(), lesson.questionProperty()}) {
            o.addListener(x -> showGuided());
        }
        showGuided();
        for (Observable o : new Observable[] {run.judgementProperty(), run.phaseProperty(), run.eventCountProperty()}) {
            o.addListener(x -> showVerdict());
        }
        showStep();
        showVerdict();
    }

    /** The width and height the presenter is laid out for; a larger screen draws it larger. */
    static final double DESIGN_W = 1280;
    static final double DESIGN_H = 720;

    /** What to put on the screen: this view, scaled to fill whatever size it is given. */
    public Region screen() {
        return screen;
    }

    /** How many times larger than designed the presenter is drawn on its screen. */
    double screenScale() {
        return screen == null ? 1 : screen.scaleProperty().get();
    }

    /** The timeline's height in the presenter's layout (before the screen's scale). */
    double timelineHeight() {
        return timeline.height();
    }

    /** The renderer the presenter's timeline draws with (tests read its text size). */
    TimelineRenderer renderer() {
        return timeline.renderer();
    }

    public Canvas canvas() {
        return timeline.canvas();
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
            stepText.setText(StoryView.shown(current.text()));
        }
        question.getChildren().clear();
        LessonModel.QuestionState state = lesson.questionProperty().get();
        // The question on screen, not the current step's: a revealed answer stays until the next Continue.
        Question q = lesson.shownQuestion();
        boolean shown = q != null;
        question.setVisible(shown);
        question.setManaged(shown);
        if (shown) {
            boolean revealed = state == LessonModel.QuestionState.REVEALED;
            int pick = lesson.pickProperty().get();
            VoteTally.Counts counted = VotePanel.countsOf(model, q);
            VoteTally.Counts votes = counted != null && counted.total() > 0 ? counted : null;
            Label ask = new Label(StoryView.shown(q.ask()));
            ask.setWrapText(true);
            ask.setMinHeight(Region.USE_PREF_SIZE);
            ask.getStyleClass().add("presenter-ask");
            question.getChildren().add(ask);
            for (int i = 0; i < q.choices().size(); i++) {
                // The room's pick (keys 1 to 6) is marked in words too, not by colour alone.
                Label c = new Label(Question.letter(i) + "   " + StoryView.shown(q.choices().get(i))
                        + (i == pick ? "   ◀ the room" : ""));
                c.setWrapText(true);
                c.setMinHeight(Region.USE_PREF_SIZE);
                c.getStyleClass().add("presenter-choice");
                if (i == pick) {
                    c.getStyleClass().add("presenter-choice-picked");
                }
                if (revealed) {
                    c.getStyleClass().add(i == q.answer() ? "presenter-choice-right" : "presenter-choice-wrong");
                    if (votes != null) {
                        // The room's votes under each choice: the chart is the choices themselves.
                        c.setGraphic(VotePanel.bar(votes, i, i == q.answer()));
                        c.setContentDisplay(ContentDisplay.BOTTOM);
                    }
                }
                question.getChildren().add(c);
            }
            if (revealed) {
                Label why = new Label(StoryView.shown(q.why()));
                why.setWrapText(true);
                why.setMinHeight(Region.USE_PREF_SIZE);
                why.getStyleClass().add("presenter-why");
                question.getChildren().add(why);
                if (votes != null) {
                    question.getChildren().add(VotePanel.total(votes));
                }
            } else {
                question.getChildren().add(votePanel);
            }
        }
    }

    /** "Guided", and whether the run plays or waits for Continue (each key press shows here), and its speed. */
    private void showGuided() {
        LessonModel lesson = model.lesson();
        RunPhase phase = model.main().phase();
        String pace = model.fastestProperty().get() ? "max" : speedText(model.speedProperty().get()) + "×";
        // Short, so the header keeps room for the title; ▶ and ■ (not ⏸, which the font may lack).
        String state = phase == RunPhase.PLAYING ? "▶ " + pace : phase.isOver() ? "ended" : "■ " + pace;
        guided.setText(lesson.guidedProperty().get() ? "Guided " + state : state);
    }

    private static String speedText(double speed) {
        return speed == Math.rint(speed) ? Long.toString((long) speed) : Double.toString(speed);
    }

    /**
     * The badge and the words render one judgement: the one the timeline on screen was drawn with,
     * of exactly the events it shows ({@link RunModel#judgementProperty()}). So the badge, the words
     * and the lanes change together, never one a frame before the others. The words are worked out
     * again only when what they say can change.
     */
    private void showVerdict() {
        RunModel run = model.main();
        Judgement j = run.judgement();
        Verdict v = j.verdict();
        boolean started = run.eventCountProperty().get() > 0;
        RunPhase phase = run.phase();
        boolean failedSafe = v.isSafe() && phase == RunPhase.FAILED; // never SAFE: nothing after the failure was tested
        badge.setText(!started ? "not run yet" : failedSafe ? "FAILED" : v.isSafe() ? "SAFE" : "VIOLATED");
        Styles.choose(badge, BADGES, !started || failedSafe ? "presenter-none" : v.isSafe() ? "presenter-safe"
                : "presenter-violated");
        if (!started) {
            verdictWords.setText("");
            told = null;
            return;
        }
        // The verdict's headline as the report tells it; while the run goes on only once it is decided.
        boolean decided = phase.isOver() || !v.isSafe();
        List<Object> key = List.of(v.witnesses().size(), decided, j.end().getClass(), j.finalStateJudged());
        if (key.equals(told)) {
            return;
        }
        told = key;
        if (decided) {
            verdictWords.setText(StoryView.shown(VerdictText.headline(judged(run.events().snapshot(), j), j)));
        } else {
            verdictWords.setText("");
        }
    }

    /** The first events of {@code events} (in seq order), those {@code j} judged. */
    static List<Event> judged(List<Event> events, Judgement j) {
        long last = j.end().lastSeq();
        int lo = 0;
        int hi = events.size();
        while (lo < hi) {
            int mid = (lo + hi) >>> 1;
            if (events.get(mid).seq() <= last) {
                lo = mid + 1;
            } else {
                hi = mid;
            }
        }
        return events.subList(0, lo);
    }
}
