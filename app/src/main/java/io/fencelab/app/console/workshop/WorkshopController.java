package io.fencelab.app.console.workshop;

import io.fencelab.app.console.model.ConsoleModel;
import io.fencelab.app.console.model.LessonModel;
import io.fencelab.app.console.model.LessonModel.QuestionState;
import io.fencelab.app.console.model.WorkshopProgress;
import io.fencelab.app.console.run.RunController;
import io.fencelab.app.console.run.RunSessions;
import io.fencelab.app.console.run.ScenarioController;
import io.fencelab.app.console.tune.TuneController;
import io.fencelab.app.console.ui.Problems;
import io.fencelab.app.service.StoryRuns;
import io.fencelab.engine.db.Database;
import io.fencelab.scenarios.Catalog;
import io.fencelab.scenarios.Problem;
import io.fencelab.scenarios.ScenarioException;
import io.fencelab.scenarios.Workshop;
import io.fencelab.scenarios.WorkshopLoader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Collectors;
import javafx.application.Platform;

/**
 * A workshop in the console: opens the shipped one or a workshop file as a lesson list (a file only
 * once every story lesson's run has been seen to reach every step, as {@code fencelab validate}
 * checks), with guided mode on; shows the lesson chosen (a story lesson on the timeline as a
 * catalog pick would, at the speed {@link LessonPace} gives its minutes; a sweep lesson in the Tune
 * view with the scenario's suggested sweep), moves to the next or previous lesson, counts the time
 * spent on each lesson from the frame loop's clock, and keeps the teacher's window where the room
 * cannot read it: with one screen it opens only when asked for, never over a question.
 */
public final class WorkshopController {

    private static final long SECOND = 1_000_000_000L;

    private final ConsoleModel model;
    private final ScenarioController scenarios;
    private final TuneController tune;
    private final RunController runs;
    private final RunSessions sessions;
    /** Frame time not yet counted as a whole second; -1 before the first frame after opening. */
    private long lastNanos = -1;
    private long pendingNanos;

    public WorkshopController(ConsoleModel model, ScenarioController scenarios, TuneController tune,
                              RunController runs, RunSessions sessions) {
        this.model = model;
        this.scenarios = scenarios;
        this.tune = tune;
        this.runs = runs;
        this.sessions = sessions;
        LessonModel lesson = model.lesson();
        // With two screens the teacher's notes come with the presenter view, on the laptop's screen;
        // with one, the presenter view is all there is until the teacher asks for the notes (T).
        lesson.presenterProperty().addListener((o, was, now) -> {
            if (now) {
                lesson.teacherProperty().set(!lesson.oneScreen());
            }
        });
        // On one screen the room sees the teacher's window: it gives way to a question.
        lesson.questionProperty().addListener((o, was, now) -> {
            if (now != QuestionState.NONE && lesson.oneScreen()) {
                lesson.teacherProperty().set(false);
            }
        });
    }

    /** Opens the workshop the catalog ships, at its first lesson. */
    public void openShipped() {
        try {
            open(WorkshopLoader.shipped());
        } catch (RuntimeException e) {
            model.scenarioProblemProperty().set(Problems.describe("the shipped workshop could not be loaded", e));
        }
    }

    /**
     * Opens a workshop file; its problems (file:line:column) are shown in place, the lesson on show
     * unchanged. Every story lesson is run first (on the console's I/O thread, once the database is
     * open), and a step its run never reaches refuses the file with {@code fencelab validate}'s message.
     */
    public void openFile(Path file) {
        Workshop workshop;
        try {
            workshop = WorkshopLoader.load(file);
        } catch (ScenarioException e) {
            refuse(file, e.getMessage());
            return;
        } catch (RuntimeException e) {
            model.scenarioProblemProperty().set(file.getFileName() + ": " + Problems.reason(e));
            return;
        }
        model.scenarioProblemProperty().set("");
        model.messageProperty().set("Checking " + file.getFileName() + ": running each story lesson to see that it "
                + "reaches every step…");
        sessions.withDatabase(db -> {
            if (db == null) {
                model.messageProperty().set(file.getFileName() + " is open, unchecked: without a database its "
                        + "lessons could not be run.");
                open(workshop);
                return;
            }
            sessions.io().execute(() -> {
                String problem;
                try {
                    List<Problem> unreached = StoryRuns.unreached(db, workshop);
                    problem = unreached.stream().map(Problem::toString).collect(Collectors.joining("\n"));
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    return;
                } catch (java.io.IOException | RuntimeException e) {
                    problem = "its lessons could not be run: " + Problems.reason(e);
                }
                String found = problem;
                Platform.runLater(() -> {
                    if (found.isEmpty()) {
                        model.messageProperty().set(file.getFileName() + ": every lesson reaches every step.");
                        open(workshop);
                    } else {
                        model.messageProperty().set("");
                        refuse(file, found);
                    }
                });
            });
        });
    }

