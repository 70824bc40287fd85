package io.fencelab.app.console.timeline;

import io.fencelab.report.ResourceLane;

/** What the console's tests read of a timeline renderer that its package keeps to itself. */
public final class Renderers {

    private Renderers() {
    }

    /** The smallest text the renderer drew in its last drawing, in pixels. */
    public static double smallestDrawnTextPx(TimelineRenderer renderer) {
        return renderer.smallestDrawnTextPx();
    }

    /** The smallest text the renderer draws on its canvas, in pixels. */
    public static double smallestTextPx(TimelineRenderer renderer) {
        return renderer.smallestTextPx();
    }

    /** The lane names the renderer wrote in the gutter in its last drawing. */
    public static java.util.List<String> gutterTexts(TimelineRenderer renderer) {
        return renderer.gutterTexts();
    }

    /** The height of every lane together, unscaled. */
    public static double contentHeight(TimelineRenderer renderer) {
        return renderer.layout().contentH();
    }

    /** The token a resource lane shows at its end (the token the resource holds). */
    public static long heldTokenAtEnd(ResourceLane lane) {
        return TimelineRenderer.held(lane).getLast().token();
    }
}
