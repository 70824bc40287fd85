package io.fencelab.app.cli;

import io.fencelab.app.bench.CoreBenchCommand;
import io.fencelab.app.bench.EventBenchCommand;
import io.fencelab.app.bench.RunBenchCommand;
import io.fencelab.engine.db.DatabaseException;
import io.fencelab.scenarios.ScenarioException;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;

/** {@code fencelab}: with no subcommand, tells the paused-holder story (the console will replace this). */
@Command(name = "fencelab",
        mixinStandardHelpOptions = true,
        version = "Fencelab 0.1.0",
        description = "A lab for seeing, teaching and testing fencing tokens.",
        subcommands = {ListCommand.class, RunCommand.class, CheckCommand.class, ValidateCommand.class, DemoCommand.class,
                CoreBenchCommand.class, RunBenchCommand.class, EventBenchCommand.class,
                CommandLine.HelpCommand.class})
public final class FencelabCommand implements Callable<Integer> {

    @Mixin
    DatabaseOptions database;

    @Override
    public Integer call() {
        return new DemoCommand().withDatabase(database).call();
    }

    /** The configured command line: user errors become one clear line and exit code 2, never a stack trace. */
    public static CommandLine commandLine() {
        CommandLine cli = new CommandLine(new FencelabCommand());
        cli.setExecutionExceptionHandler((e, commandLine, parseResult) -> {
            if (e instanceof ScenarioException bad) {
                // Already one "file:line:column: field: problem" line per problem.
                commandLine.getErr().println(bad.getMessage());
                return ExitCodes.BAD_INPUT;
            }
            commandLine.getErr().println("fencelab: " + e.getMessage());
            if (e instanceof DatabaseException) {
                return ExitCodes.RUN_INCOMPLETE;
            }
            if (e instanceof IllegalArgumentException || e instanceof java.io.IOException
                    || e instanceof java.io.UncheckedIOException) {
                return ExitCodes.BAD_INPUT;
            }
            throw e;
        });
        return cli;
    }
}
