package io.fencelab.app.cli;

import io.fencelab.scenarios.ScenarioLoader;
import io.fencelab.scenarios.ValidationResult;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/** {@code fencelab validate FILE}: checks a scenario file without running it. */
@Command(name = "validate", mixinStandardHelpOptions = true,
        description = "Check a scenario file: every problem with file, line, column, field and what is allowed.")
public final class ValidateCommand implements Callable<Integer> {

    @Parameters(paramLabel = "FILE", description = "The scenario file (YAML or JSON).")
    Path file;

    @Spec
    CommandSpec spec;

    @Override
    public Integer call() {
        ValidationResult result = ScenarioLoader.validate(file);
        if (result.valid()) {
            PrintWriter out = spec.commandLine().getOut();
            out.printf("%s: valid: %s%n", file, result.scenario().notes().title());
            return ExitCodes.OK;
        }
        PrintWriter err = spec.commandLine().getErr();
        result.messages().forEach(err::println);
        return ExitCodes.BAD_INPUT;
    }
}
