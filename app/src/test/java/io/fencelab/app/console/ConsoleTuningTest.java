package io.fencelab.app.console;

import static io.fencelab.app.console.ConsoleFx.fx;
import static io.fencelab.app.console.ConsoleFx.fxRun;
import static io.fencelab.app.console.ConsoleFx.waitUntil;
import static org.assertj.core.api.Assertions.assertThat;

import io.fencelab.engine.check.SafetyChecker;
import io.fencelab.engine.event.Event;
import io.fencelab.engine.event.Event.BeliefEnded.Cause;
import io.fencelab.engine.event.EventLogReader;
import io.fencelab.engine.metrics.TuningMetrics;
import io.fencelab.report.TuningText;
import io.fencelab.testing.LogBuilder;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The verdict column's Tuning figures: the report's wording of the same numbers, once the run is over. */
class ConsoleTuningTest extends ConsoleTestBase {

    @Test
    void aFinishedRunShowsTheTuningFiguresOfItsEvents() throws Exception {
        runToEnd("paused-holder");
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
        assertThat(labelText("#tuning-failover-p99")).as("A froze at 10 s holding the lease; B was granted it at 31 s")
                .isEqualTo("21.0s");
        assertThat(labelText("#tuning-label-failover-p99")).as("the label, not the value, says it is the max of one")
                .isEqualTo("failover time p99 = max of 1");
    }

    @Test
    void everyTuningFigureIsShownWholeOnA1280By800Screen() {
        fxRun(() -> {
            javafx.stage.Stage stage = (javafx.stage.Stage) console.scene().getWindow();
            stage.setWidth(1280);
            stage.setHeight(800);
        });
        waitUntil("the scene is 1280 wide", 10, () -> console.scene().getWidth() == 1280);
        ConsoleFx.frames();
        List<TuningText.Row> rows = TuningText.rows(TuningMetrics.NONE);
        assertThat(rows).as("before a run, the failover figures say there was none")
                .anyMatch(r -> r.value().equals("no failover"));
        for (TuningText.Row row : rows) {
            javafx.scene.control.Label value = fx(() -> (javafx.scene.control.Label) console.scene()
                    .lookup("#tuning-" + row.id()));
            String shown = fx(() -> ((javafx.scene.text.Text) value.lookup(".text")).getText());
            assertThat(shown).as("%s as the column shows it", row.label()).isEqualTo(row.value());
        }
        screenshot("tuning-1280x800");
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
        assertThat(labelText("#tuning-transitions")).isEqualTo(row(expected, "transitions").value());
        assertThat(labelText("#tuning-unavailability")).isEqualTo(row(expected, "unavailability").value());
        screenshot("tuning-metrics");
    }

    /**
     * A leader renewing every 2 s on a 10 s lease, a follower asking every 2 s. The leader crashes at
     * 21 s (lease until 30 s: the follower is granted at 30 s, 9 s later); the new leader crashes at
     * 49 s (lease until 58 s: granted at 61 s, 12 s after the crash, 3 s of them with nobody holding it).
     */
    private static List<Event> leadersThatCrash() {
        LogBuilder log = new LogBuilder();
        log.runStarted();
        reign(log, "A", 1, 0, 21, "B");
        reign(log, "B", 2, 30, 49, "C");
        log.acquired(61, "C", "leader", 3, 71);
        log.beliefStarted(61, "C", "leader", 3);
        log.runEnded(70);
        return log.events();
    }

    /** {@code leader} granted at {@code from}, renewing until it crashes; its lease expires 9 s after the crash. */
    private static void reign(LogBuilder log, String leader, long token, int from, int crashAt, String follower) {
        log.acquired(from, leader, "leader", token, from + 10);
        log.beliefStarted(from, leader, "leader", token);
        int lastRenewal = from;
        for (int t = from + 2; t < crashAt; t += 2) {
            log.renewed(t, leader, "leader", token, t + 10);
            log.busy(t + 1, follower, "leader", leader, token);
            lastRenewal = t;
        }
        log.crashed(crashAt, leader, 0);
        log.beliefEnded(crashAt, leader, "leader", token, Cause.CRASHED, "crashed");
        log.expired(lastRenewal + 10, leader, "leader", token);
    }

    private static TuningText.Row row(TuningMetrics m, String id) {
        return TuningText.rows(m).stream().filter(r -> r.id().equals(id)).findFirst().orElseThrow();
    }
}
