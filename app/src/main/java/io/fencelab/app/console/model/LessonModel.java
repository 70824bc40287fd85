package io.fencelab.app.console.model;

import io.fencelab.scenarios.StoryStep;
import io.fencelab.scenarios.StoryTracker;
import io.fencelab.scenarios.Workshop;
import javafx.beans.property.BooleanProperty;
import javafx.beans.property.IntegerProperty;
import javafx.beans.property.ObjectProperty;
import javafx.beans.property.SimpleBooleanProperty;
import javafx.beans.property.SimpleIntegerProperty;
import javafx.beans.property.SimpleObjectProperty;
import javafx.collections.FXCollections;
import javafx.collections.ObservableList;

/**
 * The lesson being taught: the scenario's story steps and how far the run has told them, whether
 * guided mode stops at each step, the state of the current step's question, and the workshop (if
 * one is open) with the lesson being taught. State only; the lesson's controller changes it and the
 * views (the story panel, the presenter view, the teacher's window) bind to it.
 */
public final class LessonModel {

    /** Where the current step's question is: none, on screen waiting for the room, or answered. */
    public enum QuestionState { NONE, ASKING, REVEALED }

    private final ObservableList<StoryStep> steps = FXCollections.observableArrayList();
    private final ObservableList<StoryTracker.Reached> reached = FXCollections.observableArrayList();
    private final IntegerProperty currentStep = new SimpleIntegerProperty(this, "currentStep", -1);
    private final BooleanProperty guided = new SimpleBooleanProperty(this, "guided");
    private final ObjectProperty<QuestionState> question = new SimpleObjectProperty<>(this, "question",
            QuestionState.NONE);
    private final IntegerProperty questionStep = new SimpleIntegerProperty(this, "questionStep", -1);
    private final IntegerProperty pick = new SimpleIntegerProperty(this, "pick", -1);
    private final BooleanProperty presenter = new SimpleBooleanProperty(this, "presenter");
    private final ObjectProperty<Workshop> workshop = new SimpleObjectProperty<>(this, "workshop");
    private final IntegerProperty lesson = new SimpleIntegerProperty(this, "lesson", -1);
    private final BooleanProperty teacher = new SimpleBooleanProperty(this, "teacher");
    private final WorkshopProgress progress = new WorkshopProgress();
    private final IntegerProperty screens = new SimpleIntegerProperty(this, "screens", 1);
    private final BooleanProperty heatmap = new SimpleBooleanProperty(this, "heatmap");

    /** The story's steps of the scenario shown (empty before one is chosen). */
    public ObservableList<StoryStep> steps() {
        return steps;
    }

    /** The steps the run shown has reached, in order: a prefix of {@link #steps()}. */
    public ObservableList<StoryTracker.Reached> reached() {
        return reached;
    }

    /** The step being told (0-based), -1 before the first is reached. */
    public IntegerProperty currentStepProperty() {
        return currentStep;
    }

    public int currentStep() {
        return currentStep.get();
    }

    /** The current step, or null. */
    public StoryStep current() {
        int i = currentStep.get();
        return i >= 0 && i < steps.size() ? steps.get(i) : null;
    }

    /** Whether the run stops at each step and waits for Continue. */
    public BooleanProperty guidedProperty() {
        return guided;
    }

    public ObjectProperty<QuestionState> questionProperty() {
        return question;
    }

    /** The step whose question is on screen (0-based; it stays on screen, revealed, past its step), -1 when none. */
    public IntegerProperty questionStepProperty() {
        return questionStep;
    }

    /** The question on screen, or null. */
    public io.fencelab.scenarios.Question shownQuestion() {
        int i = questionStep.get();
        return question.get() == QuestionState.NONE || i < 0 || i >= steps.size() ? null : steps.get(i).question();
    }

    /** The choice the room picked (0-based, marked by a key while the question is asked), -1 when none. */
    public IntegerProperty pickProperty() {
        return pick;
    }

    /** Whether the presenter view (large type, for a projector) is showing. */
    public BooleanProperty presenterProperty() {
        return presenter;
    }

    /** The open workshop, or null. */
    public ObjectProperty<Workshop> workshopProperty() {
        return workshop;
    }

    /** The workshop's lesson being taught (0-based), -1 when none. */
    public IntegerProperty lessonProperty() {
        return lesson;
    }

    /** Whether the teacher's window (step list, notes, next question, lesson list) is open. */
    public BooleanProperty teacherProperty() {
        return teacher;
    }

    /**
     * How many screens the computer has (the view keeps it up to date). With one, the room sees
     * whatever is on it: the teacher's window then opens only when asked for, never over a
     * question, and shows no answer.
     */
    public IntegerProperty screensProperty() {
        return screens;
    }

    /** Whether the room's screen shares the computer's only screen with the teacher's window. */
    public boolean oneScreen() {
        return screens.get() < 2;
    }

    /** Whether the presenter view shows the sweep's heatmap in place of the timeline (a sweep lesson). */
    public BooleanProperty heatmapProperty() {
        return heatmap;
    }

    /** Time spent on each lesson of the open workshop, and the lessons done. */
    public WorkshopProgress progress() {
        return progress;
    }
}
