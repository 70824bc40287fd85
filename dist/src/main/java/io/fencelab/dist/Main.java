package io.fencelab.dist;

import io.fencelab.app.cli.FencelabCommand;
import io.fencelab.bench.ConsoleBenchCommand;
import io.fencelab.bench.CoreBenchCommand;
import io.fencelab.bench.EventBenchCommand;
import io.fencelab.bench.RunBenchCommand;
import io.fencelab.bench.TuneBenchCommand;
import picocli.CommandLine;

/**
 * Entry point of the {@code fencelab} program: the app's command line with the benchmarks added as
 * {@code bench-*} subcommands. They are named here, one by one, rather than looked up at run time,
 * so the whole program is what this file says.
 */
public final class Main {

    private Main() {
    }

    public static void main(String[] args) {
        System.exit(commandLine().execute(args));
    }

    /** Every command of the program, configured as the app configures its own (one-line errors, exit codes). */
    public static CommandLine commandLine() {
        CommandLine cli = new CommandLine(new FencelabCommand());
        cli.addSubcommand(new CoreBenchCommand());
        cli.addSubcommand(new RunBenchCommand());
        cli.addSubcommand(new EventBenchCommand());
        cli.addSubcommand(new ConsoleBenchCommand());
        cli.addSubcommand(new TuneBenchCommand());
        return FencelabCommand.configure(cli);
    }
}
