package io.fencelab.scenarios;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;

/**
 * Reads workshop files. Every problem, a lesson naming no scenario or one whose file is wrong
 * included, ends in a {@link ScenarioException} naming file, line and field.
 */
public final class WorkshopLoader {

    static final List<String> TOP = List.of("title", "summary", "lessons");
    static final List<String> LESSON = List.of("scenario", "kind", "minutes", "notes");

    /** The workshop the catalog ships. */
    public static final String SHIPPED = Catalog.RESOURCE_DIR + "workshop.yaml";

    private WorkshopLoader() {
    }

    /** The catalog's own workshop; its lessons are catalog scenarios. */
    public static Workshop shipped() {
        try (InputStream in = WorkshopLoader.class.getClassLoader().getResourceAsStream(SHIPPED)) {
            if (in == null) {
                throw new IllegalStateException("the shipped workshop " + SHIPPED + " is missing from the build");
            }
            return parse("workshop.yaml", new String(in.readAllBytes(), StandardCharsets.UTF_8),
                    name -> Catalog.shipped().source(name));
        } catch (IOException e) {
            throw new IllegalStateException("cannot read the shipped workshop " + SHIPPED, e);
        }
    }

    /**
     * A workshop file. A lesson's scenario is a file relative to the workshop's directory if there is
     * one, else a catalog name.
     */
    public static Workshop load(Path file) {
        // Read as a scenario file is: what is wrong with the path is said ("no such file", "is a directory").
        String text = ScenarioLoader.read(file, file.toString());
        Path dir = file.toAbsolutePath().getParent();
        return parse(file.toString(), text, name -> {
            Path beside = dir.resolve(name);
            return Files.isRegularFile(beside) ? ScenarioSource.ofFile(beside) : Catalog.shipped().source(name);
        });
    }

    /** Whether {@code text} is a workshop rather than a scenario: its top level has {@code lessons}. */
    public static boolean looksLikeWorkshop(String text) {
        return text.lines().anyMatch(l -> l.startsWith("lessons:"));
    }

    /**
     * Parses {@code text}; {@code scenarios} finds a lesson's scenario by the name written (throwing
     * {@link ScenarioException} if there is none).
     */
    static Workshop parse(String file, String text, Function<String, ScenarioSource> scenarios) {
        Problems problems = new Problems(file);
        ValueReader read = new ValueReader(problems);
        YamlNode root = YamlTree.parse(text, problems);
        if (root == null) {
            problems.add(YamlNode.Mark.START, "", "the file is empty; a workshop needs title and lessons");
        }
        problems.throwIfAny();
        Fields top = read.fields(root, "", TOP);
        problems.throwIfAny();
        String title = top.requiredText("title", "title: Fencing tokens in 45 minutes");
        String summary = top.text("summary", "");
        List<Workshop.Lesson> lessons = new ArrayList<>();
        YamlNode lessonsNode = top.required("lessons", "lessons: [{scenario: paused-holder, minutes: 10}]");
        List<YamlNode> items = lessonsNode == null ? List.of() : read.list(lessonsNode, "lessons", "lessons");
        if (lessonsNode != null && items != null && items.isEmpty()) {
            read.problem(lessonsNode, "lessons", "needs at least one lesson");
        }
        for (int i = 0; items != null && i < items.size(); i++) {
            String path = "lessons[" + i + "]";
            Fields f = read.fields(items.get(i), path, LESSON);
            if (f == null) {
                continue;
            }
            String source = f.requiredName("scenario", "scenario: paused-holder");
            Workshop.Kind kind = f.choice("kind", Workshop.Kind.class, Workshop.Kind.STORY);
            Long minutes = f.has("minutes") ? f.integer("minutes", 10, 1, 240, false) : Long.valueOf(10);
            String notes = f.text("notes", "");
            if (source == null) {
                continue;
            }
            ScenarioSource scenarioFile;
            Scenario scenario;
            try {
                scenarioFile = scenarios.apply(source);
                scenario = scenarioFile.compile();
            } catch (ScenarioException e) {
                String why = e.problems().size() == 1 && e.problems().getFirst().line() == 0
                        ? e.problems().getFirst().message()
                        : "the scenario has problems:\n  " + String.join("\n  ",
                                e.problems().stream().map(Problem::toString).toList());
                read.problem(f.node("scenario"), f.path("scenario"), Texts.abbreviate(source) + ": " + why);
                continue;
            }
            if (kind == Workshop.Kind.SWEEP && scenarioFile.suggestedSweep().isEmpty()) {
                read.problem(f.node("kind"), f.path("kind"), "sweep needs a scenario that suggests one "
                        + "(a `# fencelab tune NAME --vary …` line, as the tuning scenarios have); "
                        + Texts.abbreviate(source) + " does not");
                continue;
            }
            if (kind != null && minutes != null) {
                lessons.add(new Workshop.Lesson(source, scenarioFile, scenario, kind, minutes.intValue(), notes,
                        items.get(i).mark().line()));
            }
        }
        problems.throwIfAny();
        return new Workshop(ScenarioLoader.scenarioName(Path.of(file).getFileName().toString()), title, summary,
                lessons);
    }
}
