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
import io.fencelab.report.Timeline;
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
        verdictWords.getStyleClass().add("presenter-verdict-words");
        verdictWords.setId("presenter-verdict-words");
        verdictWords.setWrapText(true);
        verdictWords.setMinHeight(Region.USE_PREF_SIZE);
        verdictWords.setMaxWidth(Double.MAX_VALUE);
        verdictWords.setPadding(new Insets(0, 24, 6, 24));
        verdictWords.managedProperty().bind(verdictWords.textProperty().isNotEmpty());
        setTop(new VBox(header, verdictWords));

        timeline = new PresenterTimeline(model, loop, lanesShown, this::screenScale);
        // The question stands beside the timeline, never over it or below it: the lanes it asks
        // about keep the whole height, and the timeline narrows while it is asked.
        question.getStyleClass().add("presenter-question");
        question.setId("presenter-question");
        question.setPrefWidth(QUESTION_WIDTH);
        question.setMinWidth(QUESTION_WIDTH);
        question.setMaxWidth(QUESTION_WIDTH);
        question.setPadding(new Insets(12, 18, 12, 18));
        HBox.setHgrow(timeline, Priority.ALWAYS);
        heatmap = new HeatmapView(model.tune(), point -> { }, loop);
        Region largeHeatmap = ScaledScreen.fixed(heatmap, TimelineRenderer.PRESENTATION);
        largeHeatmap.setId("presenter-heatmap");
        VBox.setVgrow(largeHeatmap, Priority.ALWAYS);

        stepNumber.getStyleClass().add("presenter-step-number");
        stepNumber.setMinWidth(Region.USE_PREF_SIZE);
        stepText.getStyleClass().add("presenter-step");
        stepText.setId("presenter-step");
        stepText.setWrapText(true);
        stepText.setMinHeight(Region.USE_PREF_SIZE);
        HBox step = new HBox(18, stepNumber, stepText);
        step.setAlignment(Pos.TOP_LEFT);
        // The console's status line is hidden here, so what it says (a key refused, a live run that
        // cannot go back) shows under the step for a few seconds: every key press shows something.
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
        VBox bottom = new VBox(12, step, notice);
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
        screen = new ScaledScreen(this, DESIGN_W, DESIGN_H);
        screen.setId("presenter-screen");
        // The timeline's canvas holds as many pixels as the screen shows, so it stays crisp when scaled.
        screen.scaleProperty().addListener(o -> timeline.requestLayout());
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
        return timeline.h;
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

    /**
     * The main run's timeline, drawn large. Paced as the desk's timeline is ({@link RedrawPacing}):
     * a moving playhead moves its layer, and the canvas repaints only when what it shows changed.
     */
    private static final class PresenterTimeline extends Region {
        private final Canvas canvas = new Canvas();
        private final TimelineRenderer renderer = new TimelineRenderer(TimelineRenderer.PRESENTATION);
        private final PlayheadLayer playhead = new PlayheadLayer();
        private final RedrawPacing pacing = new RedrawPacing();
        /** The presenter's own window: from 0 to just past the latest event shown (see {@link #fittedSpan}). */
        private final TimeWindow fit = new TimeWindow();
        private final ConsoleModel model;
        /** Says how many holder lanes are shown when not all fit ("8 of 40 holders"), else empty. */
        private final Label lanes;
        /** The timeline last drawn (its lanes, as {@link #lanesThatFit} chose them). */
        private Timeline drawn;
        /** The timeline's size in layout units, and how many canvas pixels each unit has (the screen's scale). */
        private double w;
        private double h;
        private double px = 1;
        private final java.util.function.DoubleSupplier screenScale;

        PresenterTimeline(ConsoleModel model, FrameLoop loop, Label lanes, java.util.function.DoubleSupplier screenScale) {
            this.model = model;
            this.screenScale = screenScale;
            this.lanes = lanes;
            getStyleClass().add("presenter-timeline");
            getChildren().addAll(canvas, playhead);
            setMinSize(200, 160);
            RunModel run = model.main();
            pacing.follow(run, fit, this::playheadStep);
            loop.addDraw(now -> {
                if (!isVisible() || getScene() == null || w < 10 || h < 10) {
                    return;
                }
                double span = fittedSpan(run);
                if (span != fit.span()) {
                    fit.show(0, span);
                }
                switch (pacing.next(now, run.phase() == RunPhase.PLAYING)) {
                    case REPAINT -> redraw();
                    case MOVE_PLAYHEAD -> movePlayhead();
                    case NOTHING -> { }
                }
            });
        }

        private long playheadStep() {
            double plotPx = Math.max(10, w / TimelineRenderer.PRESENTATION - TimelineRenderer.GUTTER
                    - TimelineRenderer.RIGHT_PAD);
            return (long) Math.floor((model.main().nowMicrosProperty().get() - fit.start()) / fit.span() * plotPx);
        }

        @Override
        protected void layoutChildren() {
            w = Math.floor(getWidth());
            h = Math.floor(getHeight());
            // Scaled up as a bitmap the canvas would blur; it gets the screen's pixels and draws at their scale.
            double scale = screenScale.getAsDouble();
            double cw = Math.ceil(w * scale);
            double ch = Math.ceil(h * scale);
            if (canvas.getWidth() != cw || canvas.getHeight() != ch || px != scale) {
                px = scale;
                canvas.setWidth(cw);
                canvas.setHeight(ch);
                canvas.getTransforms().setAll(new javafx.scene.transform.Scale(1 / px, 1 / px, 0, 0));
                pacing.changed();
            }
            // In drawing units: the layer is scaled as the drawing is, and so covers exactly the timeline.
            playhead.resizeRelocate(0, 0, w / TimelineRenderer.PRESENTATION, h / TimelineRenderer.PRESENTATION);
        }

        void redraw() {
            if (w < 10 || h < 10) {
                return;
            }
            RunModel run = model.main();
            Timeline timeline = lanesThatFit(run.timeline(), h / TimelineRenderer.PRESENTATION);
            drawn = timeline;
            pacing.repainted(timeline != null && timeline.hasOpenSpans());
            javafx.scene.canvas.GraphicsContext g = canvas.getGraphicsContext2D();
            g.save();
            g.scale(px, px);
            renderer.draw(g, w, h,
                    new TimelineRenderer.Frame(timeline, fit.start(), fit.span(), 0, -1,
                            run.focusedWitnessProperty().get(), seq -> {
                                Event e = run.events().bySeq(seq);
                                return e == null ? -1 : e.atMicros();
                            }, 0, run.phase() == RunPhase.IDLE ? "Choose a lesson." : "Press Play.",
                            run.phase().isOver() ? 0 : run.nowMicrosProperty().get()));
            g.restore();
            movePlayhead();
        }

        /**
         * The timeline with as many holder lanes as fit the canvas ({@code height} drawing units) at a
         * readable height, every resource lane kept. A crowded run (forty holders racing) keeps the
         * lanes a room needs at this step: the holder of the event the current story step tells, then
         * the holders in the witnesses (the newest first), then those active most recently; they stay
         * in their usual order. The header says how many are shown.
         */
        Timeline lanesThatFit(Timeline t, double height) {
            if (t == null) {
                lanes.setText("");
                return null;
            }
            int all = t.holders().size();
            double room = height - TimelineRenderer.AXIS - 6 - (t.resources().isEmpty() ? 0
                    : TimelineRenderer.SEPARATOR + t.resources().size() * TimelineRenderer.MIN_RESOURCE_H);
            int fit = Math.max(1, (int) Math.floor(room / READABLE_HOLDER_H));
            if (all <= fit || TimelineRenderer.layoutFor(t, height).contentH() <= height + 1) {
                lanes.setText("");
                return t;
            }
            RunModel run = model.main();
            java.util.LinkedHashSet<String> wanted = new java.util.LinkedHashSet<>();
            LessonModel lesson = model.lesson();
            int step = lesson.currentStep();
            if (step >= 0 && step < lesson.reached().size()) {
                Event told = run.events().bySeq(lesson.reached().get(step).throughSeq());
                if (told != null && told.holder() != null) {
                    wanted.add(told.holder());
                }
            }
            List<io.fencelab.engine.check.Witness> witnesses = t.highlights().witnesses();
            for (int i = witnesses.size() - 1; i >= 0 && wanted.size() < fit; i--) {
                for (long seq : witnesses.get(i).eventSeqs()) {
                    Event e = run.events().bySeq(seq);
                    if (e != null && e.holder() != null && wanted.size() < fit) {
                        wanted.add(e.holder());
                    }
                }
            }
            t.holders().stream().sorted(java.util.Comparator.comparingLong(PresenterTimeline::lastActive).reversed())
                    .limit(fit).forEach(l -> {
                        if (wanted.size() < fit) {
                            wanted.add(l.holder());
                        }
                    });
            List<io.fencelab.report.HolderLane> kept = t.holders().stream().filter(l -> wanted.contains(l.holder()))
                    .toList();
            lanes.setText(kept.size() + " of " + all + " holders");
            return new Timeline(t.runMicros(), kept, t.resources(), t.globalFaults(), t.changes(), t.highlights(),
                    t.bucketMicros());
        }

        /** When a holder's lane last shows anything: its latest span's end or mark. */
        private static long lastActive(io.fencelab.report.HolderLane lane) {
            long last = 0;
            for (io.fencelab.report.Span s : lane.spans()) {
                last = Math.max(last, s.endMicros());
            }
            if (!lane.marks().isEmpty()) {
                last = Math.max(last, lane.marks().getLast().startMicros());
            }
            return last;
        }

        /**
         * How much run time the room's axis shows: from 0 to a round figure (1, 2 or 5 times a power
         * of ten seconds) just past the later of the playhead and the last event shown, and never past
         * the run's end. So a story told in its first second (the random tokens) fills the
         * width, and the axis changes only when the story outgrows it. At least one second.
         */
        static double fittedSpan(RunModel run) {
            long latest = run.nowMicrosProperty().get();
            if (run.events().size() > 0) {
                latest = Math.max(latest, run.events().last().atMicros());
            }
            double wanted = Math.max(1_000_000, latest * 1.08);
            double decade = 1_000_000;
            while (decade * 10 < wanted) {
                decade *= 10;
            }
            double round = wanted <= decade ? decade : wanted <= 2 * decade ? 2 * decade
                    : wanted <= 5 * decade ? 5 * decade : 10 * decade;
            long end = run.endMicrosProperty().get();
            return end > 0 ? Math.min(round, Math.max(end, latest) * 1.02) : round;
        }

        /** The playhead and the tint, on the same layer as the desk's timeline, scaled as the drawing is. */
        private void movePlayhead() {
            pacing.playheadMoved();
            RunModel run = model.main();
            double scale = TimelineRenderer.PRESENTATION;
            playhead.getTransforms().setAll(new javafx.scene.transform.Scale(scale, scale, 0, 0));
            playhead.show(drawn, w / scale, h / scale,
                    fit.start(), fit.span(), run.nowMicrosProperty().get(),
                    run.endMicrosProperty().get(), run.phase().isOver(), 0);
        }
    }
}
