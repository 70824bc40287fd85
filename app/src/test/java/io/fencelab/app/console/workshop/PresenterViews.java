package io.fencelab.app.console.workshop;

import io.fencelab.app.console.timeline.Renderers;
import io.fencelab.app.console.timeline.TimelineRenderer;

/** What the console's tests read of the presenter view that its package keeps to itself. */
public final class PresenterViews {

    private PresenterViews() {
    }

    /** The smallest text the presenter's timeline drew in its last drawing, in pixels. */
    public static double smallestDrawnTextPx(PresenterView view) {
        return Renderers.smallestDrawnTextPx(view.renderer());
    }

    /** Whether every lane of the presenter's timeline, down to the last resource's, fits its canvas. */
    public static boolean lanesFit(PresenterView view) {
        return Renderers.contentHeight(view.renderer()) * TimelineRenderer.PRESENTATION <= view.timelineHeight() + 1;
    }

    /** The token a resource lane shows at its end (the token the resource holds). */
    public static long heldTokenAtEnd(io.fencelab.report.ResourceLane lane) {
        return Renderers.heldTokenAtEnd(lane);
    }

    /** How many times larger than its 1280 × 720 design the presenter is drawn on its screen. */
    public static double screenScale(PresenterView view) {
        return view.screenScale();
    }

    /** The smallest text the presenter's timeline draws on its canvas, in pixels. */
    public static double smallestCanvasTextPx(PresenterView view) {
        return Renderers.smallestTextPx(view.renderer());
    }
}
