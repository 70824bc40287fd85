package io.fencelab.app.console.view;

import io.fencelab.report.Timeline;
import javafx.scene.layout.Pane;
import javafx.scene.shape.Line;
import javafx.scene.shape.Polygon;
import javafx.scene.shape.Rectangle;

/**
 * What moves every frame while a run plays, over the timeline's canvas: the playhead (a line and a
 * triangle on the axis) and the grey tint over the part of the run still to come. Small nodes, so
 * moving the playhead repaints a strip a few pixels wide, not the timeline; the tint, whose every
 * change repaints all it covers, follows the playhead in steps of {@value #TINT_STEP} pixels (it may
 * cover that much of what has just happened, never leave what is to come untinted).
 */
final class PlayheadLayer extends Pane {

    static final double TINT_STEP = 6;
    /** The triangle's half height, as the canvas drew it ({@code Batches.Shape.TRIANGLE}, size 6). */
    private static final double HEAD = 6;

    private final Rectangle tint = new Rectangle();
    private final Line line = new Line();
    private final Polygon head = new Polygon(-HEAD * 1.15, -HEAD, HEAD * 1.15, -HEAD, 0, HEAD * 1.1);

    PlayheadLayer() {
        setMouseTransparent(true);
        setPickOnBounds(false);
        tint.setFill(Ink.FUTURE.color);
        line.setStroke(Ink.PLAYHEAD.color);
        line.setStrokeWidth(2);
        head.setFill(Ink.PLAYHEAD.color);
        for (var n : new javafx.scene.Node[] {tint, line, head}) {
            n.setManaged(false);
            n.setVisible(false);
        }
        getChildren().addAll(tint, line, head);
    }

    /**
     * Places the playhead at {@code nowMicros} and, unless the run is {@code over}, the tint from
     * there to {@code endMicros}, on a canvas {@code width} by {@code height} showing {@code timeline}
     * ({@code startMicros} + {@code spanMicros} of it, lanes scrolled by {@code scrollY}). Nothing
     * shows over an empty timeline, as the canvas shows a hint then.
     */
    void show(Timeline timeline, double width, double height, double startMicros, double spanMicros, long nowMicros,
              long endMicros, boolean over, double scrollY) {
        if (timeline == null || timeline.holders().isEmpty()) {
            tint.setVisible(false);
            line.setVisible(false);
            head.setVisible(false);
            return;
        }
        double left = TimelineRenderer.GUTTER;
        double plotW = Math.max(10, width - left - TimelineRenderer.RIGHT_PAD);
        double right = left + plotW;
        double top = TimelineRenderer.AXIS;
        double bottom = TimelineRenderer.lanesBottom(TimelineRenderer.layoutFor(timeline, height), height, scrollY);
        double span = Math.max(1, spanMicros);
        double x = left + (nowMicros - startMicros) / span * plotW;

        boolean inView = x >= left && x <= right;
        line.setVisible(inView);
        head.setVisible(inView);
        if (inView) {
            line.setStartX(x);
            line.setEndX(x);
            line.setStartY(top);
            line.setEndY(bottom);
            head.setLayoutX(x);
            head.setLayoutY(top - 6);
        }

        double a = Math.max(left, x);
        double b = Math.min(right + TimelineRenderer.RIGHT_PAD, left + (endMicros - startMicros) / span * plotW);
        boolean tinted = !over && endMicros > nowMicros && b > a && bottom > top;
        if (!tinted) {
            tint.setVisible(false);
            return;
        }
        // Behind the playhead by less than a step: leave it (each move repaints the whole tint).
        boolean lagsALittle = tint.isVisible() && a >= tint.getX() && a - tint.getX() < TINT_STEP
                && tint.getX() + tint.getWidth() == b && tint.getY() == top && tint.getHeight() == bottom - top;
        if (!lagsALittle) {
            tint.setX(a);
            tint.setY(top);
            tint.setWidth(b - a);
            tint.setHeight(bottom - top);
            tint.setVisible(true);
        }
    }

    /** Where the tint begins now (for tests): at most a step behind the playhead. */
    double tintStart() {
        return tint.isVisible() ? tint.getX() : Double.NaN;
    }
}
