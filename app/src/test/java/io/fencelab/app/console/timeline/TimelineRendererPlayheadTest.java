package io.fencelab.app.console.timeline;

import static io.fencelab.app.console.ConsoleFx.fx;
import static org.assertj.core.api.Assertions.assertThat;

import io.fencelab.engine.check.SafetyChecker;
import io.fencelab.engine.event.Event;
import io.fencelab.report.Timeline;
import io.fencelab.testing.LogBuilder;
import java.util.List;
import javafx.scene.canvas.Canvas;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.testfx.framework.junit5.ApplicationExtension;

/**
 * The paused holder's log as it stands at 12 s: A acquired token 41 at 0 s and froze at 10 s; nothing
 * has been logged since. While the run goes on, A's lanes are drawn on to the playhead.
 */
@ExtendWith(ApplicationExtension.class)
class TimelineRendererPlayheadTest {

    private static final double WIDTH = 1000;
    private static final double HEIGHT = 400;
    private static final long SPAN = 60_000_000;

    private static Timeline pausedAtTen() {
        LogBuilder log = new LogBuilder();
        log.runStarted();
        log.acquired(0, "A", "report", 41, 30);
        log.beliefStarted(0.001, "A", "report", 41);
        log.pauseStarted(10, "A", 35);
        List<Event> events = log.events();
        return Timeline.from(events, SafetyChecker.judgement(events));
    }

    /** What is drawn at run time {@code seconds} in the strip at the top of A's lane (only a pause is there). */
    private static HitIndex.Hit pauseStripAt(TimelineRenderer r, double scale, double seconds) {
        double plotW = WIDTH / scale - TimelineRenderer.GUTTER - TimelineRenderer.RIGHT_PAD;
        double x = TimelineRenderer.GUTTER + seconds * 1_000_000 / SPAN * plotW;
        return r.hits().find(x, r.layout().holderTop(0) + 4);
    }

    private static TimelineRenderer drawn(double scale, long nowMicros, boolean over) {
        return fx(() -> {
            TimelineRenderer r = new TimelineRenderer(scale);
            Canvas canvas = new Canvas(WIDTH, HEIGHT);
            r.draw(canvas.getGraphicsContext2D(), WIDTH, HEIGHT, new TimelineRenderer.Frame(pausedAtTen(), 0, SPAN,
                    0, -1, 0, seq -> -1, 0, "", over ? 0 : nowMicros));
            return r;
        });
    }

    @Test
    void aPausedHoldersPauseRunsOnToThePlayheadWhileTheRunGoesOn() {
        TimelineRenderer r = drawn(1, 12_000_000, false);
        assertThat(pauseStripAt(r, 1, 11.5)).as("A's pause at 11.5 s, with the playhead at 12 s").isNotNull()
                .extracting(HitIndex.Hit::kind).isEqualTo(HitIndex.Kind.PAUSE);
        assertThat(pauseStripAt(r, 1, 12.5)).as("nothing is drawn past the playhead").isNull();
    }

    @Test
    void aFinishedRunsPauseEndsWhereTheLogEnds() {
        TimelineRenderer r = drawn(1, 12_000_000, true);
        assertThat(pauseStripAt(r, 1, 11.5)).as("the run is over: the pause ends with the log at 10 s").isNull();
    }

    @Test
    void thePresentationScaleDrawsTheSameLanesLarger() {
        TimelineRenderer r = drawn(TimelineRenderer.PRESENTATION, 12_000_000, false);
        assertThat(pauseStripAt(r, TimelineRenderer.PRESENTATION, 11.5)).isNotNull();
        assertThat(r.smallestTextPx()).as("the smallest canvas text on a projector").isGreaterThanOrEqualTo(18);
        assertThat(new TimelineRenderer().smallestTextPx()).as("on the desk").isLessThan(18);
    }
}