    private void refuse(Path file, String problems) {
        long lines = problems.lines().count();
        model.scenarioProblemProperty().set(file.getFileName() + " is not a valid workshop (" + lines
                + (lines == 1 ? " problem" : " problems") + "):\n" + problems);
    }

    private void open(Workshop workshop) {
        LessonModel lesson = model.lesson();
        lesson.progress().reset(workshop.lessons().size());
        lesson.lessonProperty().set(-1);
        lesson.workshopProperty().set(workshop);
        // A workshop is taught step by step: the run stops at each step and at each question.
        lesson.guidedProperty().set(true);
        lastNanos = -1;
        pendingNanos = 0;
        choose(0);
    }

    /** Shows lesson {@code index} (0-based) of the open workshop; the lesson left is counted as done. */
    public void choose(int index) {
        Workshop w = model.lesson().workshopProperty().get();
        if (w == null || index < 0 || index >= w.lessons().size()) {
            return;
        }
        int was = model.lesson().lessonProperty().get();
        if (was >= 0 && was != index) {
            model.lesson().progress().done().add(was);
        }
        Workshop.Lesson lesson = w.lessons().get(index);
        model.lesson().heatmapProperty().set(false);
        model.lesson().lessonProperty().set(index);
        boolean catalog = model.catalog().stream().anyMatch(e -> e.name().equals(lesson.source()))
                && !isFile(lesson.file().file());
        if (catalog) {
            scenarios.select(lesson.source());
        } else {
            scenarios.showLesson(lesson.scenario(), lesson.file().file());
        }
        // A long run plays faster, so it fits the lesson's minutes (the 10-minute run in 10 minutes' lesson).
        runs.setFastest(false);
        runs.setSpeed(LessonPace.speed(lesson.scenario().spec().duration(), lesson.minutes()));
        switch (lesson.kind()) {
            case STORY -> tune.show(false);
            case SWEEP -> {
                tune.chooseScenario(catalog ? lesson.source() : lesson.file().file());
                tune.show(true);
            }
        }
    }

    /** The presenter view on or off; turning it on opens the teacher's window too. */
    public void setPresenter(boolean on) {
        model.lesson().presenterProperty().set(on);
    }

    /**
     * The teacher's window open or closed. With one screen the room sees it, so it does not open
     * while a question is on screen (its answer would be there for all to read).
     */
    public void setTeacher(boolean open) {
        LessonModel lesson = model.lesson();
        if (open && lesson.oneScreen() && lesson.questionProperty().get() != QuestionState.NONE) {
            model.messageProperty().set(""); // said again on every press, so the presenter view shows each
            model.messageProperty().set("The teacher's window opens after the question: with one screen the room "
                    + "would see it.");
            return;
        }
        lesson.teacherProperty().set(open);
    }

    /** The sweep's heatmap in the presenter view in place of the timeline, or the timeline back (H). */
    public void toggleHeatmap() {
        LessonModel lesson = model.lesson();
        Workshop w = lesson.workshopProperty().get();
        int l = lesson.lessonProperty().get();
        boolean sweep = w != null && l >= 0 && w.lessons().get(l).kind() == Workshop.Kind.SWEEP
                || model.tune().shownProperty().get();
        if (!sweep && !lesson.heatmapProperty().get()) {
            model.messageProperty().set("The heatmap is a sweep's: open a sweep lesson (or the Tune view) first.");
            return;
        }
        lesson.heatmapProperty().set(!lesson.heatmapProperty().get());
    }

    public void next() {
        choose(model.lesson().lessonProperty().get() + 1);
    }

    public void previous() {
        choose(model.lesson().lessonProperty().get() - 1);
    }

    /** Closes the workshop (the lesson on show stays). */
    public void close() {
        model.lesson().workshopProperty().set(null);
        model.lesson().lessonProperty().set(-1);
    }

    /** Called every frame: adds the real time passed to the lesson being taught, a second at a time. */
    public void tick(long nowNanos) {
        int current = model.lesson().lessonProperty().get();
        if (model.lesson().workshopProperty().get() == null || current < 0) {
            lastNanos = -1;
            return;
        }
        if (lastNanos >= 0 && nowNanos > lastNanos) {
            pendingNanos += nowNanos - lastNanos;
        }
        lastNanos = nowNanos;
        if (pendingNanos >= SECOND) {
            long whole = pendingNanos / SECOND;
            pendingNanos -= whole * SECOND;
            WorkshopProgress p = model.lesson().progress();
            if (current < p.seconds().size()) {
                p.seconds().set(current, p.seconds().get(current) + whole);
            }
            p.totalSecondsProperty().set(p.totalSecondsProperty().get() + whole);
        }
    }

    private static boolean isFile(String file) {
        try {
            return file != null && !file.startsWith(Catalog.RESOURCE_DIR) && Files.isRegularFile(Path.of(file));
        } catch (RuntimeException e) {
            return false;
        }
    }
}
