package io.fencelab.app.console;

import static io.fencelab.app.console.ConsoleFx.fx;
import static io.fencelab.app.console.ConsoleFx.fxRun;
import static io.fencelab.app.console.ConsoleFx.waitUntil;
import static org.assertj.core.api.Assertions.assertThat;

import io.fencelab.engine.check.SafetyChecker;
import io.fencelab.engine.event.Event;
import io.fencelab.engine.event.EventLogReader;
import io.fencelab.engine.metrics.TuningMetrics;
import io.fencelab.report.TuningText;
import io.fencelab.testing.EventLog;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The verdict column's Tuning figures: the report's wording of the same numbers, once the run is over. */
class ConsoleTuningTest extends ConsoleTestBase {

    @Test
    void aFinishedRunShowsTheTuningFiguresOfItsEvents() throws Exception {
        waitForDatabase();
        fxRun(() -> {
            console.scenarios().select("paused-holder");
            console.runs().setFastest(true);
            console.runs().play();
        });
        waitUntil("the run has ended", 60, () -> console.sessions().allOver());
        ConsoleFx.frames();

        var result = fx(() -> main().resultProperty().get());
        List<Event> events = EventLogReader.read(result.eventLog());
        TuningMetrics expected = TuningMetrics.of(events, result.judgement());
        assertThat(fx(() -> main().tuningProperty().get())).as("the model holds the figures of the whole log")
                .isEqualTo(expected);
        for (TuningText.Row row : TuningText.rows(expected)) {
            assertThat(labelText("#tuning-" + row.id())).as(row.label()).isEqualTo(row.value());
        }
        assertThat(labelText("#tuning-wasted-jobs")).as("A gave up its job after the stale answer").isEqualTo("1");
        assertThat(labelText("#tuning-failover-p99")).as("nobody crashed").isEqualTo("no failover");
    }

    @Test
    void aReplayedLogWithCrashesShowsItsFailoverTimes(@TempDir Path dir) throws Exception {
        Path file = dir.resolve("events.jsonl");
        List<Event> events = leadersThatCrash();
        try (io.fencelab.engine.event.EventLog out = io.fencelab.engine.event.EventLog.create(file)) {
            out.append(events);
        }
        TuningMetrics expected = TuningMetrics.of(events, SafetyChecker.judgement(events));

        fxRun(() -> {
            console.scenarios().openSavedRun(file);
            console.runs().setFastest(true);
            console.runs().play();
        });
        waitUntil("the replay has ended", 60, () -> console.sessions().allOver());
        waitUntil("the figures are shown", 10, () -> "2".equals(labelText("#tuning-failovers")));
        ConsoleFx.frames();

        assertThat(expected.failoverMaxMicros()).as("the log's own answer").isEqualTo(12_000_000);
        assertThat(labelText("#tuning-failover-p50")).isEqualTo("9.0s");
        assertThat(labelText("#tuning-failover-max")).isEqualTo("12.0s");
        assertThat(labelText("#tuning-transitions")).isEqualTo(TuningText.rows(expected).get(6).value());
        assertThat(labelText("#tuning-unavailability")).isEqualTo(TuningText.rows(expected).get(4).value());
        screenshot("tuning-metrics");
    }

    /**
     * A leader renewing every 2 s on a 10 s lease, a follower asking every 2 s. The leader crashes at
     * 21 s (lease until 30 s: the follower is granted at 30 s, 9 s later); the new leader crashes at
     * 49 s (lease until 58 s: granted at 61 s, 12 s after the crash, 3 s of them with nobody holding it).
     */
    private static List<Event> leadersThatCrash() {
        EventLog log = new EventLog();
        log.runStarted();
        log.acquired(0, "A", "leader", 1, 10);
        log.beliefStarted(0, "A", "leader", 1);
        for (int t = 2; t <= 20; t += 2) {
            log.renewed(t, "A", "leader", 1, t + 10);
            log.busy(t + 1, "B", "leader", "A", 1);
        }
        log.crashed(21, "A", 0);
        log.beliefEnded(21, "A", "leader", 1, "crashed");
        for (int t = 23; t < 30; t += 2) {
            log.busy(t, "B", "leader", "A", 1);
        }
        log.expired(30, "A", "leader", 1);
        log.acquired(30, "B", "leader", 2, 40);
        log.beliefStarted(30, "B", "leader", 2);
        for (int t = 32; t <= 48; t += 2) {
            log.renewed(t, "B", "leader", 2, t + 10);
            log.busy(t + 1, "C", "leader", "B", 2);
        }
        log.crashed(49, "B", 0);
        log.beliefEnded(49, "B", "leader", 2, "crashed");
        for (int t = 51; t < 58; t += 2) {
            log.busy(t, "C", "leader", "B", 2);
        }
        log.expired(58, "B", "leader", 2);
        log.acquired(61, "C", "leader", 3, 71);
        log.beliefStarted(61, "C", "leader", 3);
        log.runEnded(70);
        return log.events();
    }
}
