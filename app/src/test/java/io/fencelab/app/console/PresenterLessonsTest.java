package io.fencelab.app.console;

import static io.fencelab.app.console.ConsoleFx.fx;
import static io.fencelab.app.console.ConsoleFx.fxRun;
import static io.fencelab.app.console.ConsoleFx.waitUntil;
import static org.assertj.core.api.Assertions.assertThat;

import io.fencelab.app.console.model.LessonModel;
import io.fencelab.app.console.model.RunPhase;
import io.fencelab.app.console.workshop.PresenterViews;
import io.fencelab.engine.check.Judgement;
import io.fencelab.engine.check.SafetyChecker;
import io.fencelab.engine.check.WriteClass;
import io.fencelab.engine.event.Event;
import io.fencelab.report.ResourceLane;
import io.fencelab.report.VerdictText;
import io.fencelab.scenarios.StoryStep;
import io.fencelab.scenarios.Workshop;
import java.util.ArrayList;
import java.util.List;
import javafx.geometry.Bounds;
import javafx.scene.Node;
import javafx.scene.Parent;
import javafx.scene.control.Label;
import javafx.scene.control.Labeled;
import javafx.scene.text.Text;
import javafx.stage.Stage;
import org.junit.jupiter.api.Test;

/**
 * The presenter view at 1280 × 720 through every step of every shipped lesson: one judgement on
 * screen (the badge, the verdict's words, the desk's verdict and the checker run offline on the
 * events shown all agree), no text under 18 px, headers whole, the question beside the lanes it asks
 * about, the axis fitted to the events, and the resource lane showing the token the row holds.
 * Screenshots: target/screenshots/presenter-LESSON-STEP.png.
 */
class PresenterLessonsTest extends ConsoleTestBase {

    private Workshop openShippedPresenting() {
        waitForDatabase();
        fxRun(() -> {
            Stage stage = (Stage) console.scene().getWindow();
            stage.setWidth(1280);
            stage.setHeight(720);
            console.workshop().openShipped();
            console.workshop().setPresenter(true);
            console.workshop().setTeacher(false);
        });
        waitUntil("the presenter view is showing", 10, () -> console.view().presenter().getScene() != null);
        return fx(() -> console.model().lesson().workshopProperty().get());
    }

    private LessonModel lesson() {
        return console.model().lesson();
    }

    /** The run is paused at {@code step}, and the judgement the presenter renders covers every event shown. */
    private void waitAtStep(int step) {
        // A step at the run's end (RunEnded) stops it for good rather than pausing it.
        waitUntil("the run stopped at step " + (step + 1), 60, () -> lesson().currentStep() == step
                && (main().phase() == RunPhase.PAUSED || main().phase().isOver()) && caughtUp(), () -> "at step " + lesson().currentStep()
                + ", " + main().phase());
        ConsoleFx.frames();
    }

    private boolean caughtUp() {
        return main().events().size() > 0 && main().judgement().end().lastSeq() == main().events().last().seq();
    }

    @Test
    void badgeWordsAndCheckerAgreeAtEveryStepOfEveryShippedLesson() {
        Workshop workshop = openShippedPresenting();
        int checked = forEachStoryLesson(workshop, index -> {
            String name = fx(() -> console.model().scenario().name());
            if (!fx(() -> console.model().capabilitiesProperty().get().seek())) {
                // A live lesson cannot seek: it is played to its end and judged there.
                fxRun(() -> {
                    console.lesson().setGuided(false);
                    console.runs().play();
                });
                waitUntil(name + " has ended", 60, () -> main().phase().isOver() && caughtUp());
                ConsoleFx.frames();
                assertOneJudgement(name + " at its end");
                assertNothingUnder18Px(name + " at its end");
                assertThat(fx(() -> PresenterViews.lanesFit(console.view().presenter())))
                        .as("the lanes of the crowded live run that are shown fit the timeline").isTrue();
                assertThat(fx(() -> ((Label) console.scene().lookup("#presenter-lanes")).getText()))
                        .as("the header says how many holder lanes are shown").matches("\\d+ of \\d+ holders");
                ConsoleFx.screenshot(console.scene().getRoot(), "presenter-" + name + "-end");
                int asks = fx(() -> {
                    for (int i = 0; i < lesson().steps().size(); i++) {
                        if (lesson().steps().get(i).asks()) {
                            return i;
                        }
                    }
                    return -1;
                });
                fxRun(() -> {
                    lesson().questionStepProperty().set(asks);
                    lesson().questionProperty().set(LessonModel.QuestionState.REVEALED);
                });
                ConsoleFx.frames();
                assertQuestionBesideTheLanes(name + "'s question at its end");
                assertNothingUnder18Px(name + "'s question at its end");
                ConsoleFx.screenshot(console.scene().getRoot(), "presenter-" + name + "-end-question");
                fxRun(() -> console.lesson().clearQuestion());
                return 1;
            }
            fxRun(() -> console.lesson().setGuided(true));
            int count = fx(() -> lesson().steps().size());
            int steps = 0;
            for (int s = 0; s < count; s++) {
                int step = s;
                fxRun(() -> console.lesson().seek(step));
                waitAtStep(step);
                assertOneJudgement(name + " step " + (step + 1));
                assertNothingUnder18Px(name + " step " + (step + 1));
                StoryStep told = fx(() -> lesson().current());
                if (told.asks()) {
                    fxRun(() -> {
                        lesson().questionStepProperty().set(step);
                        lesson().questionProperty().set(LessonModel.QuestionState.ASKING);
                    });
                    ConsoleFx.frames();
                    assertQuestionBesideTheLanes(name + " step " + (step + 1));
                    ConsoleFx.screenshot(console.scene().getRoot(), "presenter-" + name + "-" + (step + 1) + "-ask");
                    fxRun(() -> lesson().questionProperty().set(LessonModel.QuestionState.REVEALED));
                    ConsoleFx.frames();
                    assertQuestionBesideTheLanes(name + " step " + (step + 1) + " revealed");
                    assertNothingUnder18Px(name + " step " + (step + 1) + " revealed");
                }
                ConsoleFx.screenshot(console.scene().getRoot(), "presenter-" + name + "-" + (step + 1));
                fxRun(() -> console.lesson().clearQuestion());
                steps++;
            }
            return steps;
        });
        assertThat(checked).as("steps checked across the shipped lessons").isGreaterThan(20);
    }

