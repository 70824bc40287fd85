package io.fencelab.bench;

import io.fencelab.app.cli.CommandPlugin;
import java.util.List;

/** The benchmarks as {@code fencelab bench-*} subcommands. */
public final class BenchCommands implements CommandPlugin {

    @Override
    public List<Object> commands() {
        return List.of(new CoreBenchCommand(), new RunBenchCommand(), new EventBenchCommand(), new ConsoleBenchCommand(),
                new TuneBenchCommand());
    }
}
