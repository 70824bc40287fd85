package io.fencelab.app;

import static org.assertj.core.api.Assertions.assertThat;

import io.fencelab.app.cli.ExitCodes;
import io.fencelab.engine.db.Database;
import io.fencelab.testing.EmbeddedDatabase;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

@ExtendWith(EmbeddedDatabase.class)
class DemoCommandTest {

    @Test
    void theDemoTellsThePausedHolderStoryWithAndWithoutFencing(Database db) {
        Cli.Result result = run("demo", "--jdbc-url", db.jdbcUrl());

        assertThat(result.exit()).isEqualTo(ExitCodes.OK);
        assertThat(result.out())
                .contains("A acquires the lease on \"report\": token 41")
                .contains("B acquires the lease: token 42")
                .contains("A resumes and writes with token 41 -> REJECTED as stale (the report already accepted token 42)")
                .contains("The report holds B's report (token 42)")
                .contains("The report holds A's older result (token 41). A's stale write overwrote B's newer work.");
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
