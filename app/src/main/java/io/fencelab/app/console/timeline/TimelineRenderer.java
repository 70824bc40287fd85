package io.fencelab.app.console.timeline;

import io.fencelab.app.console.ui.Ink;
import io.fencelab.engine.check.Witness;
import io.fencelab.engine.clock.RunTimes;
import io.fencelab.report.Highlights;
import io.fencelab.report.ResourceLane;
import io.fencelab.report.Span;
import io.fencelab.report.TimeAxis;
import io.fencelab.report.Timeline;
import io.fencelab.report.TokenStep;
import java.util.List;
import java.util.function.LongUnaryOperator;
import javafx.scene.canvas.GraphicsContext;
import javafx.scene.paint.Color;
import javafx.scene.text.TextAlignment;

/**
 * Draws a {@link Timeline} (the report's model) on a canvas: the time axis and its grid, a lane
 * per holder ({@link HolderLanePainter}), below them a lane per resource with the token it holds
 * as a step line ({@link ResourceLanePainter}), write outcomes as marks ({@link MarkPainter}), and
 * across every lane the faults of the database, the settings changed during a live run, the
 * pinned event and the focused witness. Only what is in view is drawn. The playhead and the tint
 * of what is still to come are not drawn here: they are {@link PlayheadLayer}'s nodes.
 */
public final class TimelineRenderer {

    public static final double GUTTER = 132;
    public static final double AXIS = 30;
    public static final double RIGHT_PAD = 14;
    public static final double SEPARATOR = 24;
    static final double RESOURCE_H = 70;
    /** A resource lane squeezed to fit the canvas is never lower than this: its token line, labels and marks still fit. */
    public static final double MIN_RESOURCE_H = 46;
    static final double MIN_HOLDER_H = 22;
    static final double MAX_HOLDER_H = 84;

    /**
     * Everything a drawing depends on besides the canvas size. {@code openUntilMicros}: where spans
     * still open at the end of the log run on to (the playhead while the run goes on; 0 once it is over).
     */
    public record Frame(Timeline timeline, double startMicros, double spanMicros, long pinnedSeq, long pinnedAtMicros,
                 int focusedWitness, LongUnaryOperator timeOfSeq, double scrollY, String hint, long openUntilMicros) {}

    /** Where the lanes are, for scrolling and hit tests. */
    public record Layout(double holderH, double resourceH, double contentH, int holders, int resources) {
        double holderTop(int i) {
            return AXIS + i * holderH;
        }

        double resourcesTop() {
            return AXIS + holders * holderH + SEPARATOR;
        }
    }

    private final TimelineLayers layers = new TimelineLayers();
    private final HolderLanePainter holders;
    private final ResourceLanePainter resources;
    private Layout layout = new Layout(40, RESOURCE_H, AXIS, 0, 0);
    /** Canvas pixels per drawing unit: 1 on the desk, {@link #PRESENTATION} on a projector. */
    private final double scale;

    /** How much larger the presenter view draws everything: its smallest text (10) becomes 18 px. */
    public static final double PRESENTATION = 1.8;

    public TimelineRenderer() {
        this(1);
    }

    /** A renderer that draws every font, mark, line and margin {@code scale} times larger. */
    public TimelineRenderer(double scale) {
        this.scale = scale;
        MarkPainter marks = new MarkPainter(layers);
        holders = new HolderLanePainter(layers, marks);
        resources = new ResourceLanePainter(layers, marks);
    }

    /** The smallest text this renderer draws on the canvas, in canvas pixels: its smallest font. */
    double smallestTextPx() {
        return TimelineText.TINY.getSize() * scale;
    }

    /** The lane names the last drawing wrote in the gutter. */
    java.util.List<String> gutterTexts() {
        return layers.gutter.texts();
    }

    /** The smallest text the last drawing put on the canvas, in canvas pixels (infinite if none). */
    double smallestDrawnTextPx() {
        return layers.smallestFont() * scale;
    }

    HitIndex hits() {
        return layers.hits;
    }

    Layout layout() {
        return layout;
    }

    /**
     * Lanes that fill {@code height} (drawing units). When every lane at its full height does not
     * fit, holder and resource lanes shrink in proportion, resources down to {@link #MIN_RESOURCE_H}
     * and holders to {@link #MIN_HOLDER_H}, so a short canvas (the presenter's) still shows every
     * lane of a small story, its resources' last marks included.
     */
    public static Layout layoutFor(Timeline t, double height) {
        int h = t == null ? 0 : t.holders().size();
        int r = t == null ? 0 : t.resources().size();
        double room = height - AXIS - 6 - (r == 0 ? 0 : SEPARATOR);
        double share = Math.min(1, room / (h * MAX_HOLDER_H + r * RESOURCE_H + 1e-9));
        double resourceH = Math.max(MIN_RESOURCE_H, Math.min(RESOURCE_H, RESOURCE_H * share));
        double resources = r == 0 ? 0 : SEPARATOR + r * resourceH;
        double each = h == 0 ? MAX_HOLDER_H
                : Math.max(MIN_HOLDER_H, Math.min(MAX_HOLDER_H, (height - AXIS - resources - 6) / h));
        return new Layout(each, resourceH, AXIS + h * each + resources + 6, h, r);
    }

