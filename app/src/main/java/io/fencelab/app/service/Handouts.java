package io.fencelab.app.service;

import io.fencelab.engine.db.Database;
import io.fencelab.engine.event.Event;
import io.fencelab.engine.event.EventLogReader;
import io.fencelab.engine.fence.FencingMode;
import io.fencelab.engine.run.Backend;
import io.fencelab.engine.run.Run;
import io.fencelab.engine.run.RunResult;
import io.fencelab.engine.run.RunSpec;
import io.fencelab.report.Handout;
import io.fencelab.report.HandoutFiles;
import io.fencelab.scenarios.Catalog;
import io.fencelab.scenarios.Problem;
import io.fencelab.scenarios.Scenario;
import io.fencelab.scenarios.ScenarioException;
import io.fencelab.scenarios.ScenarioSource;
import io.fencelab.scenarios.StoryCheck;
import io.fencelab.scenarios.Workshop;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * Runs lessons and has their handouts written ({@link HandoutFiles}): one page per lesson, and for a
 * workshop an {@code index.html} listing them in order. One wiring for {@code fencelab handout} and the
 * console's Export. Every lesson is run (simulated runs on the in-memory backend, which gives the
 * same log as PostgreSQL; live runs on PostgreSQL) and its story checked before any file is
 * written: a step its run never reaches is a located {@link ScenarioException}, and nothing is
 * written.
 */
public final class Handouts {

    /** The pages written, in lesson order, and the workshop's index (null for a single scenario). */
    public record Written(List<Path> pages, Path index) {
        public Written {
            pages = List.copyOf(pages);
        }

        /** The page to open first. */
        public Path first() {
            return index != null ? index : pages.getFirst();
        }
    }

    private Handouts() {
    }

    /** The handout of one scenario, {@code argument} a catalog name or a file, written as {@code DIR/NAME.html}. */
    public static Written scenario(Database db, String argument, Path dir, Handout.Options options)
            throws IOException, InterruptedException {
        ScenarioSource source = Catalog.shipped().source(argument);
        Scenario scenario = source.compile();
        Workshop.Lesson lesson = new Workshop.Lesson(argument, source, scenario, Workshop.Kind.STORY, 0, "", 0);
        Handout.Lesson ready = prepare(db, List.of(lesson), null).getFirst();
        return new Written(List.of(HandoutFiles.scenario(ready, dir, options)), null);
    }

    /**
     * The handouts of {@code workshop} ({@code file} how messages name its file): {@code DIR/NN-NAME.html}
     * per lesson and {@code DIR/index.html}.
     */
    public static Written workshop(Database db, Workshop workshop, String file, Path dir, Handout.Options options)
            throws IOException, InterruptedException {
        List<Handout.Lesson> lessons = prepare(db, workshop.lessons(), file);
        List<Path> pages = HandoutFiles.workshop(workshop, lessons, dir, options);
        return new Written(pages, dir.resolve(HandoutFiles.INDEX));
    }

    /**
     * Runs each lesson and checks its story against the run as written; every problem of every lesson
     * is collected before any is reported. {@code workshopFile} names the workshop in messages (null
     * for a scenario on its own).
     */
    static List<Handout.Lesson> prepare(Database db, List<Workshop.Lesson> lessons, String workshopFile)
            throws IOException, InterruptedException {
        List<Handout.Lesson> ready = new ArrayList<>();
        List<Problem> problems = new ArrayList<>();
        Path logs = Files.createTempDirectory("fencelab-handout");
        try {
            for (int i = 0; i < lessons.size(); i++) {
                Workshop.Lesson lesson = lessons.get(i);
                Scenario scenario = lesson.scenario();
                RunSpec written = scenario.spec();
                Handout.Ran asWritten = run(db, written, logs.resolve(i + "-written.jsonl"));
                for (Problem p : StoryCheck.unreached(scenario, lesson.file().file(), asWritten.events())) {
                    problems.add(workshopFile == null ? p : new Problem(p.file(), p.line(), p.column(), p.path(),
                            p.message() + " (lesson " + (i + 1) + " of " + workshopFile + ")"));
                }
                Handout.Ran other = lesson.kind() == Workshop.Kind.SWEEP ? null
                        : run(db, written.withFencing(Handout.counterpart(written.fencing())), logs.resolve(i + "-other.jsonl"));
                boolean writtenFenced = other == null || written.fencing() == FencingMode.FENCED;
                ready.add(new Handout.Lesson(lesson, workshopFile == null ? 0 : i + 1, lessons.size(),
                        argument(lesson), writtenFenced ? asWritten : other, writtenFenced ? other : asWritten));
            }
        } finally {
            deleteAll(logs);
        }
        if (!problems.isEmpty()) {
            throw new ScenarioException(problems);
        }
        return ready;
    }

    /** What {@code fencelab run} is given to run the lesson again: the catalog name, or the file. */
    private static String argument(Workshop.Lesson lesson) {
        String name = lesson.source().strip();
        return Catalog.shipped().names().contains(name) && !Files.isRegularFile(Path.of(name))
                ? name : lesson.file().file();
    }

    private static Handout.Ran run(Database db, RunSpec spec, Path log) throws IOException, InterruptedException {
        RunResult result;
        try (Run run = Run.prepare(db, spec, log, Backend.fastestFor(spec))) {
            result = run.runToEnd();
        }
        List<Event> events = EventLogReader.read(result.eventLog());
        return new Handout.Ran(spec, result, events);
    }

    private static void deleteAll(Path dir) throws IOException {
        try (var files = Files.list(dir)) {
            for (Path f : files.toList()) {
                Files.deleteIfExists(f);
            }
        }
        Files.deleteIfExists(dir);
    }
}
