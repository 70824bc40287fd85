package io.fencelab.app;

import static org.assertj.core.api.Assertions.assertThat;

import io.fencelab.app.cli.ExitCodes;
import io.fencelab.engine.db.Database;
import io.fencelab.testing.EmbeddedDatabase;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

@ExtendWith(EmbeddedDatabase.class)
class DemoCommandTest {

    @Test
    void theDemoTellsThePausedHolderStoryWithAndWithoutFencing(Database db) {
        Cli.Result result = run("demo", "--jdbc-url", db.jdbcUrl());

        assertThat(result.exit()).isEqualTo(ExitCodes.OK);
        String[] halves = result.out().split("Without fencing", 2);
        assertThat(halves).as("a fenced telling, then an unfenced one").hasSize(2);
        assertThat(halves[0]).as("with fencing")
                .contains("Fencelab: The paused holder (catalog scenario paused-holder)")
                .contains("    0.0s  A acquires the lease on \"report\": token 41, expires at 30.0s")
                .contains("   31.0s  B acquires the lease on \"report\": token 42")
                .contains("   45.0s  A resumes and writes report-1 with token 41 -> REJECTED as stale (report-1 already accepted token 42)")
                .contains("  report-1 holds B's write (token 42). The resource refused the stale holder.");
        assertThat(halves[1]).as("without fencing")
                .contains("   45.0s  A resumes and writes report-1 with token 41 -> ACCEPTED over newer work (report-1 already held token 42)")
                .contains("  report-1 holds A's write (token 41), not B's newer one (token 42). The stale holder's write overwrote newer work.")
                .doesNotContain("REJECTED");
    }

    @Test
    void theReadmeQuotesTheDemoAsItRuns(Database db) throws IOException {
        String readme = Files.readString(Path.of("..", "README.md"));
        Matcher quoted = Pattern.compile("```text\n(With fencing.*?)```", Pattern.DOTALL).matcher(readme);
        assertThat(quoted.find()).as("README.md quotes the demo in a text block starting 'With fencing'").isTrue();

        Cli.Result result = run("demo", "--jdbc-url", db.jdbcUrl());

        assertThat(result.out()).as("the demo's output, quoted in README.md").contains(quoted.group(1));
    }

    @Test
    void anUnreachableDatabaseIsOneClearLineAndExitCodeThree() {
        Cli.Result result = run("demo", "--jdbc-url", "jdbc:postgresql://127.0.0.1:1/none?password=hunter2&connectTimeout=2");

        assertThat(result.exit()).isEqualTo(ExitCodes.RUN_INCOMPLETE);
        assertThat(result.err()).startsWith("fencelab: could not connect to jdbc:postgresql://127.0.0.1:1/none")
                .doesNotContain("hunter2")
                .doesNotContain("\tat ");
    }

    @Test
    void anUnknownOptionIsAUsageErrorWithExitCodeTwo() {
        Cli.Result result = run("demo", "--no-such-option");

        assertThat(result.exit()).isEqualTo(ExitCodes.BAD_INPUT);
        assertThat(result.err()).contains("Unknown option: '--no-such-option'");
    }

    private static Cli.Result run(String... args) {
        return Cli.run(args);
    }
}
