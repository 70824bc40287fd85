package io.fencelab.app.console.timeline;

import static io.fencelab.app.console.ConsoleFx.fx;
import static org.assertj.core.api.Assertions.assertThat;

import io.fencelab.app.console.ConsoleFx;
import io.fencelab.app.console.model.RunModel;
import io.fencelab.app.console.model.RunPhase;
import io.fencelab.app.console.model.TimeWindow;
import io.fencelab.engine.check.SafetyChecker;
import io.fencelab.engine.event.Event;
import io.fencelab.engine.resource.TargetKind;
import io.fencelab.report.Timeline;
import io.fencelab.testing.LogBuilder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.testfx.framework.junit5.ApplicationExtension;

/**
 * A process run plays like a live one, and each holder's lane says where it runs (host and pid); a
 * holder whose host stopped answering is marked from then on, its earlier events kept.
 */
@ExtendWith(ApplicationExtension.class)
class ProcessLanesTest {

    private static final long S = 1_000_000L;

    /** A on host a, B on host b, C on the run's own machine; host a is lost at 20 s; the run is at 40 s. */
    private static List<Event> processRun(boolean agents) {
        LogBuilder log = new LogBuilder();
        log.runStarted();
        if (agents) {
            log.agentStarted(0.2, "A", "a", 41234);
            log.agentStarted(0.3, "B", "b", 41300);
            log.agentStarted(0.3, "C", "local", 41301);
        }
        log.acquired(1, "A", "report", 41, 30);
        log.beliefStarted(1, "A", "report", 41);
        log.accepted(5, "A", "report", 41, TargetKind.ROW, "report-1", "a");
        log.busy(6, "B", "report", "A", 41);
        log.busy(6.5, "C", "report", "A", 41);
        if (agents) {
            log.hostLost(20, "a");
        }
        log.expired(30, "A", "report", 41);
        log.acquired(31, "B", "report", 42, 60);
        log.beliefStarted(31, "B", "report", 42);
        log.accepted(35, "B", "report", 42, TargetKind.ROW, "report-1", "b");
        return log.events();
    }

    private static RunModel playing(List<Event> events) {
        RunModel run = new RunModel("main");
        run.events().addAll(events);
        run.timelineProperty().set(Timeline.from(events, SafetyChecker.judgement(events)));
        run.endMicrosProperty().set(50 * S);
        run.nowMicrosProperty().set(40 * S);
        run.phaseProperty().set(RunPhase.PLAYING);
        return run;
    }

    private static TimelineCanvas drawn(List<Event> events) throws Exception {
        return fx(() -> {
            RunModel run = playing(events);
            TimeWindow window = new TimeWindow();
            window.show(0, 50 * S);
            TimelineCanvas c = new TimelineCanvas(run, window, 1, () -> 40 * S);
            c.resize(1100, 420, 1);
            c.paint(c.frame(run.timeline(), 0, -1, 0, ""), 1100, 420);
            return c;
        });
    }

    @Test
    void eachHolderShowsItsHostAndPidAndTheLostHostIsMarked() throws Exception {
        TimelineCanvas parts = drawn(processRun(true));

        List<String> gutter = fx(() -> Renderers.gutterTexts(parts.renderer()));
        assertThat(gutter).as("host and pid under each holder's name; the lost one says so")
                .contains("A", "host a lost", "B", "host b \u00b7 pid 41300", "C",
                        "local \u00b7 pid 41301");
        assertThat(gutter).doesNotContain("service / holder");
        Path shot = ConsoleFx.screenshot(parts.canvas(), "process-lanes");
        assertThat(Files.size(shot)).as("the screenshot %s was written", shot).isPositive();
    }

    @Test
    void aRunOfThreadsKeepsItsLaneNames() throws Exception {
        TimelineCanvas parts = drawn(processRun(false));

        List<String> gutter = fx(() -> Renderers.gutterTexts(parts.renderer()));
        assertThat(gutter).contains("A", "B", "C", "service / holder").noneMatch(s -> s.startsWith("host "));
    }
}
