package io.fencelab.app.console.timeline;

import static io.fencelab.app.console.ConsoleFx.fx;
import static org.assertj.core.api.Assertions.assertThat;

import io.fencelab.app.console.model.RunModel;
import io.fencelab.app.console.model.RunPhase;
import io.fencelab.app.console.model.TimeWindow;
import io.fencelab.engine.check.SafetyChecker;
import io.fencelab.engine.event.Event;
import io.fencelab.report.Timeline;
import io.fencelab.testing.LogBuilder;
import java.util.ArrayList;
import java.util.List;
import javafx.scene.transform.Scale;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.testfx.framework.junit5.ApplicationExtension;

/**
 * The part the desk's timeline and the presenter's share: the canvas's pixels at the screen's
 * scale, and when a frame repaints the canvas or only moves the playhead.
 */
@ExtendWith(ApplicationExtension.class)
class TimelineCanvasTest {

    /** A holder that acquired token 41 at 0 s and froze at 10 s; the run ended at 20 s. */
    private static RunModel endedRun() {
        LogBuilder log = new LogBuilder();
        log.runStarted();
        log.acquired(0, "A", "report", 41, 30);
        log.beliefStarted(0.001, "A", "report", 41);
        log.pauseStarted(10, "A", 35);
        log.runEnded(20);
        List<Event> events = log.events();
        RunModel run = new RunModel("main");
        run.events().addAll(events);
        run.timelineProperty().set(Timeline.from(events, SafetyChecker.judgement(events)));
        run.endMicrosProperty().set(20_000_000);
        run.nowMicrosProperty().set(20_000_000);
        run.phaseProperty().set(RunPhase.ENDED);
        return run;
    }

    /** What each frame did, in order: "repaint", "playhead", or nothing. */
    private static List<String> frames(TimelineCanvas parts, long... nanos) {
        List<String> did = new ArrayList<>();
        for (long at : nanos) {
            parts.pace(at, () -> did.add("repaint"), () -> did.add("playhead"));
        }
        return did;
    }

    @Test
    void onAScreenDrawnLargerTheCanvasHoldsTheScreensPixelsAndIsShownAtItsLayoutSize() {
        fx(() -> {
            RunModel run = endedRun();
            TimeWindow window = new TimeWindow();
            window.show(0, 20_000_000);
            TimelineCanvas parts = new TimelineCanvas(run, window, TimelineRenderer.PRESENTATION, () -> 0);
            parts.resize(640, 360, 1.5);
            assertThat(parts.canvas().getWidth()).as("canvas pixels across at a screen scale of 1.5").isEqualTo(960);
            assertThat(parts.canvas().getHeight()).as("canvas pixels down").isEqualTo(540);
            assertThat(parts.canvas().getTransforms()).as("drawn back down to its 640 x 360 layout")
                    .singleElement().isInstanceOfSatisfying(Scale.class, s -> {
                        assertThat(s.getX()).isEqualTo(1 / 1.5);
                        assertThat(s.getY()).isEqualTo(1 / 1.5);
                    });
            return null;
        });
    }

    @Test
    void onTheDeskTheCanvasIsItsLayoutSizeWithNoTransform() {
        fx(() -> {
            RunModel run = endedRun();
            TimelineCanvas parts = new TimelineCanvas(run, new TimeWindow(), 1, () -> 0);
            parts.resize(900, 420, 1);
            assertThat(parts.canvas().getWidth()).isEqualTo(900);
            assertThat(parts.canvas().getHeight()).isEqualTo(420);
            assertThat(parts.canvas().getTransforms()).as("a desk canvas is drawn as it is").isEmpty();
            return null;
        });
    }

    @Test
    void aCanvasRepaintsOnceForANewSizeAndNotAgainUntilSomethingItShowsChanges() {
        List<String> did = fx(() -> {
            RunModel run = endedRun();
            TimeWindow window = new TimeWindow();
            window.show(0, 20_000_000);
            TimelineCanvas parts = new TimelineCanvas(run, window, 1, () -> 0);
            parts.resize(900, 420, 1);
            List<String> seen = new ArrayList<>(frames(parts, 1_000_000_000L));
            parts.paint(parts.frame(run.timeline(), 0, -1, 0, ""), 900, 420);
            parts.movePlayhead(900, 420, 0);
            seen.addAll(frames(parts, 1_016_000_000L, 1_032_000_000L));
            parts.resize(900, 420, 1);
            seen.addAll(frames(parts, 1_048_000_000L));
            window.show(5_000_000, 10_000_000);
            seen.addAll(frames(parts, 1_064_000_000L));
            return seen;
        });
        assertThat(did).as("a new size repaints; quiet frames and the same size again do nothing; a new window repaints")
                .containsExactly("repaint", "repaint");
    }

    @Test
    void aFrameOfAFinishedRunEndsOpenSpansWhereTheLogEndsAndReadsEventTimesFromTheRun() {
        TimelineRenderer.Frame f = fx(() -> {
            RunModel run = endedRun();
            TimelineCanvas parts = new TimelineCanvas(run, new TimeWindow(), 1, () -> 0);
            return parts.frame(run.timeline(), 0, -1, 0, "");
        });
        assertThat(f.openUntilMicros()).as("the run is over: nothing runs on to the playhead").isZero();
        assertThat(f.timeOfSeq().applyAsLong(4)).as("the pause's event, at 10 s").isEqualTo(10_000_000);
        assertThat(f.timeOfSeq().applyAsLong(99)).as("an event the run does not have").isEqualTo(-1);
    }

    @Test
    void firstAtOrAfterFindsTheFirstItemAtOrPastATime() {
        List<Long> times = List.of(0L, 10L, 10L, 25L);
        assertThat(TimelineScale.firstAtOrAfter(times, Long::longValue, -5)).isZero();
        assertThat(TimelineScale.firstAtOrAfter(times, Long::longValue, 10)).isEqualTo(1);
        assertThat(TimelineScale.firstAtOrAfter(times, Long::longValue, 11)).isEqualTo(3);
        assertThat(TimelineScale.firstAtOrAfter(times, Long::longValue, 26)).as("past the last").isEqualTo(4);
    }
}
