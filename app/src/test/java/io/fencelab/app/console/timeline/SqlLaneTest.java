package io.fencelab.app.console.timeline;

import static io.fencelab.app.console.ConsoleFx.fx;
import static org.assertj.core.api.Assertions.assertThat;

import io.fencelab.app.console.ConsoleFx;
import io.fencelab.app.console.model.RunModel;
import io.fencelab.app.console.model.RunPhase;
import io.fencelab.app.console.model.TimeWindow;
import io.fencelab.engine.check.SafetyChecker;
import io.fencelab.engine.event.Event;
import io.fencelab.engine.resource.SqlKey;
import io.fencelab.engine.resource.TargetKind;
import io.fencelab.report.Timeline;
import io.fencelab.testing.LogBuilder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.testfx.framework.junit5.ApplicationExtension;

/** A user's SQL fence gets a resource lane like a row's, named by its fence and key, in a look of its own. */
@ExtendWith(ApplicationExtension.class)
class SqlLaneTest {

    /** A's write to the user's report 17 is refused after B's newer one; a built-in row beside it. */
    private static RunModel sqlRun() {
        LogBuilder log = new LogBuilder();
        log.runStarted();
        log.acquired(0, "A", "reports", 41, 5);
        log.beliefStarted(0.001, "A", "reports", 41);
        log.accepted(0.5, "A", "reports", 41, TargetKind.SQL, SqlKey.of("report", "17"), "a");
        log.accepted(0.6, "A", "reports", 41, TargetKind.ROW, "report-1", "a");
        log.pauseStarted(1, "A", 7);
        log.acquired(6, "B", "reports", 42, 11);
        log.beliefStarted(6.001, "B", "reports", 42);
        log.accepted(6.5, "B", "reports", 42, TargetKind.SQL, SqlKey.of("report", "17"), "b");
        log.pauseEnded(8, "A");
        log.rejectedStale(8.1, "A", "reports", 41, TargetKind.SQL, SqlKey.of("report", "17"), 42);
        log.runEnded(10);
        List<Event> events = log.events();
        RunModel run = new RunModel("main");
        run.events().addAll(events);
        run.timelineProperty().set(Timeline.from(events, SafetyChecker.judgement(events)));
        run.endMicrosProperty().set(10_000_000);
        run.nowMicrosProperty().set(10_000_000);
        run.phaseProperty().set(RunPhase.ENDED);
        return run;
    }

    @Test
    void aSqlFenceLaneIsLabelledByItsFenceAndKeyBesideTheRowLane() throws Exception {
        TimelineCanvas parts = fx(() -> {
            RunModel run = sqlRun();
            TimeWindow window = new TimeWindow();
            window.show(0, 10_000_000);
            TimelineCanvas c = new TimelineCanvas(run, window, 1, () -> 0);
            c.resize(1000, 470, 1);
            c.paint(c.frame(run.timeline(), 0, -1, 0, ""), 1000, 470);
            return c;
        });
        List<String> names = fx(() -> Renderers.gutterTexts(parts.renderer()));
        assertThat(names).as("the SQL lane's name: its kind word, the fence and the key, and its scope under them")
                .contains("SQL", "report 17", "scope reports");
        assertThat(names).as("the row's lane keeps its naming").contains("ROW report-1", "scope reports");
        Path shot = ConsoleFx.screenshot(parts.canvas(), "sql-lane");
        assertThat(Files.size(shot)).as("the screenshot %s was written", shot).isPositive();
    }
}
