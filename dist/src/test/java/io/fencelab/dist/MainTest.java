package io.fencelab.dist;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.PrintWriter;
import java.io.StringWriter;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;

class MainTest {

    @Test
    void theProgramHasTheAppsCommandsAndEveryBenchmark() {
        CommandLine cli = Main.commandLine();

        assertThat(cli.getSubcommands().keySet())
                .as("the app's own subcommands and the benchmarks, wired in dist")
                .contains("list", "run", "check", "validate", "demo", "tune", "handout", "soak", "help")
                .contains("bench-core", "bench-runs", "bench-events", "bench-console", "bench-tune");
    }

    @Test
    void aBenchmarkTakesEnumsAsTheAppsCommandsDoAndTellsABadOptionInOneLine() {
        StringWriter err = new StringWriter();
        CommandLine cli = Main.commandLine();
        cli.setErr(new PrintWriter(err, true));

        int exit = cli.execute("bench-core", "--no-such-option");

        assertThat(exit).as("bad usage, as for any other command").isEqualTo(2);
        assertThat(err.toString()).as("picocli's one-line complaint, no stack trace")
                .contains("--no-such-option").doesNotContain("\tat ");
        assertThat(cli.getSubcommands().get("bench-core").isCaseInsensitiveEnumValuesAllowed())
                .as("configured after the benchmarks were added, so they get the app's settings").isTrue();
    }
}
