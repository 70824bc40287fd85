package io.fencelab.app;

import io.fencelab.app.cli.FencelabCommand;
import picocli.CommandLine;

/** Entry point of the {@code fencelab} program. */
public final class Main {
    private Main() {
    }

    public static void main(String[] args) {
        System.exit(FencelabCommand.commandLine().execute(args));
    }
}
