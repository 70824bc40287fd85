package io.fencelab.engine.run;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.fencelab.engine.chaos.Distribution;
import io.fencelab.engine.chaos.FaultKind;
import io.fencelab.engine.chaos.FaultSpec;
import io.fencelab.engine.chaos.FaultStart;
import io.fencelab.engine.db.Database;
import io.fencelab.engine.db.DatabaseException;
import io.fencelab.engine.db.DatabaseFailure;
import io.fencelab.engine.db.RestartCommand;
import io.fencelab.engine.event.Event;
import io.fencelab.engine.event.EventLogReader;
import io.fencelab.engine.failpoint.Failpoint;
import io.fencelab.testing.EmbeddedDatabase;
import io.fencelab.testing.RunRole;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * A run whose database breaks for good is a failed run (docs/RELIABILITY.md, "When the database
 * breaks"): the reproductions, each on a real embedded PostgreSQL of this class's own. The
 * runs connect as a role of their own (an external-URL database), so that their rights can be revoked
 * and given back by the server's superuser.
 */
class BrokenDatabaseTest {

    private static Database server;
    private static RunRole role;

    @BeforeAll
    static void startServer() {
        server = EmbeddedDatabase.startThrowaway();
        role = RunRole.create(server, "fencelab_run", 16);
    }

    @AfterAll
    static void stopServer() {
        role.close();
        server.close();
    }

    private static RunSpec spec(ExecutorKind executor) {
        return FaultMatrixTest.spec(Failpoint.RENEW_BEFORE).toBuilder().executor(executor).timeScale(0.02).build();
    }

    private static RunResult run(Database db, RunSpec spec, Failpoint point, Runnable breakage, Path dir)
            throws InterruptedException {
        try (Run run = Run.prepare(db, spec, dir.resolve("events.jsonl"))) {
            if (breakage != null) {
                run.armFailpoint(point, "A", new FailpointAction.BreakDatabase(breakage));
            }
            return run.runToEnd();
        }
    }

    private static Event.RunEnded ending(List<Event> events) {
        assertThat(events.getLast()).as("the log ends with its RunEnded").isInstanceOf(Event.RunEnded.class);
        return (Event.RunEnded) events.getLast();
    }

    /** The first reproduction: grants revoked mid-run used to end {@code completed}, SAFE, expectation met. */
    @ParameterizedTest(name = "{0}")
    @EnumSource(value = ExecutorKind.class, names = {"SIMULATED", "LIVE"}) // process runs: the app's tests
    void rightsRevokedMidRunEndTheRunFailedAtOnce(ExecutorKind executor, @TempDir Path dir) throws Exception {
        RunResult result;
        try {
            result = run(role.database(), spec(executor), Failpoint.RENEW_BEFORE, role::revoke, dir);
        } finally {
            role.grant();
        }
        List<Event> events = EventLogReader.read(result.eventLog());

        assertThat(result.endReason()).as("the cause in the server's words")
                .isEqualTo("failed: permission denied for table lease");
        assertThat(result.failed()).as("fencelab run exits 3 (RunCommand: result.failed())").isTrue();
        assertThat(ending(events).reason()).isEqualTo(result.endReason());
        assertThat(ending(events).atMicros()).as("ended at A's renewal at 4 s, not at the run's end at 60 s "
                + "(a live run's 1 s of run time is 20 ms of real time: some slack)").isLessThan(30_000_000L);
        assertThat(events).as("what happened before is kept: A's grant")
                .anyMatch(e -> e instanceof Event.LeaseAcquired g && g.holder().equals("A"));
        assertThat(events).filteredOn(e -> e instanceof Event.OperationFailed)
                .as("a broken database is the run's end, not a failed statement a fault explains").isEmpty();
        assertThat(result.finalStateJudged()).as("judged from the events, up to the failure").isFalse();
    }

    /** The second: {@code DROP TABLE fenced_row} mid-run, on a server of its own since nothing brings the table back. */
    @Test
    void aTableDroppedMidRunEndsTheRunFailed(@TempDir Path dir) throws Exception {
        RunResult result;
        try (Database own = EmbeddedDatabase.startThrowaway(8)) {
            result = run(own, spec(ExecutorKind.SIMULATED), Failpoint.WRITE_BEFORE,
                    () -> own.jdbi().useHandle(h -> h.execute("DROP TABLE fenced_row")), dir);
        }

        assertThat(result.endReason()).isEqualTo("failed: relation \"fenced_row\" does not exist");
        assertThat(result.verdict().witnesses()).as("nothing unsafe happened before the failure").isEmpty();
    }

    /** The next run after a dropped table used to say "Safe: no write was accepted" and exit 1. */
    @Test
    void aRunOnASchemaMissingATableIsRefusedBeforeItStarts(@TempDir Path dir) {
        server.jdbi().useHandle(h -> h.execute("ALTER TABLE fenced_row RENAME TO fenced_row_gone"));
        try {
            assertThatThrownBy(() -> run(role.database(), spec(ExecutorKind.SIMULATED), null, null, dir))
                    .as("refused at once, in one line naming what is missing")
                    .isInstanceOfSatisfying(DatabaseException.class, e -> {
                        assertThat(e.failure()).isEqualTo(DatabaseFailure.SCHEMA_MISSING);
                        assertThat(e.getMessage()).contains("table fenced_row is missing").doesNotContain("\n");
                    });
        } finally {
            server.jdbi().useHandle(h -> h.execute("ALTER TABLE fenced_row_gone RENAME TO fenced_row"));
        }
        assertThat(dir.resolve("events.jsonl")).as("no log of a run that never ran").doesNotExist();
    }

    @Test
    void aRunWithoutItsRightsIsRefusedBeforeItStarts(@TempDir Path dir) {
        server.jdbi().useHandle(h -> h.execute("REVOKE UPDATE ON lease FROM fencelab_run"));
        try {
            assertThatThrownBy(() -> run(role.database(), spec(ExecutorKind.SIMULATED), null, null, dir))
                    .isInstanceOfSatisfying(DatabaseException.class, e -> {
                        assertThat(e.failure()).isEqualTo(DatabaseFailure.PERMISSION_DENIED);
                        assertThat(e.getMessage()).as("names the right").contains("no UPDATE on table lease");
                    });
        } finally {
            role.grant();
        }
    }

    /**
     * Errors of every class that breaks a run, raised by the server inside the write (a trigger on
     * the target table), and two that do not: a lost race is recorded and the run goes on.
     */
    @ParameterizedTest(name = "SQL state {0}")
    @CsvSource(delimiter = '|', value = {
            "53100|could not extend file \"base/5/16390\": No space left on device|failed: could not extend file \"base/5/16390\": No space left on device",
            "53200|out of memory|failed: out of memory",
            "58030|could not read block 0 in file \"base/5/16390\": read only 0 of 8192 bytes|failed: could not read block 0 in file \"base/5/16390\": read only 0 of 8192 bytes",
            "XX000|cache lookup failed for relation 16390|failed: cache lookup failed for relation 16390",
            "XX001|invalid page in block 0 of relation base/5/16390|failed: invalid page in block 0 of relation base/5/16390",
            "42703|column \"fencing_token\" does not exist|failed: column \"fencing_token\" does not exist",
            "40001|could not serialize access due to concurrent update|completed",
            "57014|canceling statement due to statement timeout|completed"})
    void whatTheServerSaysDecidesWhetherTheRunGoesOn(String sqlState, String message, String endReason,
                                                      @TempDir Path dir) throws Exception {
        RunResult result;
        try {
            result = run(role.database(), spec(ExecutorKind.SIMULATED), Failpoint.WRITE_BEFORE,
                    () -> raiseOnWrite(sqlState, message), dir);
        } finally {
            server.jdbi().useHandle(h -> h.execute("DROP TRIGGER IF EXISTS broken ON fenced_row"));
        }
        List<Event> events = EventLogReader.read(result.eventLog());

        assertThat(result.endReason()).isEqualTo(endReason);
        if (!result.failed()) {
            assertThat(events).filteredOn(e -> e instanceof Event.OperationFailed)
                    .as("each failed write recorded, with its state").isNotEmpty()
                    .allMatch(e -> ((Event.OperationFailed) e).reason().contains("SQL state " + sqlState));
        }
    }

    private static void raiseOnWrite(String sqlState, String message) {
        server.jdbi().useHandle(h -> {
            h.execute("CREATE OR REPLACE FUNCTION broken() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN "
                    + "RAISE EXCEPTION USING ERRCODE = '" + sqlState + "', MESSAGE = '" + message.replace("'", "''")
                    + "'; END $$");
            h.execute("CREATE TRIGGER broken BEFORE INSERT OR UPDATE ON fenced_row FOR EACH ROW EXECUTE FUNCTION broken()");
        });
    }

    /** The issue's: a run whose DATABASE_RESTART command fails used to end {@code "reason":"stopped"}. */
    @ParameterizedTest(name = "{0}")
    @EnumSource(value = ExecutorKind.class, names = {"SIMULATED", "LIVE"}) // process runs: the app's tests
    void aRestartCommandThatFailsEndsTheRunFailed(ExecutorKind executor, @TempDir Path dir) throws Exception {
        Path command = Files.writeString(dir.resolve("restart-db"), "#!/bin/sh\necho 'pg_ctl: could not start postgres://admin:s3cret@db:5432/lab'\nexit 7\n");
        command.toFile().setExecutable(true);
        FaultSpec restart = new FaultSpec(FaultKind.DATABASE_RESTART, FaultSpec.DATABASE,
                new FaultStart.At(Duration.ofSeconds(5)), new Distribution.Fixed(Duration.ofSeconds(2)), Duration.ZERO);
        RunSpec spec = spec(executor).toBuilder().faults(List.of(restart)).build();
        RunResult result;
        try (RunRole restartable = RunRole.create(server, "fencelab_restart", 8,
                RestartCommand.parse(command.toString()))) {
            result = run(restartable.database(), spec, null, null, dir);
        }
        List<Event> events = EventLogReader.read(result.eventLog());

        assertThat(result.endReason()).as("the command's name, status and last line, without the server's address")
                .isEqualTo("failed: the database restart command restart-db failed with exit status 7: "
                        + "pg_ctl: could not start the database");
        assertThat(ending(events).atMicros()).as("at the fault at 5 s, not at the end at 60 s (the command itself "
                + "takes a live run's run time)").isLessThan(30_000_000L);
    }

    /**
     * What the run records of a database that goes away names neither where it was nor who connected:
     * the driver's own "Connection to 127.0.0.1:PORT refused" included.
     */
    @Test
    void noRecordedReasonNamesTheServerOrTheRole(@TempDir Path dir) throws Exception {
        RunResult result;
        try {
            result = run(role.database(), spec(ExecutorKind.SIMULATED), Failpoint.WRITE_BEFORE, server::stopEmbedded, dir);
        } finally {
            server.startEmbedded();
            // The role's pool still holds connections the stop killed: the next test starts afresh.
            ((com.zaxxer.hikari.HikariDataSource) role.database().dataSource()).getHikariPoolMXBean()
                    .softEvictConnections();
        }
        List<Event> events = EventLogReader.read(result.eventLog());
        List<String> reasons = events.stream().map(e -> switch (e) {
            case Event.OperationFailed f -> f.reason();
            case Event.RunEnded end -> end.reason();
            default -> null;
        }).filter(java.util.Objects::nonNull).toList();

        assertThat(result.endReason()).isEqualTo("failed: database unreachable");
        assertThat(reasons).as("OperationFailed and RunEnded reasons").hasSizeGreaterThan(1)
                .noneMatch(r -> r.contains("127.0.0.1") || r.contains("localhost")
                        || r.contains(Integer.toString(server.embeddedPort())) || r.contains("fencelab_run")
                        || r.contains("jdbc") || r.contains("password"));
    }
}
