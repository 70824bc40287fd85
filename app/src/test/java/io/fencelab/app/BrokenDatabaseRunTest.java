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
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code fencelab run} on a database that breaks (docs/RELIABILITY.md, "When the database breaks"):
 * a failed run, exit code 3 with one line saying why, a report whose title says FAILED, never SAFE.
 * Each on a server of its own, reached through its URL, since it is broken for good.
 */
class BrokenDatabaseRunTest {

    /**
     * The disk full mid-run used to end {@code completed … verdict: SAFE}, {@code expected: SAFE -> met},
     * exit 0. The server raises PostgreSQL's own disk-full error (53100) at the first lease statement after
     * B's write (its release), before A's stale write.
     */
    @Test
    void aDatabaseFullMidRunFailsTheRunWithExitThreeAndAReportTitledFailed(@TempDir Path dir) throws Exception {
        Path out = dir.resolve("out");
        Cli.Result r;
        try (Database second = EmbeddedDatabase.startThrowaway(8)) {
            second.jdbi().useHandle(h -> {
                h.execute("""
                        CREATE FUNCTION full_disk() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN
                            IF (SELECT count(*) FROM fence_audit WHERE run_id = NEW.run_id) >= 1 THEN
                                RAISE EXCEPTION USING ERRCODE = 'disk_full',
                                    MESSAGE = 'could not extend file "base/5/16390": No space left on device';
                            END IF;
                            RETURN NEW;
                        END $$""");
                h.execute("CREATE TRIGGER full_disk BEFORE INSERT OR UPDATE ON lease "
                        + "FOR EACH ROW EXECUTE FUNCTION full_disk()");
            });
            r = Cli.run("run", "paused-holder", "--jdbc-url", second.jdbcUrl(), "--report", out.toString());
        }

        String cause = "could not extend file \"base/5/16390\": No space left on device";
        assertThat(r.exit()).as(r.out() + r.err()).isEqualTo(ExitCodes.RUN_INCOMPLETE);
        assertThat(r.err().lines()).as("one line saying why, no stack trace").containsExactly(
                "fencelab: the run failed: " + cause + "; its verdict covers only what happened before the failure");
        assertThat(r.out()).contains("failed: " + cause + " after ").contains("verdict: SAFE up to the failure")
                .contains("-> NOT met").doesNotContain("-> met");
        List<Event> events = EventLogReader.read(out.resolve("events.jsonl"));
        assertThat(events).as("B's write before the failure is kept")
                .filteredOn(e -> e instanceof Event.WriteAccepted).hasSize(1);
        assertThat(events.getLast()).isInstanceOfSatisfying(Event.RunEnded.class,
                e -> assertThat(e.reason()).isEqualTo("failed: " + cause));
        String html = Files.readString(out.resolve("report.html"));
        assertThat(html).as("the report's title").contains("<title>FAILED · ").doesNotContain("<title>SAFE")
                .doesNotContain("badge safe").contains("This verdict covers only what happened before the failure.");
        assertThat(Files.readString(out.resolve("summary.json"))).as("summary.json says failed, with the cause")
                .contains("\"endReason\" : \"failed: " + cause.replace("\"", "\\\"") + "\"");
    }

    /** The next run after the dropped table said "Safe: no write was accepted" and exited 1. */
    @Test
    void aRunOnADatabaseMissingATableIsRefusedWithExitThreeInOneLine(@TempDir Path dir) {
        Path out = dir.resolve("out");
        Cli.Result r;
        try (Database second = EmbeddedDatabase.startThrowaway(8)) {
            second.jdbi().useHandle(h -> h.execute("DROP TABLE fenced_row"));
            r = Cli.run("run", "paused-holder", "--jdbc-url", second.jdbcUrl(), "--report", out.toString());
        }

        assertThat(r.exit()).as(r.out() + r.err()).isEqualTo(ExitCodes.RUN_INCOMPLETE);
        assertThat(r.err().lines()).as("one line naming what is missing").hasSize(1).first().asString()
                .contains("table fenced_row is missing").contains("--data-dir").doesNotContain("Exception");
        assertThat(r.out()).doesNotContain("Safe: no write was accepted");
        assertThat(out.resolve("events.jsonl")).as("the run never started").doesNotExist();
    }
}
