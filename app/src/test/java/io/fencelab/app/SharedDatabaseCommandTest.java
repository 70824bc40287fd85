package io.fencelab.app;

import static org.assertj.core.api.Assertions.assertThat;

import io.fencelab.app.cli.ExitCodes;
import io.fencelab.engine.db.Database;
import io.fencelab.engine.db.DatabaseConfig;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * With the console open on the default database, the terminal's commands use the same server
 * (the report: run, tune and soak failed with "could not lock …/epg-lock", exit 3). Processes
 * proper are tried in the engine's SharedEmbeddedServerTest; this is the commands' side.
 */
class SharedDatabaseCommandTest {

    @Test
    void runAndTuneShareTheDatabaseTheConsoleHoldsOpen(@TempDir Path dir) {
        Path data = dir.resolve("pgdata");
        try (Database console = Database.open(DatabaseConfig.embedded(data), 4)) {
            Cli.Result run = Cli.run("run", "paused-holder", "--data-dir", data.toString());
            assertThat(run.exit()).as(run.out() + run.err()).isEqualTo(ExitCodes.OK);

            Cli.Result tune = Cli.run("tune", "paused-holder", "--vary", "lease.ttl=10s,20s", "--seeds", "1",
                    "--backend", "memory", "--out", dir.resolve("sweep").toString(), "--data-dir", data.toString());
            assertThat(tune.exit()).as(tune.out() + tune.err()).isEqualTo(ExitCodes.OK);

            int answer = console.jdbi().withHandle(h -> h.createQuery("SELECT 41 + 1").mapTo(Integer.class).one());
            assertThat(answer).as("the console's server still answers after the commands left").isEqualTo(42);
        }
    }

    @Test
    void aDataDirectoryThatIsNotOneSaysSoInOneLine(@TempDir Path dir) throws Exception {
        java.nio.file.Files.writeString(dir.resolve("notes.txt"), "mine");
        Cli.Result r = Cli.run("run", "paused-holder", "--data-dir", dir.toString());
        assertThat(r.exit()).isEqualTo(ExitCodes.RUN_INCOMPLETE);
        assertThat(r.err().strip()).contains("neither empty nor a PostgreSQL data directory").contains("--data-dir")
                .doesNotContain("\n").doesNotContain("Exception");
    }
}
