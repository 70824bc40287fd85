package io.fencelab.app.cli;

import io.fencelab.app.console.ConsoleLauncher;
import io.fencelab.engine.db.DatabaseException;
import io.fencelab.engine.files.FileProblem;
import io.fencelab.scenarios.ScenarioException;
import io.fencelab.scenarios.WorkshopLoader;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.util.Optional;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * {@code fencelab}: with no subcommand, opens the console (on the embedded PostgreSQL unless
 * {@code --jdbc-url} or {@code FENCELAB_JDBC_URL} says otherwise). Without a display, without the
 * GTK 3 library on Linux, or when JavaFX cannot start its window toolkit, it says so in one line
 * (with what to install) and tells the paused-holder story headless instead.
 */
@Command(name = "fencelab",
        mixinStandardHelpOptions = true,
        version = "Fencelab 0.1.0",
        description = "A lab for seeing, teaching and testing fencing tokens.",
        subcommands = {ListCommand.class, RunCommand.class, CheckCommand.class, ValidateCommand.class, DemoCommand.class,
                TuneCommand.class, CalibrateCommand.class, HandoutCommand.class, SoakCommand.class, ProbeCommand.class, AgentHostCommand.class, AgentCommand.class, CommandLine.HelpCommand.class})
public final class FencelabCommand implements Callable<Integer> {

    @Mixin
    DatabaseOptions database;

    @Spec
    CommandSpec spec;

    @Option(names = "--workshop", arity = "0..1", fallbackValue = "", paramLabel = "FILE",
            description = "Open a workshop as a lesson list: FILE (a workshop.yaml), or without FILE the shipped "
                    + "45-minute workshop. See docs/WORKSHOP.md.")
    String workshop;

    @Override
    public Integer call() {
        if (workshop != null && !workshop.isEmpty()) {
            // A bad workshop file is told here, located, before any window opens.
            WorkshopLoader.load(Path.of(workshop));
        }
        Optional<String> obstacle = ConsoleLauncher.obstacle();
        if (obstacle.isPresent()) {
            return demoInstead(obstacle.get());
        }
        try {
            ConsoleLauncher.launch(database.resolve(), "paused-holder", workshop);
        } catch (ConsoleLauncher.NoWindowException e) {
            return demoInstead(e.getMessage());
        }
        return ExitCodes.OK;
    }

    /** Says in one line why there is no window, then tells the paused-holder story in the terminal. */
    private Integer demoInstead(String why) {
        PrintWriter err = spec.commandLine().getErr();
        err.println("fencelab: " + why + ", so here is the headless demo instead.");
        err.flush();
        return new DemoCommand().withDatabase(database).withOut(spec.commandLine().getOut()).call();
    }

    /** The app's command line on its own (the benchmarks are added by {@code io.fencelab.dist.Main}). */
    public static void main(String[] args) {
        System.exit(commandLine().execute(args));
    }

    /** The app's configured command line: user errors become one clear line and exit code 2, never a stack trace. */
    public static CommandLine commandLine() {
        return configure(new CommandLine(new FencelabCommand()));
    }

    /**
     * Configures {@code cli} (this command with whatever subcommands a module above the app added to
     * it) as {@link #commandLine()} is. Call it after the last subcommand is added: picocli copies
     * settings such as case-insensitive enums only to subcommands that are already there.
     */
    public static CommandLine configure(CommandLine cli) {
        // As scenario files do: --fencing unfenced is UNFENCED.
        cli.setCaseInsensitiveEnumValuesAllowed(true);
        cli.setExecutionExceptionHandler((e, commandLine, parseResult) -> {
            if (e instanceof ScenarioException bad) {
                // Already one "file:line:column: field: problem" line per problem.
                commandLine.getErr().println(bad.getMessage());
                return ExitCodes.BAD_INPUT;
            }
            if (e instanceof io.fencelab.engine.fence.SqlFenceException bad) {
                // The user's SQL, located in its scenario file: one line, before any worker started.
                commandLine.getErr().println(bad.getMessage());
                return ExitCodes.BAD_INPUT;
            }
            if (e instanceof IOException || e instanceof UncheckedIOException) {
                commandLine.getErr().println("fencelab: " + fileProblem(e));
                // A full disk is no fault of the input: the work could not complete.
                return FileProblem.isNoSpace(e) ? ExitCodes.RUN_INCOMPLETE : ExitCodes.BAD_INPUT;
            }
            commandLine.getErr().println("fencelab: " + e.getMessage());
            if (e instanceof DatabaseException) {
                return ExitCodes.RUN_INCOMPLETE;
            }
            if (e instanceof IllegalArgumentException) {
                return ExitCodes.BAD_INPUT;
            }
            throw e;
        });
        return cli;
    }

    /**
     * A file error in one line. An {@link UncheckedIOException} made with a message of its own (which
     * already words the cause) keeps it; one that only wraps its cause is worded from the cause.
     */
    private static String fileProblem(Exception e) {
        if (e instanceof IOException io) {
            return FileProblem.of(io);
        }
        UncheckedIOException unchecked = (UncheckedIOException) e;
        IOException cause = unchecked.getCause();
        boolean onlyWraps = unchecked.getMessage() == null || unchecked.getMessage().equals(cause.toString())
                || unchecked.getMessage().equals(cause.getMessage());
        return onlyWraps ? FileProblem.of(unchecked) : unchecked.getMessage();
    }
}
