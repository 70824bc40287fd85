package io.fencelab.app.console.timeline;

import io.fencelab.report.Highlights;
import java.util.List;

/**
 * What every lane of one drawing is drawn against: the time scale, the plot's width, the
 * witnesses to outline, the events of the focused one, and where spans still open run on to (the
 * playhead while the run goes on; 0 once it is over).
 */
record TimelinePlot(TimelineScale x, double plotW, Highlights highlights, List<Long> focused, long openUntilMicros) {

    /** The x of the plot's right edge. */
    double right() {
        return TimelineRenderer.GUTTER + plotW;
    }
}
