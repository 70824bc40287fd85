package io.fencelab.app.console;

import static io.fencelab.app.console.ConsoleFx.fx;
import static io.fencelab.app.console.ConsoleFx.fxRun;
import static io.fencelab.app.console.ConsoleFx.screenshot;
import static io.fencelab.app.console.ConsoleFx.waitUntil;
import static org.assertj.core.api.Assertions.assertThat;

import io.fencelab.app.console.model.RunModel;
import io.fencelab.app.console.model.RunPhase;
import io.fencelab.app.console.run.DatabaseSource;
import io.fencelab.engine.db.Database;
import io.fencelab.engine.db.DatabaseConfig;
import io.fencelab.engine.event.Event;
import io.fencelab.engine.event.EventLog;
import io.fencelab.engine.resource.TargetKind;
import io.fencelab.testing.EmbeddedDatabase;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.atomic.AtomicReference;
import javafx.scene.control.Label;
import javafx.stage.Stage;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;
import org.testfx.framework.junit5.ApplicationExtension;

/**
 * The console under trouble: a bad external database URL, a database that dies mid-run, a saved run
 * that will not open, a scenario file with errors. Each is one clear message in the window, no stack
 * trace, and the window stays usable: the test goes on to do something that works. Screenshots:
 * target/screenshots/console-fault-*.png.
 */
@ExtendWith({EmbeddedDatabase.class, ApplicationExtension.class})
class ConsoleFailureTest {

    private Console console;
    private Database throwaway;

    @AfterEach
    void close() {
        if (console != null) {
            fxRun(console::close);
        }
        if (throwaway != null) {
            try {
                throwaway.close();
            } catch (RuntimeException e) {
                // its server was killed on purpose
            }
        }
    }

    private void open(DatabaseSource source) {
        fxRun(() -> console = Console.show(new Stage(), source));
    }

    @Test
    void aBadExternalUrlIsOneClearMessageAndSavedRunsStillReplay(@TempDir Path dir) throws IOException {
        open(DatabaseSource.of(DatabaseConfig.external(
                "jdbc:postgresql://127.0.0.1:1/none?connectTimeout=2", "fencelab", "hunter2")));
        waitUntil("the console says the database could not be opened", 60,
                () -> !console.model().databaseProblemProperty().get().isEmpty());
        String problem = fx(() -> ((Label) console.scene().lookup("#database-problem")).getText());
        assertThat(problem).startsWith("The database could not be opened")
                .contains("127.0.0.1:1").doesNotContain("hunter2").doesNotContain("\tat ");
        assertThat(fx(() -> console.scene().getWindow().isShowing())).as("the window stays up").isTrue();

        fxRun(() -> console.scenarios().select("paused-holder"));
        assertThat(fx(() -> console.model().main().narrationProperty().get())).contains("No database");

        Path log = dir.resolve("events.jsonl");
        try (EventLog out = EventLog.create(log)) {
            out.append(pausedHolderStory());
        }
        fxRun(() -> {
            console.scenarios().openSavedRun(log);
            console.runs().setFastest(true);
            console.runs().play();
        });
        waitUntil("the saved run replayed", 30, () -> console.model().main().phase() == RunPhase.ENDED
                && console.model().main().timeline() != null);
        assertThat(fx(() -> ((Label) console.scene().lookup("#verdict-label")).getText())).isEqualTo("SAFE");
        screenshot(console.scene().getRoot(), "console-fault-bad-url");
    }

