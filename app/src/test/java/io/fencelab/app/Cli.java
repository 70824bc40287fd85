package io.fencelab.app;

import io.fencelab.app.cli.FencelabCommand;
import java.io.PrintWriter;
import java.io.StringWriter;
import picocli.CommandLine;

/** Runs the {@code fencelab} command line in-process and captures what it printed. */
final class Cli {

    record Result(int exit, String out, String err) {}

    private Cli() {
    }

    static Result run(String... args) {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        CommandLine cli = FencelabCommand.commandLine();
        cli.setOut(new PrintWriter(out, true));
        cli.setErr(new PrintWriter(err, true));
        int exit = cli.execute(args);
        return new Result(exit, out.toString(), err.toString());
    }
}