    /** The token a resource holds, step by step (see {@link ResourceLanePainter#held}). */
    static List<TokenStep> held(ResourceLane lane) {
        return ResourceLanePainter.held(lane);
    }

    /** Draws {@code f} on a canvas {@code width} × {@code height} pixels (hit boxes are in drawing units). */
    public void draw(GraphicsContext g, double width, double height, Frame f) {
        if (scale == 1) {
            drawUnscaled(g, width, height, f);
            return;
        }
        g.save();
        g.scale(scale, scale);
        drawUnscaled(g, width / scale, height / scale, f);
        g.restore();
    }

    private void drawUnscaled(GraphicsContext g, double width, double height, Frame f) {
        layers.clear();
        g.setFill(Color.WHITE);
        g.fillRect(0, 0, width, height);
        Timeline t = f.timeline();
        layout = layoutFor(t, height);
        double plotW = Math.max(10, width - GUTTER - RIGHT_PAD);
        TimelineScale x = new TimelineScale(f.startMicros(), f.spanMicros(), plotW);
        drawAxis(x, width);
        if (t == null || t.holders().isEmpty()) {
            layers.axis.text(Ink.TEXT_MUTED, f.hint(), GUTTER + plotW / 2, AXIS + Math.min(120, (height - AXIS) / 2),
                    TimelineText.HINT, TextAlignment.CENTER);
            layers.axis.drawTo(g);
            return;
        }
        resources.drawing(t);
        double lanesBottom = lanesBottom(layout, height, f.scrollY());
        List<Long> focused = focusedSeqs(t.highlights(), f.focusedWitness());
        TimelinePlot p = new TimelinePlot(x, plotW, t.highlights(), focused, f.openUntilMicros());
        drawFocusedWitness(focused, f.timeOfSeq(), p, lanesBottom);
        // Vertical grid at the axis ticks.
        for (long tick : ticks(x)) {
            double px = x.at(tick);
            layers.lanes.line(Ink.GRID, px, AXIS, px, lanesBottom, 1, false);
        }
        drawLanes(t, p, f.scrollY(), height);
        drawAcrossLanes(t, f, p, lanesBottom);
        layers.drawTo(g, height, plotW);
    }

    /** Where the lanes end on a canvas {@code height} high, scrolled by {@code scroll}. */
    static double lanesBottom(Layout layout, double height, double scroll) {
        return Math.min(height, layout.contentH() - scroll);
    }

    private void drawAxis(TimelineScale x, double width) {
        Batches axis = layers.axis;
        axis.rect(Ink.HALO, 0, 0, width, AXIS);
        axis.line(Ink.SEPARATOR, 0, AXIS - 0.5, width, AXIS - 0.5, 1, false);
        axis.line(Ink.SEPARATOR, GUTTER - 0.5, 0, GUTTER - 0.5, 2000, 1, false);
        axis.text(Ink.TEXT_MUTED, "run time", 8, AXIS / 2, TimelineText.SMALL, TextAlignment.LEFT);
        for (long tick : ticks(x)) {
            double px = x.at(tick);
            if (px < GUTTER || px > width - RIGHT_PAD + 1) {
                continue;
            }
            axis.line(Ink.SEPARATOR, px, AXIS - 6, px, AXIS, 1, false);
            axis.text(Ink.TEXT, RunTimes.brief(tick), px, AXIS / 2 - 2, TimelineText.AXIS_FONT,
                    TextAlignment.CENTER);
        }
    }

    /** The focused witness's events, shaded across every lane between two dashed lines. */
    private void drawFocusedWitness(List<Long> focused, LongUnaryOperator timeOfSeq, TimelinePlot p,
                                    double lanesBottom) {
        long lo = Long.MAX_VALUE;
        long hi = Long.MIN_VALUE;
        for (long seq : focused) {
            long at = timeOfSeq.applyAsLong(seq);
            if (at >= 0) {
                lo = Math.min(lo, at);
                hi = Math.max(hi, at);
            }
        }
        if (lo <= hi) {
            double a = p.x().at(lo) - 10;
            double b = p.x().at(hi) + 10;
            rectClipped(Ink.WITNESS_BAND, a, AXIS, b - a, lanesBottom - AXIS, p.plotW());
            layers.lanes.line(Ink.WITNESS, a, AXIS, a, lanesBottom, 1.5, true);
            layers.lanes.line(Ink.WITNESS, b, AXIS, b, lanesBottom, 1.5, true);
        }
    }

