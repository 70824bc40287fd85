package io.fencelab.app.console.workshop;

import io.fencelab.app.console.model.ConsoleModel;
import io.fencelab.app.console.model.EventStore;
import io.fencelab.app.console.model.LessonModel;
import io.fencelab.app.console.model.LessonModel.QuestionState;
import io.fencelab.app.console.model.RunModel;
import io.fencelab.app.console.model.RunPhase;
import io.fencelab.app.console.run.RunController;
import io.fencelab.app.console.run.RunSessions;
import io.fencelab.engine.event.Event;
import io.fencelab.scenarios.Question;
import io.fencelab.scenarios.Scenario;
import io.fencelab.scenarios.StoryStep;
import io.fencelab.scenarios.StoryTracker;
import java.util.List;

/**
 * The lesson: the story's steps of the scenario on show, how far the run shown has told them
 * (followed once per frame from the events the console has shown, never event by event), guided
 * mode (the drivers stop at each step: Continue goes on, Back returns to the step before), seeking
 * to a step, and each step's question: asked when guided mode stops at its step, revealed by the
 * next Continue. Changes the {@link LessonModel}; the story panel and the overlays bind to it.
 */
public final class LessonController {

    private final ConsoleModel model;
    private final LessonModel lesson;
    private final RunSessions sessions;
    private final RunController runs;

    /** The run followed, how many of its events the tracker has seen, and the first of them (a restart replaces it). */
    private RunModel followed;
    private int fed;
    private Event first;
    private boolean ended;
    private StoryTracker tracker = new StoryTracker(List.of());

    public LessonController(ConsoleModel model, RunSessions sessions, RunController runs) {
        this.model = model;
        this.lesson = model.lesson();
        this.sessions = sessions;
        this.runs = runs;
        model.scenarioProperty().addListener((o, was, now) -> showSteps(now));
        lesson.guidedProperty().addListener((o, was, now) -> {
            sessions.guide(now);
            if (!now) {
                clearQuestion();
            }
        });
        showSteps(model.scenario());
    }

    private void showSteps(Scenario scenario) {
        List<StoryStep> steps = scenario == null ? List.of() : scenario.notes().steps();
        if (!lesson.steps().equals(steps)) {
            lesson.steps().setAll(steps);
        }
        followed = null;
    }

    // ---- what the user asks for -------------------------------------------------------------------

    public void setGuided(boolean on) {
        lesson.guidedProperty().set(on);
    }

    public void toggleGuided() {
        setGuided(!lesson.guidedProperty().get());
    }

    /**
     * Continue (space, Page Down, a clicker). Outside guided mode: play or pause. In guided mode a
     * question is a state, each press one visible change: a question asked is revealed and the run
     * plays on to the next step, the answer staying on screen however soon that step comes; the
     * next press takes the answer off (a question reached meanwhile is asked then, not before);
     * otherwise the run plays on to the next step (or pauses).
     */
    public void continueLesson() {
        if (!lesson.guidedProperty().get()) {
            runs.togglePlay();
            return;
        }
        switch (lesson.questionProperty().get()) {
            case ASKING -> {
                lesson.questionProperty().set(QuestionState.REVEALED);
                runs.play();
            }
            case REVEALED -> {
                int revealed = lesson.questionStepProperty().get();
                clearQuestion();
                StoryStep now = lesson.current();
                if (now != null && now.asks() && lesson.currentStep() != revealed) {
                    ask(lesson.currentStep());
                }
            }
            case NONE -> runs.togglePlay();
        }
    }

    /** Back (Page Up): to the step before the current one, paused there (before the first: the start). */
    public void back() {
        seek(lesson.currentStep() - 1);
    }

    /** Moves the run to story step {@code step} (0-based), paused there; -1 starts the lesson again. */
    public void seek(int step) {
        if (!model.capabilitiesProperty().get().seek()) {
            model.messageProperty().set(""); // said again on every press, so the presenter view shows each
            model.messageProperty().set("A live run cannot go back or jump to a step: real time does not rewind.");
            return;
        }
        clearQuestion();
        sessions.seek(Math.min(step, lesson.steps().size() - 1));
    }

    /** Marks the room's pick (0-based) for the question being asked. */
    public void pick(int choice) {
        Question q = lesson.shownQuestion();
        if (q != null && lesson.questionProperty().get() == QuestionState.ASKING && choice >= 0
                && choice < q.choices().size()) {
            lesson.pickProperty().set(choice);
        }
    }

    /** The presenter view on or off (F5). */
    public void togglePresenter() {
        lesson.presenterProperty().set(!lesson.presenterProperty().get());
    }

    private void ask(int step) {
        lesson.pickProperty().set(-1);
        lesson.questionStepProperty().set(step);
        lesson.questionProperty().set(QuestionState.ASKING);
    }

    /** Takes the question off the screen. */
    public void clearQuestion() {
        lesson.questionProperty().set(QuestionState.NONE);
        lesson.questionStepProperty().set(-1);
        lesson.pickProperty().set(-1);
    }

    // ---- following the run, once per frame ---------------------------------------------------------

    /** Feeds the story tracker the events shown since the last frame, and moves the lesson on. */
    public void follow() {
        RunModel run = model.focused();
        EventStore events = run.events();
        int size = events.size();
        if (run != followed || size < fed || fed > 0 && events.get(0) != first) {
            restartFollowing(run);
        }
        int before = tracker.count();
        // Once every step is reached (or there are none) the events have nothing left to tell the
        // story: a storm's thousands of events a second are not walked on the FX thread for nothing.
        for (int i = fed; i < size && before < lesson.steps().size(); i++) {
            tracker.accept(events.get(i));
            if (tracker.count() == lesson.steps().size()) {
                break;
            }
        }
        if (fed == 0 && size > 0) {
            first = events.get(0);
        }
        fed = size;
        RunPhase phase = run.phase();
        if (phase.isOver() && !ended && size > 0) {
            ended = true;
            tracker.end(Math.max(run.nowMicrosProperty().get(), events.last().atMicros()));
        }
        if (tracker.count() != before) {
            reached(tracker.reached());
        }
    }

    private void restartFollowing(RunModel run) {
        followed = run;
        fed = 0;
        first = null;
        ended = false;
        tracker = new StoryTracker(List.copyOf(lesson.steps()));
        lesson.reached().clear();
        lesson.currentStepProperty().set(-1);
        clearQuestion();
    }

    private void reached(List<StoryTracker.Reached> reached) {
        lesson.reached().setAll(reached);
        int current = reached.size() - 1;
        lesson.currentStepProperty().set(current);
        StoryStep step = lesson.steps().get(current);
        if (lesson.guidedProperty().get() && step.asks()) {
            // An answer still on screen stays until the next Continue, which asks this one.
            if (lesson.questionProperty().get() != QuestionState.REVEALED) {
                ask(current);
            }
        } else if (lesson.questionProperty().get() == QuestionState.ASKING) {
            // Played past the question without Continue (a seek, a step): it was not answered here.
            clearQuestion();
        }
    }
}
