package io.fencelab.app.console;

import static io.fencelab.app.console.ConsoleFx.fx;
import static io.fencelab.app.console.ConsoleFx.fxRun;
import static io.fencelab.app.console.ConsoleFx.waitUntil;
import static org.assertj.core.api.Assertions.assertThat;

import io.fencelab.app.console.model.LessonModel;
import io.fencelab.app.console.model.RunPhase;
import io.fencelab.engine.event.Event;
import io.fencelab.scenarios.Workshop;
import javafx.geometry.Bounds;
import javafx.geometry.Point2D;
import javafx.scene.Node;
import javafx.scene.canvas.Canvas;
import org.junit.jupiter.api.Test;

/**
 * The desk's question (the console, not the presenter view) stands in a column beside the timeline:
 * at every question of every simulated shipped lesson, at 1280 × 720, it covers neither the timeline
 * nor the lane of the holder the step tells, and the timeline keeps most of the width.
 * Screenshots: target/screenshots/desk-question-LESSON-STEP.png.
 */
class DeskQuestionTest extends ConsoleTestBase {

    @Test
    void theQuestionNeverCoversTheLanesOfTheHoldersItsStepNames() {
        waitForDatabase();
        ConsoleFx.openShippedWorkshopAt1280x720(console);
        fxRun(() -> {
            console.workshop().setPresenter(false);
            console.workshop().setTeacher(false);
        });
        Workshop workshop = fx(() -> console.model().lesson().workshopProperty().get());
        LessonModel lesson = fx(() -> console.model().lesson());
        int checked = forEachStoryLesson(workshop, index -> {
            int asked = 0;
            if (!fx(() -> console.model().capabilitiesProperty().get().seek())) {
                return 0; // a live lesson cannot seek to its question; the column's place does not depend on the run
            }
            String name = fx(() -> console.model().scenario().name());
            fxRun(() -> console.lesson().setGuided(true));
            int steps = fx(() -> lesson.steps().size());
            for (int s = 0; s < steps; s++) {
                int step = s;
                if (!fx(() -> lesson.steps().get(step).asks())) {
                    continue;
                }
                fxRun(() -> console.lesson().seek(step));
                waitUntil("the run stopped at step " + (step + 1), 60, () -> lesson.currentStep() == step
                        && (main().phase() == RunPhase.PAUSED || main().phase().isOver()));
                fxRun(() -> {
                    lesson.questionStepProperty().set(step);
                    lesson.questionProperty().set(LessonModel.QuestionState.ASKING);
                });
                ConsoleFx.frames();
                String where = name + " step " + (step + 1);
                Node column = fx(() -> console.scene().lookup("#question-column"));
                assertThat(fx(column::isVisible)).as("the question's column at %s", where).isTrue();
                Bounds panel = fx(() -> column.localToScene(column.getBoundsInLocal()));
                Canvas canvas = fx(() -> console.view().timeline().canvas());
                Bounds lanes = fx(() -> canvas.localToScene(canvas.getBoundsInLocal()));
                assertThat(overlap(panel, lanes)).as("the question at %s (%s) over the timeline (%s)", where,
                        panel, lanes).isFalse();
                assertThat(panel.getWidth()).as("the question's column's width at %s", where).isGreaterThan(250.0);
                assertThat(lanes.getWidth()).as("the timeline's width beside the question at %s", where)
                        .isGreaterThan(panel.getWidth());
                // The lane of the holder whose event the step tells: a band the canvas's width wide at its mark.
                Event told = fx(() -> main().events().bySeq(lesson.reached().get(step).throughSeq()));
                Point2D mark = told == null ? null : fx(() -> console.view().timeline().canvasPointOf(told.seq()));
                if (mark != null) {
                    Point2D at = fx(() -> canvas.localToScene(mark));
                    Bounds lane = new javafx.geometry.BoundingBox(lanes.getMinX(), at.getY() - 12, lanes.getWidth(), 24);
                    assertThat(overlap(panel, lane)).as("the question at %s over the lane of %s (%s)", where,
                            told.holder(), lane).isFalse();
                    assertThat(lanes.contains(at)).as("the told event's mark inside the timeline at %s", where).isTrue();
                }
                fxRun(() -> lesson.questionProperty().set(LessonModel.QuestionState.REVEALED));
                ConsoleFx.frames();
                Bounds revealed = fx(() -> column.localToScene(column.getBoundsInLocal()));
                Bounds lanesNow = fx(() -> canvas.localToScene(canvas.getBoundsInLocal()));
                assertThat(overlap(revealed, lanesNow)).as("the revealed answer at %s over the timeline", where).isFalse();
                ConsoleFx.screenshot(console.scene().getRoot(), "desk-question-" + name + "-" + (step + 1));
                fxRun(() -> console.lesson().clearQuestion());
                ConsoleFx.frames();
                assertThat(fx(column::isVisible)).as("the column once the question is cleared, at %s", where).isFalse();
                asked++;
            }
            return asked;
        });
        assertThat(checked).as("questions checked on the desk across the shipped lessons").isGreaterThanOrEqualTo(3);
    }

    /** Whether two boxes share any area (touching edges do not count). */
    private static boolean overlap(Bounds a, Bounds b) {
        return a.getMinX() < b.getMaxX() && b.getMinX() < a.getMaxX() && a.getMinY() < b.getMaxY()
                && b.getMinY() < a.getMaxY();
    }
}