    @Test
    void postgresDyingMidRunIsExplainedAndTheEventsSoFarStayVisibleAndExportable(@TempDir Path dir)
            throws IOException {
        throwaway = EmbeddedDatabase.startThrowaway();
        open(DatabaseSource.lent(throwaway));
        waitUntil("the database is ready", 60, () -> console.model().databaseReadyProperty().get());
        RunModel main = fx(() -> console.model().main());
        fxRun(() -> {
            console.scenarios().select("paused-holder");
            console.runs().setSpeed(10);
            console.runs().play();
        });
        waitUntil("A holds the lease", 30, () -> main.eventCountProperty().get() >= 3);
        killPostgres(throwaway);
        waitUntil("the run gave up", 60, () -> main.phase() == RunPhase.FAILED);

        String problem = fx(() -> ((Label) console.scene().lookup("#run-problem")).getText());
        assertThat(problem).contains("could not go on").contains("database").doesNotContain("\tat ");
        long events = fx(() -> main.eventCountProperty().get());
        assertThat(events).as("the events so far stay").isGreaterThanOrEqualTo(3);
        assertThat(fx(() -> main.events().last())).isInstanceOf(Event.RunEnded.class);
        assertThat(fx(() -> console.scene().getWindow().isShowing())).isTrue();
        waitUntil("the timeline shows the events so far", 30, () -> main.timeline() != null);
        screenshot(console.scene().getRoot(), "console-fault-database-died");

        AtomicReference<String> done = new AtomicReference<>();
        fxRun(() -> console.export().exportReport(dir, done::set));
        waitUntil("the export finished", 30, () -> done.get() != null);
        assertThat(done.get()).startsWith("Report written");
        assertThat(Files.readString(dir.resolve("summary.json"))).contains("failed: database unreachable");
        assertThat(Files.readAllLines(dir.resolve("events.jsonl"))).hasSize((int) events);

        fxRun(() -> {
            console.scenarios().openSavedRun(dir.resolve("events.jsonl"));
            console.runs().setFastest(true);
            console.runs().play();
        });
        waitUntil("the run's own log replayed without the database", 30,
                () -> main.phase().isOver() && main.eventCountProperty().get() == events);
    }

    /**
     * A database broken for good mid-run (the server's own disk-full error from the first lease
     * statement after B's write on): the run is shown failed with the server's words, and its badge
     * says FAILED, never SAFE, although no violation happened before the failure.
     */
    @Test
    void aDatabaseBrokenMidRunShowsTheRunFailedWithItsCauseNotSafe() {
        throwaway = EmbeddedDatabase.startThrowaway(8);
        throwaway.jdbi().useHandle(h -> {
            h.execute("""
                    CREATE FUNCTION full_disk() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN
                        IF (SELECT count(*) FROM fence_audit WHERE run_id = NEW.run_id) >= 1 THEN
                            RAISE EXCEPTION USING ERRCODE = 'disk_full', MESSAGE = 'No space left on device';
                        END IF;
                        RETURN NEW;
                    END $$""");
            h.execute("CREATE TRIGGER full_disk BEFORE UPDATE ON lease FOR EACH ROW EXECUTE FUNCTION full_disk()");
        });
        open(DatabaseSource.lent(throwaway));
        waitUntil("the database is ready", 60, () -> console.model().databaseReadyProperty().get());
        RunModel main = fx(() -> console.model().main());
        fxRun(() -> {
            console.scenarios().select("paused-holder");
            console.runs().setFastest(true);
            console.runs().play();
        });
        waitUntil("the run failed", 60, () -> main.phase() == RunPhase.FAILED);

        assertThat(runProblem()).as("the server's words, and what the verdict covers")
                .startsWith("The run could not go on: No space left on device.")
                .contains("covers only what happened before");
        assertThat(fx(() -> ((Label) console.scene().lookup("#verdict-label")).getText()))
                .as("nothing after the failure was tested: not SAFE").isEqualTo("FAILED");
        screenshot(console.scene().getRoot(), "console-fault-database-broken");
    }

    @Test
    void aSavedRunThatWillNotOpenIsOneLineAndACatalogScenarioStillRuns(Database db, @TempDir Path dir)
            throws IOException {
        open(DatabaseSource.lent(db));
        waitUntil("the database is ready", 60, () -> console.model().databaseReadyProperty().get());
        RunModel main = fx(() -> console.model().main());

        fxRun(() -> console.scenarios().openSavedRun(dir.resolve("missing.jsonl")));
        waitUntil("the missing log is reported", 30, () -> main.phase() == RunPhase.FAILED);
        assertThat(runProblem()).isEqualTo("The saved run missing.jsonl (in " + dir.toAbsolutePath()
                + ") could not be opened: there is no such file. Open an events.jsonl that a run or a report wrote.");

        Path garbage = dir.resolve("notes.jsonl");
        Files.writeString(garbage, "these are my notes, not events\n");
        fxRun(() -> console.scenarios().openSavedRun(garbage));
        waitUntil("the log that is not one is reported", 30,
                () -> main.phase() == RunPhase.FAILED && runProblem().contains("notes.jsonl"));
        assertThat(runProblem()).startsWith("The saved run notes.jsonl (in ").contains("could not be opened: line ")
                .doesNotContain("\tat ").doesNotContain("Exception").doesNotContain("\n");
        assertThat(fx(() -> console.scene().getWindow().isShowing())).isTrue();
        screenshot(console.scene().getRoot(), "console-fault-log");

        runsToTheEnd("paused-holder", main);
        assertThat(runProblem()).as("the message went with the failed log").isEmpty();
    }

