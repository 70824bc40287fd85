package io.fencelab.app.console.control;

import io.fencelab.app.console.model.ConsoleModel;
import io.fencelab.app.console.model.LessonModel;
import io.fencelab.app.console.model.WorkshopProgress;
import io.fencelab.app.console.run.Problems;
import io.fencelab.scenarios.Catalog;
import io.fencelab.scenarios.ScenarioException;
import io.fencelab.scenarios.Workshop;
import io.fencelab.scenarios.WorkshopLoader;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * A workshop in the console: opens the shipped one or a workshop file as a lesson list, shows the
 * lesson chosen (a story lesson on the timeline as a catalog pick would; a sweep lesson in the Tune
 * view with the scenario's suggested sweep), moves to the next or previous lesson, and counts the
 * time spent on each lesson from the frame loop's clock.
 */
public final class WorkshopController {

    private static final long SECOND = 1_000_000_000L;

    private final ConsoleModel model;
    private final ScenarioController scenarios;
    private final TuneController tune;
    /** Frame time not yet counted as a whole second; -1 before the first frame after opening. */
    private long lastNanos = -1;
    private long pendingNanos;

    public WorkshopController(ConsoleModel model, ScenarioController scenarios, TuneController tune) {
        this.model = model;
        this.scenarios = scenarios;
        this.tune = tune;
        // However the presenter view is turned on (F5, the menu), the teacher's notes come with it.
        model.lesson().presenterProperty().addListener((o, was, now) -> {
            if (now) {
                model.lesson().teacherProperty().set(true);
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

    /** Opens a workshop file; its problems (file:line:column) are shown in place, the lesson on show unchanged. */
    public void openFile(Path file) {
        try {
            open(WorkshopLoader.load(file));
        } catch (ScenarioException e) {
            long lines = e.getMessage().lines().count();
            model.scenarioProblemProperty().set(file.getFileName() + " is not a valid workshop (" + lines
                    + (lines == 1 ? " problem" : " problems") + "):\n" + e.getMessage());
        } catch (RuntimeException e) {
            model.scenarioProblemProperty().set(file.getFileName() + ": " + Problems.reason(e));
        }
    }

    private void open(Workshop workshop) {
        LessonModel lesson = model.lesson();
        lesson.progress().reset(workshop.lessons().size());
        lesson.lessonProperty().set(-1);
        lesson.workshopProperty().set(workshop);
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
        model.lesson().lessonProperty().set(index);
        boolean catalog = model.catalog().stream().anyMatch(e -> e.name().equals(lesson.source()))
                && !isFile(lesson.file().file());
        if (catalog) {
            scenarios.select(lesson.source());
        } else {
            scenarios.showLesson(lesson.scenario(), lesson.file().file());
        }
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

    /** The teacher's window open or closed. */
    public void setTeacher(boolean open) {
        model.lesson().teacherProperty().set(open);
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
