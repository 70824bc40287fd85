package io.fencelab.app.cli;

import io.fencelab.app.service.StoryRuns;
import io.fencelab.engine.db.Database;
import io.fencelab.scenarios.Problem;
import io.fencelab.scenarios.Scenario;
import io.fencelab.scenarios.ScenarioLoader;
import io.fencelab.scenarios.StoryStep;
import io.fencelab.scenarios.ValidationResult;
import io.fencelab.scenarios.Workshop;
import io.fencelab.scenarios.WorkshopLoader;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/**
 * {@code fencelab validate FILE}: checks a scenario file without running it, or a workshop file, whose
 * story lessons are also run to check that each run reaches every step of its story.
 */
@Command(name = "validate", mixinStandardHelpOptions = true,
        description = {"Check a scenario file: every problem with file, line, column, field and what is allowed.",
                "A workshop file (one with `lessons:`) is checked too, and each of its story lessons is run, as "
                        + "'fencelab run' runs it, to check that the run reaches every step of the lesson's story."},
        footer = {"", "Exit codes: 0 valid, 2 a problem (each printed as file:line:column: field: problem), "
                + "3 a run could not complete (for example the database went away)."})
public final class ValidateCommand implements Callable<Integer> {

    @Parameters(paramLabel = "FILE", description = "The scenario file (YAML or JSON), or a workshop file.")
    Path file;

    @Option(names = "--run", description = "Also run the scenario and check that the run reaches every step of "
            + "its story (a workshop's story lessons are always run).")
    boolean run;

    @Mixin
    DatabaseOptions database = new DatabaseOptions();

    @Spec
    CommandSpec spec;

    @Override
    public Integer call() throws IOException, InterruptedException {
        if (isWorkshop(file)) {
            return workshop();
        }
        ValidationResult result = ScenarioLoader.validate(file);
        PrintWriter err = spec.commandLine().getErr();
        if (!result.valid()) {
            result.messages().forEach(err::println);
            return ExitCodes.BAD_INPUT;
        }
        Scenario scenario = result.scenario();
        PrintWriter out = spec.commandLine().getOut();
        if (!run) {
            out.printf("%s: valid: %s%n", file, scenario.notes().title());
            SetupLines.print(out, scenario.spec());
            return ExitCodes.OK;
        }
        List<Problem> problems;
        try (Database db = Database.open(database.resolve(), 64)) {
            problems = storyProblems(db, scenario, file.toString());
        }
        if (!problems.isEmpty()) {
            problems.forEach(err::println);
            return ExitCodes.BAD_INPUT;
        }
        out.printf("%s: valid: %s; the run reaches %s%n", file, scenario.notes().title(), story(scenario));
        SetupLines.print(out, scenario.spec());
        return ExitCodes.OK;
    }

    /** Loads the workshop (problems end in a located ScenarioException) and runs each story lesson. */
    private int workshop() throws IOException, InterruptedException {
        Workshop workshop = WorkshopLoader.load(file);
        PrintWriter out = spec.commandLine().getOut();
        PrintWriter err = spec.commandLine().getErr();
        List<Problem> problems = new ArrayList<>();
        boolean anyStory = workshop.lessons().stream().anyMatch(l -> l.kind() == Workshop.Kind.STORY);
        try (Database db = anyStory ? Database.open(database.resolve(), 64) : null) {
            for (int i = 0; i < workshop.lessons().size(); i++) {
                Workshop.Lesson lesson = workshop.lessons().get(i);
                String head = String.format(Locale.ROOT, "lesson %d, %s (%s, %d min)", i + 1, lesson.source(),
                        lesson.kind().name().toLowerCase(Locale.ROOT), lesson.minutes());
                if (lesson.kind() == Workshop.Kind.SWEEP) {
                    // The loader has checked that the scenario suggests a sweep; running it is `fencelab tune`'s job.
                    out.printf("%s: %s%n", head, lesson.file().suggestedSweep().orElseThrow().command());
                    continue;
                }
                List<Problem> found = storyProblems(db, lesson.scenario(), lesson.file().file());
                problems.addAll(found);
                out.printf("%s: %s%n", head, found.isEmpty() ? "the run reaches " + story(lesson.scenario())
                        : "the run does not tell the whole story");
            }
        }
        out.flush();
        if (!problems.isEmpty()) {
            problems.forEach(err::println);
            return ExitCodes.BAD_INPUT;
        }
        out.printf(Locale.ROOT, "%s: valid workshop: %s (%d lessons, %d minutes)%n", file, workshop.title(),
                workshop.lessons().size(), workshop.minutes());
        return ExitCodes.OK;
    }

    /** Runs the scenario as written (as {@code fencelab run} does) and says which step its run never reaches. */
    private static List<Problem> storyProblems(Database db, Scenario scenario, String fileName)
            throws IOException, InterruptedException {
        return StoryRuns.unreached(db, scenario, fileName);
    }

    private static String story(Scenario scenario) {
        List<StoryStep> steps = scenario.notes().steps();
        long questions = steps.stream().filter(StoryStep::asks).count();
        return String.format(Locale.ROOT, "all %d steps of the story%s", steps.size(),
                questions == 0 ? "" : questions == 1 ? ", 1 with a question" : ", " + questions + " with questions");
    }

    /** A readable file whose top level has {@code lessons:}; anything else is left to the scenario loader's messages. */
    private static boolean isWorkshop(Path file) {
        try {
            return Files.isRegularFile(file) && WorkshopLoader.looksLikeWorkshop(Files.readString(file));
        } catch (IOException e) {
            return false;
        }
    }
}
