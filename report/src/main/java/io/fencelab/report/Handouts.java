package io.fencelab.report;

import io.fencelab.engine.db.Database;
import io.fencelab.engine.event.Event;
import io.fencelab.engine.event.EventLogReader;
import io.fencelab.engine.fence.FencingMode;
import io.fencelab.engine.run.Backend;
import io.fencelab.engine.run.Run;
import io.fencelab.engine.run.RunResult;
import io.fencelab.engine.run.RunSpec;
import io.fencelab.scenarios.Catalog;
import io.fencelab.scenarios.Problem;
import io.fencelab.scenarios.Scenario;
import io.fencelab.scenarios.ScenarioException;
import io.fencelab.scenarios.ScenarioSource;
import io.fencelab.scenarios.StoryCheck;
import io.fencelab.scenarios.Workshop;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * Runs lessons and writes their handouts ({@link Handout}): one page per lesson, and for a workshop
 * an {@code index.html} listing them in order. One wiring for {@code fencelab handout} and the
 * console's Export. Every lesson is run (simulated runs on the in-memory backend, which gives the
 * same log as PostgreSQL; live runs on PostgreSQL) and its story checked before any file is
 * written: a step its run never reaches is a located {@link ScenarioException}, and nothing is
 * written.
 */
public final class Handouts {

    public static final String INDEX = "index.html";

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
        Path page = dir.resolve(scenario.name() + ".html");
        write(Map.of(page, Handout.render(ready, options)), dir);
        return new Written(List.of(page), null);
    }

    /**
     * The handouts of {@code workshop} ({@code file} how messages name its file): {@code DIR/NN-NAME.html}
     * per lesson and {@code DIR/index.html}.
     */
    public static Written workshop(Database db, Workshop workshop, String file, Path dir, Handout.Options options)
            throws IOException, InterruptedException {
        List<Handout.Lesson> lessons = prepare(db, workshop.lessons(), file);
        Map<Path, String> pages = new LinkedHashMap<>();
        List<String> names = new ArrayList<>();
        for (Handout.Lesson l : lessons) {
            String name = String.format(Locale.ROOT, "%02d-%s.html", l.number(), l.lesson().scenario().name());
            names.add(name);
            pages.put(dir.resolve(name), Handout.render(l, options));
        }
        List<Path> written = List.copyOf(pages.keySet());
        Path index = dir.resolve(INDEX);
        pages.put(index, Handout.index(workshop, lessons, names, options));
        write(pages, dir);
        return new Written(written, index);
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

    /** Writes every page, creating {@code dir}: all of them, moved in together, or none. */
    private static void write(Map<Path, String> pages, Path dir) throws IOException {
        List<String> names = pages.keySet().stream().map(p -> p.getFileName().toString()).toList();
        try (StagedDirectory staged = StagedDirectory.open(dir, names)) {
            try {
                for (Map.Entry<Path, String> page : pages.entrySet()) {
                    Files.writeString(staged.staged(page.getKey().getFileName().toString()), page.getValue(),
                            StandardCharsets.UTF_8);
                }
                staged.commit();
            } catch (IOException | RuntimeException e) {
                staged.discard();
                throw e;
            }
        }
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