    @Test
    void aScenarioFileWithErrorsIsExplainedInPlaceAndACatalogScenarioStillRuns(Database db, @TempDir Path dir)
            throws IOException {
        open(DatabaseSource.lent(db));
        waitUntil("the database is ready", 60, () -> console.model().databaseReadyProperty().get());
        RunModel main = fx(() -> console.model().main());
        fxRun(() -> console.scenarios().select("paused-holder"));
        waitUntil("the run is prepared", 30, () -> main.phase() == RunPhase.PAUSED);

        Path bad = dir.resolve("bad.yaml");
        Files.writeString(bad, """
                title: Broken
                summary: A file with mistakes.
                duration: soon
                workers:
                  - name: A
                """);
        fxRun(() -> console.scenarios().openScenarioFile(bad));
        String problem = fx(() -> ((Label) console.scene().lookup("#scenario-problem")).getText());
        assertThat(problem).startsWith("bad.yaml is not a valid scenario").contains("bad.yaml:3:")
                .doesNotContain("\tat ").doesNotContain("Exception").doesNotContain(dir.toString());
        assertThat(fx(() -> console.model().scenario().name())).as("the scenario on show stays")
                .isEqualTo("paused-holder");
        screenshot(console.scene().getRoot(), "console-fault-scenario-file");

        runsToTheEnd("paused-holder", main);
        assertThat(fx(() -> ((Label) console.scene().lookup("#scenario-problem")).getText()))
                .as("the problem went when a good scenario was chosen").isEmpty();
    }

    private String runProblem() {
        return fx(() -> ((Label) console.scene().lookup("#run-problem")).getText());
    }

    /** Picks catalog scenario {@code name}, plays it as fast as it goes, and checks it ended SAFE. */
    private void runsToTheEnd(String name, RunModel main) {
        fxRun(() -> {
            console.scenarios().select(name);
            console.runs().setFastest(true);
            console.runs().play();
        });
        waitUntil(name + " ran to its end", 60, () -> main.phase() == RunPhase.ENDED && main.timeline() != null);
        assertThat(fx(() -> ((Label) console.scene().lookup("#verdict-label")).getText())).isEqualTo("SAFE");
    }

    /** Kills the PostgreSQL server as a crash would (SIGKILL to the postmaster), not through Fencelab. */
    private static void killPostgres(Database db) {
        int backend = db.jdbi().withHandle(h -> h.createQuery("SELECT pg_backend_pid()").mapTo(Integer.class).one());
        ProcessHandle postmaster = ProcessHandle.of(backend).flatMap(ProcessHandle::parent).orElseThrow();
        assertThat(postmaster.info().command().orElse("")).as("the postmaster").contains("postgres");
        postmaster.destroyForcibly();
    }

    /** The paused-holder story of docs/EVENTS.md, as a saved log. */
    static List<Event> pausedHolderStory() {
        return List.of(
                new Event.RunStarted(1, 0, "paused-holder", "simulated", "FENCED", "MONOTONIC", 42,
                        "embedded PostgreSQL 17"),
                new Event.LeaseAcquired(2, 0, "A", "report", 41, 41, 30_000_000),
                new Event.BeliefStarted(3, 0, "A", "report", 41),
                new Event.PauseStarted(4, 10_000_000, "A", 35_000_000, "gc"),
                new Event.LeaseExpired(5, 30_000_000, "A", "report", 41),
                new Event.LeaseAcquired(6, 31_000_000, "B", "report", 42, 42, 61_000_000),
                new Event.BeliefStarted(7, 31_000_000, "B", "report", 42),
                new Event.WriteAttempted(8, 35_000_000, "B", "report", 42, TargetKind.ROW, "report-1", null),
                new Event.WriteAccepted(9, 35_000_000, "B", "report", 42, TargetKind.ROW, "report-1",
                        "sha256:5d41402a"),
                new Event.PauseEnded(10, 45_000_000, "A"),
                new Event.WriteAttempted(11, 45_000_000, "A", "report", 41, TargetKind.ROW, "report-1", null),
                new Event.WriteRejectedStale(12, 45_000_000, "A", "report", 41, TargetKind.ROW, "report-1", 42),
                new Event.BeliefEnded(13, 45_000_000, "A", "report", 41, Event.BeliefEnded.Cause.STALE_ANSWER, "stale"),
                new Event.RunEnded(14, 50_000_000, Event.RunEnded.Reason.COMPLETED));
    }
}