    /** The holder lanes, then the resources' heading and lanes: those in view on a canvas {@code height} high. */
    private void drawLanes(Timeline t, TimelinePlot p, double scroll, double height) {
        for (int i = 0; i < t.holders().size(); i++) {
            double top = layout.holderTop(i) - scroll;
            if (top + layout.holderH() < AXIS || top > height) {
                continue;
            }
            holders.paint(t, t.holders().get(i), i, top, layout.holderH(), p);
        }
        if (t.resources().isEmpty()) {
            return;
        }
        double sepTop = layout.resourcesTop() - SEPARATOR - scroll;
        if (sepTop + SEPARATOR >= AXIS && sepTop <= height) {
            // The rule runs under the heading, not through it.
            layers.lanes.line(Ink.SEPARATOR, GUTTER, sepTop + SEPARATOR - 1, p.right(), sepTop + SEPARATOR - 1, 1,
                    false);
            layers.gutter.text(Ink.TEXT_MUTED, "resources", 8, sepTop + SEPARATOR / 2, TimelineText.SMALL_BOLD,
                    TextAlignment.LEFT);
            layers.lanes.text(Ink.TEXT_MUTED, "the token each resource holds", GUTTER + 6,
                    sepTop + SEPARATOR / 2 - 1, TimelineText.SMALL, TextAlignment.LEFT);
        }
        for (int j = 0; j < t.resources().size(); j++) {
            double top = layout.resourcesTop() + j * layout.resourceH() - scroll;
            if (top + layout.resourceH() < AXIS || top > height) {
                continue;
            }
            resources.paint(t.resources().get(j), t.holders().size() + j, top, layout.resourceH(), p);
        }
    }

    /**
     * What runs across every lane: faults of the database, settings changed during a live run (a
     * dashed line, numbered on the axis), and the pinned event.
     */
    private void drawAcrossLanes(Timeline t, Frame f, TimelinePlot p, double lanesBottom) {
        TimelineScale x = p.x();
        double plotW = p.plotW();
        for (Span.Fault fault : t.globalFaults()) {
            double a = x.at(fault.startMicros());
            double b = Math.max(a + 3, x.at(fault.endMicros()));
            rectClipped(Ink.FAULT, a, AXIS, b - a, lanesBottom - AXIS, plotW);
            TimelineText.ifRoom(layers.lanes, Ink.TEXT, fault.fault() + " (database)", a + 4, AXIS + 10, b - a + 200,
                    TimelineText.SMALL_BOLD, TextAlignment.LEFT);
            layers.hits.add(HitIndex.Kind.FAULT, fault.startSeq(), -1, t.globalFaults().indexOf(fault), a, AXIS, b,
                    lanesBottom);
        }
        for (int i = 0; i < t.changes().size(); i++) {
            Timeline.Change c = t.changes().get(i);
            double px = x.at(c.atMicros());
            if (px < GUTTER || px > GUTTER + plotW) {
                continue;
            }
            layers.lanes.line(Ink.CHANGE, px, AXIS, px, lanesBottom, 1.5, true);
            layers.axis.text(Ink.CHANGE, "\u0394" + (i + 1), px + 3, AXIS - 8, TimelineText.SMALL_BOLD,
                    TextAlignment.LEFT);
            layers.hits.add(HitIndex.Kind.CHANGE, c.seq(), -1, i, px - 4, AXIS, px + 4, lanesBottom);
        }
        if (f.pinnedSeq() > 0 && f.pinnedAtMicros() >= 0) {
            double px = x.at(f.pinnedAtMicros());
            if (px >= GUTTER && px <= GUTTER + plotW) {
                layers.lanes.line(Ink.PINNED, px, AXIS, px, lanesBottom, 2, true);
            }
        }
    }

    private static List<Long> focusedSeqs(Highlights hl, int focused) {
        if (focused <= 0 || focused > hl.witnesses().size()) {
            return List.of();
        }
        Witness w = hl.witnesses().get(focused - 1);
        return w.eventSeqs();
    }

    /** A rectangle on the lanes, cut to the plot. */
    private void rectClipped(Ink ink, double x, double y, double w, double h, double plotW) {
        double a = Math.max(GUTTER, x);
        double e = Math.min(GUTTER + plotW + RIGHT_PAD, x + w);
        if (e > a && h > 0) {
            layers.lanes.rect(ink, a, y, e - a, h);
        }
    }

    /** Tick positions (run micros): the report's rule, about one tick per 110 px at most. */
    static long[] ticks(TimelineScale x) {
        return TimeAxis.ticks(x.start, x.end(), x.width / 110);
    }
}