    /**
     * The badge, the verdict's words and the desk's verdict say what the checker says of the events
     * on screen, judged again offline from them alone.
     */
    private void assertOneJudgement(String where) {
        List<Event> shown = fx(() -> main().events().snapshot());
        Judgement offline = SafetyChecker.judgement(shown);
        boolean over = fx(() -> main().phase().isOver());
        String badge = fx(() -> ((Label) console.scene().lookup("#presenter-verdict")).getText());
        String words = fx(() -> ((Label) console.scene().lookup("#presenter-verdict-words")).getText());
        Judgement rendered = fx(() -> main().judgement());
        if (!over) {
            assertThat(badge).as("the badge at %s (the checker, offline, on the %d events shown)", where, shown.size())
                    .isEqualTo(offline.isSafe() ? "SAFE" : "VIOLATED");
            assertThat(fx(() -> main().verdict().isSafe())).as("the desk's verdict at %s", where)
                    .isEqualTo(offline.isSafe());
        } else {
            assertThat(badge).as("the badge at %s", where).isEqualTo(rendered.isSafe() ? "SAFE" : "VIOLATED");
            assertThat(rendered.isSafe() || !offline.isSafe()).as("a violation the events show at %s", where).isTrue();
        }
        assertThat(rendered.verdict().witnesses()).as("the judgement the presenter renders at %s", where)
                .hasSameSizeAs(over ? rendered.verdict().witnesses() : offline.verdict().witnesses());
        if (!offline.isSafe() || over) {
            String headline = VerdictText.headline(shown, over ? rendered : offline).replace("`", "");
            assertThat(words).as("the verdict's words at %s", where).isEqualTo(headline);
            if (badge.equals("SAFE")) {
                assertThat(words).as("the words under a SAFE badge at %s", where).doesNotStartWith("Unsafe")
                        .doesNotContain("overwrote");
            } else {
                assertThat(words).as("the words under a VIOLATED badge at %s", where).doesNotStartWith("Safe")
                        .containsAnyOf("Unsafe", "overwrote", "stale", "violat");
            }
        } else {
            assertThat(words).as("no words before anything is decided, at %s", where).isEmpty();
        }
    }

    private void assertNothingUnder18Px(String where) {
        List<String> small = fx(() -> ConsoleFx.textUnder18Px(console.view().presenter()));
        assertThat(small).as("text under 18 px in the presenter view at %s (node: size)", where).isEmpty();
        assertThat(fx(() -> PresenterViews.smallestCanvasTextPx(console.view().presenter())))
                .as("the smallest font the presenter's timeline has").isGreaterThanOrEqualTo(18.0);
        assertThat(fx(() -> PresenterViews.smallestDrawnTextPx(console.view().presenter())))
                .as("the smallest text the presenter's timeline drew at %s", where).isGreaterThanOrEqualTo(18.0);
        List<String> cut = fx(() -> {
            List<String> found = new ArrayList<>();
            collectCutText(console.view().presenter(), found);
            return found;
        });
        assertThat(cut).as("labels cut short in the presenter view at %s", where).isEmpty();
    }

