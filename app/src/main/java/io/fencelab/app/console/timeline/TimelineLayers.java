package io.fencelab.app.console.timeline;

import javafx.scene.canvas.GraphicsContext;

/**
 * What one timeline drawing collects before it paints: the lanes, the labels over them (readable
 * over stripes and marks), the gutter of lane names, the time axis, and the hit boxes of what was
 * drawn. {@link #drawTo} paints them in that order, each clipped to its part of the canvas.
 */
final class TimelineLayers {

    final Batches lanes = new Batches();
    /** Drawn over the lanes: labels that must stay readable over stripes and marks. */
    final Batches overlay = new Batches();
    final Batches gutter = new Batches();
    final Batches axis = new Batches();
    final HitIndex hits = new HitIndex();

    void clear() {
        lanes.clear();
        overlay.clear();
        gutter.clear();
        axis.clear();
        hits.clear();
    }

    /** The smallest font the layers hold, in drawing units (infinite if none). */
    double smallestFont() {
        return Math.min(Math.min(lanes.smallestFont(), overlay.smallestFont()),
                Math.min(gutter.smallestFont(), axis.smallestFont()));
    }

    /** Paints the layers on a canvas {@code height} high whose plot is {@code plotW} wide. */
    void drawTo(GraphicsContext g, double height, double plotW) {
        double top = TimelineRenderer.AXIS;
        g.save();
        g.beginPath();
        g.rect(TimelineRenderer.GUTTER, top, plotW + TimelineRenderer.RIGHT_PAD, height - top);
        g.clip();
        lanes.drawTo(g);
        overlay.drawTo(g);
        g.restore();

        g.save();
        g.beginPath();
        g.rect(0, top, TimelineRenderer.GUTTER, height - top);
        g.clip();
        gutter.drawTo(g);
        g.restore();

        axis.drawTo(g);
    }
}
