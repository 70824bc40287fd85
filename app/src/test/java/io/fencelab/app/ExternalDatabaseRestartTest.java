package io.fencelab.app;

import static org.assertj.core.api.Assertions.assertThat;

import io.fencelab.app.cli.ExitCodes;
import io.fencelab.engine.db.Database;
import io.fencelab.engine.event.Event;
import io.fencelab.engine.event.EventLogReader;
import io.fencelab.testing.EmbeddedDatabase;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/**
 * A DATABASE_RESTART fault on an external PostgreSQL: a second embedded instance, reached only
 * through its JDBC URL as if it were someone else's server.
 */
@ExtendWith(EmbeddedDatabase.class)
class ExternalDatabaseRestartTest {

    @Test
    void aRestartFaultOnAnExternalServerWithoutACommandIsRefusedBeforeTheRunStarts(Database db, @TempDir Path dir) {
        Cli.Result r = Cli.run("run", "db-restart", "--jdbc-url", db.jdbcUrl(), "--report", dir.toString());

        assertThat(r.exit()).as(r.out() + r.err()).isEqualTo(ExitCodes.BAD_INPUT);
        assertThat(r.err().lines()).as("one line, no stack trace").hasSize(1).first().asString()
                .startsWith("fencelab: a DATABASE_RESTART fault needs a database Fencelab can restart")
                .contains("--db-restart-command").doesNotContain("Exception", "password");
        assertThat(dir.resolve("events.jsonl")).as("the run never started").doesNotExist();
    }

    @Test
    void withARestartCommandTheServerIsRestartedAtTheFaultsTimeAndTheRunCompletes(@TempDir Path dir) throws Exception {
        try (Database second = EmbeddedDatabase.startThrowaway()) {
            Path dataDir = second.config().dataDirectory();
            Path script = dir.resolve("restart-postgres.sh");
            try (var in = getClass().getResourceAsStream("restart-postgres.sh")) {
                Files.copy(in, script);
            }
            assertThat(script.toFile().setExecutable(true)).isTrue();
            String restart = String.join(" ", script.toString(), dataDir.toString(), dir.resolve("restart.log").toString());
            String pidBefore = Files.readAllLines(dataDir.resolve("postmaster.pid")).getFirst();

            Cli.Result r = Cli.run("run", "db-restart", "--jdbc-url", second.jdbcUrl(), "--db-restart-command", restart,
                    "--report", dir.toString());

            assertThat(r.exit()).as(r.out() + r.err()).isEqualTo(ExitCodes.OK);
            assertThat(r.out()).contains("verdict: SAFE").contains("-> met");
            assertThat(Files.readAllLines(dataDir.resolve("postmaster.pid")).getFirst())
                    .as("the server process was replaced: it really restarted").isNotEqualTo(pidBefore);
            List<Event> events = EventLogReader.read(dir.resolve("events.jsonl"));
            assertThat(events).as("the fault's events").anySatisfy(e ->
                    assertThat(e).isInstanceOfSatisfying(Event.FaultInjected.class,
                            f -> assertThat(f.fault()).isEqualTo("DATABASE_RESTART")));
            assertThat(events).anySatisfy(e -> assertThat(e).isInstanceOf(Event.FaultHealed.class));
            assertThat(events.getLast()).isInstanceOfSatisfying(Event.RunEnded.class,
                    e -> assertThat(e.reason()).isEqualTo("completed"));
        }
    }

    @Test
    void aRestartCommandThatFailsEndsTheRunWithItsLastLineAndNoStackTrace(@TempDir Path dir) throws Exception {
        try (Database second = EmbeddedDatabase.startThrowaway()) {
            Path script = dir.resolve("fail.sh");
            Files.writeString(script, "#!/bin/sh\necho \"connecting to postgres://admin:secret@db\"\necho 'no such service' >&2\nexit 5\n");
            script.toFile().setExecutable(true);

            Cli.Result r = Cli.run("run", "db-restart", "--jdbc-url", second.jdbcUrl(), "--db-restart-command",
                    script.toString(), "--report", dir.resolve("out").toString());

            assertThat(r.exit()).as(r.out() + r.err()).isEqualTo(ExitCodes.RUN_INCOMPLETE);
            assertThat(r.out() + r.err()).contains("the database restart command fail.sh failed with exit status 5: "
                    + "no such service").doesNotContain("secret", "Exception");
        }
    }
}