    /** The question panel does not lie over the timeline, and every lane fits the timeline's height. */
    private void assertQuestionBesideTheLanes(String where) {
        Node question = fx(() -> console.scene().lookup("#presenter-question"));
        Bounds panel = fx(() -> question.localToScene(question.getBoundsInLocal()));
        Node canvas = fx(() -> console.view().presenter().canvas());
        Bounds lanes = fx(() -> canvas.localToScene(canvas.getBoundsInLocal()));
        boolean overlap = panel.getMinX() < lanes.getMaxX() && lanes.getMinX() < panel.getMaxX()
                && panel.getMinY() < lanes.getMaxY() && lanes.getMinY() < panel.getMaxY();
        assertThat(overlap).as("the question at %s (%s) over the timeline (%s)", where, panel, lanes)
                .isFalse();
        assertThat(fx(() -> PresenterViews.lanesFit(console.view().presenter())))
                .as("every lane, down to the last resource's marks, inside the timeline at %s", where).isTrue();
        double contentBottom = fx(() -> {
            javafx.scene.layout.Region column = (javafx.scene.layout.Region) question;
            double bottom = 0;
            for (Node child : column.getChildrenUnmodifiable()) {
                bottom = Math.max(bottom, child.getBoundsInParent().getMaxY());
            }
            return bottom;
        });
        assertThat(contentBottom).as("the question's text inside its column at %s", where)
                .isLessThanOrEqualTo(panel.getHeight());
        assertThat(panel.getMaxY()).as("the question's column inside the window at %s", where)
                .isLessThanOrEqualTo(720.0);
    }

    /**
     * On a projector at 1920 × 1080 the presenter fills the screen: its content reaches every edge,
     * everything is drawn 1.5 times larger (text included, so nothing under 18 px on screen), and the
     * timeline's canvas has the screen's pixels rather than being blown up as a bitmap. Checked at the
     * first question of every simulated lesson, asked and revealed, and at the live lesson's end.
     */
    @Test
    void fillsA1920By1080ScreenAndDrawsEverythingLarger() {
        Workshop workshop = openShippedPresenting();
        fxRun(() -> {
            Stage stage = (Stage) console.scene().getWindow();
            stage.setWidth(1920);
            stage.setHeight(1080);
        });
        waitUntil("the scene is 1920 × 1080", 10, () -> console.scene().getWidth() == 1920
                && console.scene().getHeight() == 1080);
        ConsoleFx.frames();
        assertThat(fx(() -> PresenterViews.screenScale(console.view().presenter())))
                .as("how much larger than its 1280 × 720 design the presenter is drawn at 1920 × 1080").isEqualTo(1.5);
        int checked = forEachStoryLesson(workshop, index -> {
            String name = fx(() -> console.model().scenario().name());
            int asks = fx(() -> {
                for (int i = 0; i < lesson().steps().size(); i++) {
                    if (lesson().steps().get(i).asks()) {
                        return i;
                    }
                }
                return 0;
            });
            String where;
            if (fx(() -> console.model().capabilitiesProperty().get().seek())) {
                fxRun(() -> {
                    console.lesson().setGuided(true);
                    console.lesson().seek(asks);
                });
                waitAtStep(asks);
                where = name + "-" + (asks + 1);
            } else {
                fxRun(() -> {
                    console.lesson().setGuided(false);
                    console.runs().play();
                });
                waitUntil(name + " has ended", 60, () -> main().phase().isOver() && caughtUp());
                where = name + "-end";
            }
            boolean question = fx(() -> lesson().steps().get(asks).asks());
            if (question) {
                fxRun(() -> {
                    lesson().questionStepProperty().set(asks);
                    lesson().questionProperty().set(LessonModel.QuestionState.ASKING);
                });
            }
            ConsoleFx.frames();
            assertFillsTheScreen(where);
            ConsoleFx.screenshot(console.scene().getRoot(), "presenter-1080-" + where);
            if (question) {
                fxRun(() -> lesson().questionProperty().set(LessonModel.QuestionState.REVEALED));
                ConsoleFx.frames();
                assertFillsTheScreen(where + " revealed");
                ConsoleFx.screenshot(console.scene().getRoot(), "presenter-1080-" + where + "-revealed");
            }
            fxRun(() -> console.lesson().clearQuestion());
            return 1;
        });
        assertThat(checked).as("shipped story lessons shown at 1920 × 1080").isGreaterThanOrEqualTo(4);
    }

