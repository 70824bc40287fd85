package io.fencelab.app;

import static org.assertj.core.api.Assertions.assertThat;

import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.fencelab.app.cli.ExitCodes;
import io.fencelab.engine.db.Database;
import io.fencelab.engine.event.Event;
import io.fencelab.engine.event.EventLogReader;
import io.fencelab.testing.EmbeddedDatabase;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;
import org.slf4j.LoggerFactory;

/**
 * docs/RELIABILITY.md, "Reports are whole or absent": a run's artifacts reach --report together at
 * the end, or not at all, and a failure to write them is one line and exit code 3.
 */
@ExtendWith(EmbeddedDatabase.class)
class ReportsWholeOrAbsentTest {

    @Test
    void aRunThatFailsNeverLeavesItsEventsBesideAnEarlierRunsReport(@TempDir Path dir) throws Exception {
        try (Database external = EmbeddedDatabase.startThrowaway()) {
            Path out = dir.resolve("out");
            Cli.Result earlier = Cli.run("run", "paused-holder-unfenced", "--jdbc-url", external.jdbcUrl(),
                    "--report", out.toString());
            assertThat(earlier.exit()).as(earlier.out() + earlier.err()).isEqualTo(ExitCodes.OK);
            Path failing = dir.resolve("fail.sh");
            Files.writeString(failing, "#!/bin/sh\necho 'no such service' >&2\nexit 5\n");
            assertThat(failing.toFile().setExecutable(true)).isTrue();

            Cli.Result broken = Cli.run("run", "db-restart", "--jdbc-url", external.jdbcUrl(),
                    "--db-restart-command", failing.toString(), "--report", out.toString());

            assertThat(broken.exit()).as(broken.out() + broken.err()).isEqualTo(ExitCodes.RUN_INCOMPLETE);
            String logged = ((Event.RunStarted) EventLogReader.read(out.resolve("events.jsonl")).getFirst()).scenario();
            String summarized = new ObjectMapper().readTree(out.resolve("summary.json").toFile()).path("scenario").asText();
            assertThat(logged).as("events.jsonl and summary.json in --report are of the same run").isEqualTo(summarized);
            Cli.Result check = Cli.run("check", out.resolve("events.jsonl").toString());
            assertThat(check.out()).as("check agrees with the summary beside the log").contains("the same");
        }
    }

    @Test
    void aDiskThatFillsDuringTheRunEndsItFailedInOneLineWithExitThree(Database db, @TempDir Path dir) throws Exception {
        try (SmallDisk disk = SmallDisk.mount(dir.resolve("disk"), 64);
             LogCapture logs = LogCapture.start()) {
            Path out = disk.path().resolve("out");
            Path staging = disk.path().resolve(".fencelab-partial-out");

            Cli.Result r = Cli.run("run", "gc-storm", "--jdbc-url", db.jdbcUrl(), "--report", out.toString());

            assertThat(r.exit()).as(r.out() + r.err()).isEqualTo(ExitCodes.RUN_INCOMPLETE);
            assertThat(r.err().lines()).as("one line: what failed, where, and where the events so far are")
                    .singleElement().asString()
                    .matches("fencelab: run failed: no space left on " + Pattern.quote(staging.toString())
                            + " \\(\\d+ bytes free\\); the events recorded so far are in "
                            + Pattern.quote(staging.resolve("events.jsonl").toString()));
            assertThat(r.out()).startsWith("running gc-storm").contains("failed: no space left on ");
            assertThat(logs.withStackTraces()).as("nothing logged with a stack trace").isEmpty();
            assertThat(out).as("no report that looks complete").doesNotExist();
        }
    }

    @Test
    void theEventsOfARunWhoseDiskFilledCanStillBeChecked(Database db, @TempDir Path dir) throws Exception {
        try (SmallDisk disk = SmallDisk.mount(dir.resolve("disk"), 64)) {
            Cli.run("run", "gc-storm", "--jdbc-url", db.jdbcUrl(), "--report", disk.path().resolve("out").toString());

            Cli.Result check = Cli.run("check", disk.path().resolve(".fencelab-partial-out/events.jsonl").toString());

            assertThat(check.exit()).as("a log cut short, judged as far as it goes: " + check.out() + check.err())
                    .isEqualTo(ExitCodes.LOG_INCOMPLETE);
            assertThat(check.out()).contains("verdict SAFE (incomplete");
        }
    }

    @Test
    void aDiskThatFillsWhileTheReportIsWrittenLeavesNoPartialReport(Database db, @TempDir Path dir) throws Exception {
        // Room for the log (under 2 kB) but not for the page (about 20 kB).
        try (SmallDisk disk = SmallDisk.mount(dir.resolve("disk"), 16)) {
            Path out = disk.path().resolve("out");

            Cli.Result r = Cli.run("run", "paused-holder", "--jdbc-url", db.jdbcUrl(), "--report", out.toString());

            assertThat(r.exit()).as(r.out() + r.err()).isEqualTo(ExitCodes.RUN_INCOMPLETE);
            assertThat(r.err().lines()).singleElement().asString()
                    .startsWith("fencelab: no report written: no space left on ").contains("bytes free)")
                    .endsWith(".fencelab-partial-out/events.jsonl").doesNotContain("Exception");
            assertThat(out.resolve("report.html")).as("no empty report.html").doesNotExist();
            assertThat(disk.path().resolve(".fencelab-partial-out/events.jsonl")).as("the whole log is kept")
                    .isNotEmptyFile();
            assertThat(disk.path().resolve(".fencelab-partial-out/report.html")).as("nor a partial one aside")
                    .doesNotExist();
        }
    }

    @Test
    void aSecondRunIntoTheSameReportReplacesEveryFileOfTheFirst(Database db, @TempDir Path dir) throws Exception {
        Path out = dir.resolve("out");
        Cli.run("run", "paused-holder-unfenced", "--jdbc-url", db.jdbcUrl(), "--report", out.toString());

        Cli.Result r = Cli.run("run", "paused-holder", "--jdbc-url", db.jdbcUrl(), "--report", out.toString());

        assertThat(r.exit()).as(r.out() + r.err()).isEqualTo(ExitCodes.OK);
        assertThat(Files.readString(out.resolve("summary.json"))).contains("\"scenario\" : \"paused-holder\"");
        assertThat(Files.readString(out.resolve("judgement.json"))).as("the new run's judgement").contains("SAFE")
                .doesNotContain("STALE_OVERWRITE");
        assertThat(dir.resolve(".fencelab-partial-out")).as("nothing left beside it").doesNotExist();
    }

    /** What logback records while a test runs. */
    private static final class LogCapture implements AutoCloseable {
        private final Logger root = (Logger) LoggerFactory.getLogger(org.slf4j.Logger.ROOT_LOGGER_NAME);
        private final ListAppender<ILoggingEvent> appender = new ListAppender<>();

        static LogCapture start() {
            LogCapture c = new LogCapture();
            c.appender.start();
            c.root.addAppender(c.appender);
            return c;
        }

        java.util.List<String> withStackTraces() {
            return appender.list.stream().filter(e -> e.getThrowableProxy() != null).map(ILoggingEvent::getFormattedMessage)
                    .toList();
        }

        @Override
        public void close() {
            root.detachAppender(appender);
        }
    }
}
