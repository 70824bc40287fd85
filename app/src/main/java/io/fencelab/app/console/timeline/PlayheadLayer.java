package io.fencelab.app.console.timeline;

import io.fencelab.app.console.ui.Ink;
import io.fencelab.report.Timeline;
import javafx.scene.layout.Pane;
import javafx.scene.shape.Line;
import javafx.scene.shape.Polygon;
import javafx.scene.shape.Rectangle;

/**
 * What moves every frame while a run plays, over the timeline's canvas: the playhead (a line and a
 * triangle on the axis) and the grey tint over the part of the run still to come. Small nodes, so
 * moving the playhead repaints a strip a few pixels wide, not the timeline. The tint is cut into
 * tiles {@value #TILE} pixels wide, so that its moving edge repaints one tile, not all the tint
 * covers (as one rectangle it cost 30–40 ms of software rendering per move in a live storm's
 * first seconds), and follows the playhead in steps of {@value #TINT_STEP} pixels (it may cover
 * that much of what has just happened, never leave what is to come untinted).
 */
public final class PlayheadLayer extends Pane {

    static final double TINT_STEP = 6;
    static final double TILE = 64;
    /** The triangle's half height, as the canvas drew it ({@code Batches.Shape.TRIANGLE}, size 6). */
    private static final double HEAD = 6;

    /** The tint's tiles, left to right from the plot's left edge; made as a wider tint needs them. */
    private final java.util.List<Rectangle> tiles = new java.util.ArrayList<>();
    /** Where the tint is: from, to, top, bottom; from is NaN while there is none. */
    private double tintFrom = Double.NaN;
    private double tintTo;
    private double tintTop;
    private double tintBottom;
    private final Line line = new Line();
    private final Polygon head = new Polygon(-HEAD * 1.15, -HEAD, HEAD * 1.15, -HEAD, 0, HEAD * 1.1);

    public PlayheadLayer() {
        setMouseTransparent(true);
        setPickOnBounds(false);
        line.setStroke(Ink.PLAYHEAD.color);
        line.setStrokeWidth(2);
        head.setFill(Ink.PLAYHEAD.color);
        for (var n : new javafx.scene.Node[] {line, head}) {
            n.setManaged(false);
            n.setVisible(false);
        }
        getChildren().addAll(line, head);
    }

    /**
     * Places the playhead at {@code nowMicros} and, unless the run is {@code over}, the tint from
     * there to {@code endMicros}, on a canvas {@code width} by {@code height} showing {@code timeline}
     * ({@code startMicros} + {@code spanMicros} of it, lanes scrolled by {@code scrollY}). Nothing
     * shows over an empty timeline, as the canvas shows a hint then.
     */
    public void show(Timeline timeline, double width, double height, double startMicros, double spanMicros, long nowMicros,
              long endMicros, boolean over, double scrollY) {
        if (timeline == null || timeline.holders().isEmpty()) {
            hideTint();
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
            hideTint();
            return;
        }
        // Behind the playhead by less than a step: leave it.
        boolean lagsALittle = !Double.isNaN(tintFrom) && a >= tintFrom && a - tintFrom < TINT_STEP && tintTo == b
                && tintTop == top && tintBottom == bottom;
        if (!lagsALittle) {
            placeTint(left, a, b, top, bottom);
        }
    }

    /**
     * Tints {@code [from, to]} by {@code [top, bottom]}: each tile shows its part of it. A tile whose
     * part did not change is not touched, so it is not repainted.
     */
    private void placeTint(double left, double from, double to, double top, double bottom) {
        tintFrom = from;
        tintTo = to;
        tintTop = top;
        tintBottom = bottom;
        while (left + tiles.size() * TILE < to) {
            Rectangle tile = new Rectangle();
            tile.setFill(Ink.FUTURE.color);
            tile.setSmooth(false); // no soft edges, so neighbouring tiles meet without a seam
            tile.setManaged(false);
            tile.setVisible(false);
            tiles.add(tile);
            getChildren().add(tiles.size() - 1, tile); // under the playhead
        }
        for (int k = 0; k < tiles.size(); k++) {
            Rectangle tile = tiles.get(k);
            double a = Math.max(from, left + k * TILE);
            double b = Math.min(to, left + (k + 1) * TILE);
            if (b <= a) {
                tile.setVisible(false);
                continue;
            }
            tile.setX(a);
            tile.setWidth(b - a);
            tile.setY(top);
            tile.setHeight(bottom - top);
            tile.setVisible(true);
        }
    }

    private void hideTint() {
        tintFrom = Double.NaN;
        tiles.forEach(t -> t.setVisible(false));
    }

    /** Where the tint begins now (for tests): at most a step behind the playhead. */
    double tintStart() {
        return tintFrom;
    }
}