    /** The presenter reaches the screen's four edges, its text is 18 px or more on screen, its canvas crisp. */
    private void assertFillsTheScreen(String where) {
        double w = fx(() -> console.scene().getWidth());
        double h = fx(() -> console.scene().getHeight());
        Node presenter = fx(() -> console.view().presenter());
        Bounds shown = fx(() -> presenter.localToScene(presenter.getBoundsInLocal()));
        assertThat(shown.getMinX()).as("the presenter's left edge at %s", where).isLessThanOrEqualTo(3.0);
        assertThat(shown.getMinY()).as("the presenter's top edge at %s", where).isLessThanOrEqualTo(3.0);
        assertThat(shown.getMaxX()).as("the presenter's right edge at %s (screen %s wide)", where, w)
                .isBetween(w - 3, w + 0.5);
        assertThat(shown.getMaxY()).as("the presenter's bottom edge at %s (screen %s high)", where, h)
                .isBetween(h - 3, h + 0.5);
        // What is drawn there reaches the edges too: the header's dark band the top and both sides,
        // the step's band (or the question's column) the bottom.
        Node title = fx(() -> console.scene().lookup("#presenter-title"));
        Bounds header = fx(() -> title.getParent().localToScene(title.getParent().getBoundsInLocal()));
        assertThat(header.getMinX()).as("the header's left at %s", where).isLessThanOrEqualTo(3.0);
        assertThat(header.getMaxX()).as("the header's right at %s", where).isGreaterThanOrEqualTo(w - 3);
        Node step = fx(() -> console.scene().lookup("#presenter-step"));
        Bounds bottom = fx(() -> step.getParent().getParent().localToScene(step.getParent().getParent().getBoundsInLocal()));
        assertThat(bottom.getMaxY()).as("the step's band's bottom at %s", where).isGreaterThanOrEqualTo(h - 3);
        double scale = fx(() -> PresenterViews.screenScale(console.view().presenter()));
        List<String> small = fx(() -> ConsoleFx.textUnder18Px(console.view().presenter()));
        assertThat(small).as("text under 18 px in the presenter's design at %s", where).isEmpty();
        assertThat(fx(() -> PresenterViews.smallestDrawnTextPx(console.view().presenter())) * scale)
                .as("the smallest text the timeline drew, in screen pixels, at %s", where).isGreaterThanOrEqualTo(27.0);
        Node canvas = fx(() -> console.view().presenter().canvas());
        Bounds onScreen = fx(() -> canvas.localToScene(canvas.getBoundsInLocal()));
        double pixels = fx(() -> console.view().presenter().canvas().getWidth());
        assertThat(pixels).as("the timeline's canvas pixels across at %s (it shows %s screen pixels)", where,
                onScreen.getWidth()).isCloseTo(onScreen.getWidth(), org.assertj.core.data.Offset.offset(2.0));
        assertThat(fx(() -> PresenterViews.lanesFit(console.view().presenter())))
                .as("every lane inside the timeline at %s", where).isTrue();
    }

    @Test
    void theRowLaneShowsTheTokenTheRowHoldsAfterAnUnfencedOverwrite() {
        Workshop workshop = openShippedPresenting();
        int unfenced = -1;
        for (int l = 0; l < workshop.lessons().size(); l++) {
            if (workshop.lessons().get(l).scenario().name().equals("paused-holder-unfenced")) {
                unfenced = l;
            }
        }
        int index = unfenced;
        fxRun(() -> console.workshop().choose(index));
        waitUntil("the lesson is prepared", 60, () -> main().phase() == RunPhase.PAUSED);
        fxRun(() -> console.lesson().setGuided(true));
        int last = fx(() -> lesson().steps().size() - 1);
        fxRun(() -> console.lesson().seek(last));
        waitAtStep(last);
        List<Event> shown = fx(() -> main().events().snapshot());
        Event.WriteAccepted overwrite = shown.stream().filter(e -> e instanceof Event.WriteAccepted)
                .map(e -> (Event.WriteAccepted) e).reduce((a, b) -> b).orElseThrow();
        assertThat(fx(() -> main().judgement().classOf(overwrite.seq()))).as("the last accepted write")
                .isEqualTo(WriteClass.STALE_OVERWRITE);
        ResourceLane row = fx(() -> main().timeline().resources().getFirst());
        assertThat(fx(() -> PresenterViews.heldTokenAtEnd(row))).as("the token the row lane shows at the end")
                .isEqualTo(overwrite.token()).isEqualTo(41L);
        ConsoleFx.screenshot(console.scene().getRoot(), "presenter-unfenced-row-holds-41");
    }

    /** Labels whose text is shown cut short (an ellipsis the label added). */
    private static void collectCutText(Node node, List<String> found) {
        if (!node.isVisible()) {
            return;
        }
        if (node instanceof Labeled l && !l.getText().isEmpty()) {
            for (Node child : l.getChildrenUnmodifiable()) {
                if (child instanceof Text t && !t.getText().equals(l.getText()) && t.getText().endsWith(l.getEllipsisString())) {
                    found.add(l.getText() + " shown as " + t.getText());
                }
            }
        }
        if (node instanceof Parent p) {
            for (Node child : p.getChildrenUnmodifiable()) {
                collectCutText(child, found);
            }
        }
    }
}
