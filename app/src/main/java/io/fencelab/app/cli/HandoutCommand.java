package io.fencelab.app.cli;

import io.fencelab.app.service.Handouts;
import io.fencelab.engine.db.Database;
import io.fencelab.engine.files.FileProblem;
import io.fencelab.report.Handout;
import io.fencelab.scenarios.WorkshopLoader;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/**
 * {@code fencelab handout}: runs a scenario, or every lesson of a workshop, and writes printable
 * handouts (docs/WORKSHOP.md, "Handouts").
 */
@Command(name = "handout", mixinStandardHelpOptions = true,
        description = "Write a printable handout (one HTML page per lesson: the story with its questions, the runs "
                + "with and without fencing, the command to reproduce them, the answers last) for a scenario or a "
                + "workshop.",
        footer = {"", "Exit codes: 0 written, 2 bad input (an unknown lesson, a story step the run never reaches: "
                + "nothing is written), 3 the database could not be used."})
public final class HandoutCommand implements Callable<Integer> {

    /** The argument that names the workshop the catalog ships. */
    static final String SHIPPED_WORKSHOP = "workshop";

    @Parameters(paramLabel = "SCENARIO|WORKSHOP", description = "A catalog scenario name, a scenario file, "
            + "'" + SHIPPED_WORKSHOP + "' (the shipped workshop) or a workshop file.")
    String argument;

    @Option(names = "--out", paramLabel = "DIR", required = true,
            description = "Where to write the pages (created if needed; pages of the same names are replaced).")
    Path out;

    @Option(names = "--paper", paramLabel = "SIZE", defaultValue = "a4",
            description = "Paper the pages are laid out for when printed: a4 (default) or letter.")
    String paper;

    @Option(names = "--teacher", description = "Include the teacher's notes (lesson and step notes).")
    boolean teacher;

    @Mixin
    DatabaseOptions database = new DatabaseOptions();

    @Spec
    CommandSpec spec;

    @Override
    public Integer call() throws Exception {
        FileProblem.requireDirectoryOrAbsent("--out", out);
        Handout.Options options = new Handout.Options(paper(), teacher);
        PrintWriter stdout = spec.commandLine().getOut();
        Handouts.Written written;
        try (Database db = Database.open(database.resolve())) {
            if (argument.equals(SHIPPED_WORKSHOP)) {
                written = Handouts.workshop(db, WorkshopLoader.shipped(), "workshop.yaml", out, options);
            } else if (isWorkshopFile(Path.of(argument))) {
                Path file = Path.of(argument);
                written = Handouts.workshop(db, WorkshopLoader.load(file), file.toString(), out, options);
            } else {
                written = Handouts.scenario(db, argument, out, options);
            }
        }
        written.pages().forEach(p -> stdout.printf("wrote %s%n", p));
        stdout.printf("handout: %s%n", written.first());
        return ExitCodes.OK;
    }

    private Handout.Paper paper() {
        return switch (paper.toLowerCase(Locale.ROOT)) {
            case "a4" -> Handout.Paper.A4;
            case "letter" -> Handout.Paper.LETTER;
            default -> throw new IllegalArgumentException("--paper must be a4 or letter, was '" + paper + "'");
        };
    }

    private static boolean isWorkshopFile(Path path) throws java.io.IOException {
        return Files.isRegularFile(path) && WorkshopLoader.looksLikeWorkshop(Files.readString(path));
    }
}
