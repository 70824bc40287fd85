package io.fencelab.app.console.timeline;

import io.fencelab.app.console.ui.Ink;
import io.fencelab.engine.check.Witness;
import io.fencelab.engine.check.WriteClass;
import io.fencelab.engine.clock.RunTimes;
import io.fencelab.report.Highlights;
import io.fencelab.report.HolderLane;
import io.fencelab.report.Mark;
import io.fencelab.report.ResourceLane;
import io.fencelab.report.Span;
import io.fencelab.report.TimeAxis;
import io.fencelab.report.Timeline;
import io.fencelab.report.TokenStep;
import java.util.Arrays;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.LongUnaryOperator;
import javafx.scene.canvas.GraphicsContext;
import javafx.scene.text.Font;
import javafx.scene.text.FontWeight;
import javafx.scene.text.TextAlignment;

/**
 * Draws a {@link Timeline} (the report's model) on a canvas: a lane per holder with the lease the
 * service says it holds (dark bar, labelled with the token), what the holder believes (light bar),
 * the gap between them (amber, striped, labelled), pauses and faults shaded, and write outcomes as
 * marks; below, a lane per resource with the highest accepted token as a step line. Witnesses are
 * outlined in red, the focused one also shaded across every lane. Only what is in view is drawn,
 * and marks closer than a pixel to the previous one of the same kind are drawn once. The playhead
 * and the tint of what is still to come are not drawn here: they are {@link PlayheadLayer}'s nodes.
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

    private static final Font LABEL = Font.font("DejaVu Sans", FontWeight.BOLD, 14);
    private static final Font SMALL = Font.font("DejaVu Sans", 12);
    private static final Font SMALL_BOLD = Font.font("DejaVu Sans", FontWeight.BOLD, 12);
    private static final Font GAP_FONT = Font.font("DejaVu Sans", FontWeight.BOLD, 13);
    private static final Font AXIS_FONT = Font.font("DejaVu Sans", 12);
    private static final Font TINY = Font.font("DejaVu Sans", 10);
    private static final Font TINY_BOLD = Font.font("DejaVu Sans", FontWeight.BOLD, 10);
    private static final Font HINT = Font.font("DejaVu Sans", 18);

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

    private final Batches lanes = new Batches();
    /** Drawn over the lanes: labels that must stay readable over stripes and marks. */
    private final Batches overlay = new Batches();
    private final Batches gutter = new Batches();
    private final Batches axis = new Batches();
    private final HitIndex hits = new HitIndex();
    private final Map<ResourceLane, long[]> ranks = new IdentityHashMap<>();
    private final Map<ResourceLane, List<TokenStep>> held = new IdentityHashMap<>();
    private Timeline ranked;
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
    }

    /** The smallest text this renderer draws on the canvas, in canvas pixels: its smallest font. */
    double smallestTextPx() {
        return TINY.getSize() * scale;
    }

    /** The smallest text the last drawing put on the canvas, in canvas pixels (infinite if none). */
    double smallestDrawnTextPx() {
        return Math.min(Math.min(lanes.smallestFont(), overlay.smallestFont()),
                Math.min(gutter.smallestFont(), axis.smallestFont())) * scale;
    }

    HitIndex hits() {
        return hits;
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
        lanes.clear();
        overlay.clear();
        gutter.clear();
        axis.clear();
        hits.clear();
        g.setFill(javafx.scene.paint.Color.WHITE);
        g.fillRect(0, 0, width, height);
        Timeline t = f.timeline();
        layout = layoutFor(t, height);
        double plotW = Math.max(10, width - GUTTER - RIGHT_PAD);
        Scale x = new Scale(f.startMicros(), f.spanMicros(), plotW);
        double scroll = f.scrollY();

        drawAxis(x, width, f);
        if (t == null || t.holders().isEmpty()) {
            axis.text(Ink.TEXT_MUTED, f.hint(), GUTTER + plotW / 2, AXIS + Math.min(120, (height - AXIS) / 2),
                    HINT, TextAlignment.CENTER);
            axis.drawTo(g);
            return;
        }
        if (ranked != t) {
            ranks.clear();
            held.clear();
            ranked = t;
        }
        double lanesBottom = lanesBottom(layout, height, scroll);
        Highlights hl = t.highlights();
        List<Long> focused = focusedSeqs(hl, f.focusedWitness());
        if (!focused.isEmpty()) {
            long lo = Long.MAX_VALUE;
            long hi = Long.MIN_VALUE;
            for (long seq : focused) {
                long at = f.timeOfSeq().applyAsLong(seq);
                if (at >= 0) {
                    lo = Math.min(lo, at);
                    hi = Math.max(hi, at);
                }
            }
            if (lo <= hi) {
                double a = x.at(lo) - 10;
                double b = x.at(hi) + 10;
                rectClipped(lanes, Ink.WITNESS_BAND, a, AXIS, b - a, lanesBottom - AXIS, plotW);
                lanes.line(Ink.WITNESS, a, AXIS, a, lanesBottom, 1.5, true);
                lanes.line(Ink.WITNESS, b, AXIS, b, lanesBottom, 1.5, true);
            }
        }
        // Vertical grid at the axis ticks.
        for (long tick : ticks(x)) {
            double px = x.at(tick);
            lanes.line(Ink.GRID, px, AXIS, px, lanesBottom, 1, false);
        }

        for (int i = 0; i < t.holders().size(); i++) {
            double top = layout.holderTop(i) - scroll;
            if (top + layout.holderH() < AXIS || top > height) {
                continue;
            }
            drawHolder(t, t.holders().get(i), i, top, layout.holderH(), x, plotW, hl, focused,
                    f.openUntilMicros());
        }
        if (!t.resources().isEmpty()) {
            double sepTop = layout.resourcesTop() - SEPARATOR - scroll;
            if (sepTop + SEPARATOR >= AXIS && sepTop <= height) {
                // The rule runs under the heading, not through it.
                lanes.line(Ink.SEPARATOR, GUTTER, sepTop + SEPARATOR - 1, GUTTER + plotW, sepTop + SEPARATOR - 1, 1,
                        false);
                gutter.text(Ink.TEXT_MUTED, "resources", 8, sepTop + SEPARATOR / 2, SMALL_BOLD, TextAlignment.LEFT);
                lanes.text(Ink.TEXT_MUTED, "the token each resource holds", GUTTER + 6,
                        sepTop + SEPARATOR / 2 - 1, SMALL, TextAlignment.LEFT);
            }
            for (int j = 0; j < t.resources().size(); j++) {
                double top = layout.resourcesTop() + j * layout.resourceH() - scroll;
                if (top + layout.resourceH() < AXIS || top > height) {
                    continue;
                }
                drawResource(t.resources().get(j), t.holders().size() + j, top, layout.resourceH(), x, plotW, hl,
                        focused);
            }
        }
        for (Span.Fault fault : t.globalFaults()) {
            double a = x.at(fault.startMicros());
            double b = Math.max(a + 3, x.at(fault.endMicros()));
            rectClipped(lanes, Ink.FAULT, a, AXIS, b - a, lanesBottom - AXIS, plotW);
            textIfRoom(lanes, Ink.TEXT, fault.fault() + " (database)", a + 4, AXIS + 10, b - a + 200, SMALL_BOLD,
                    TextAlignment.LEFT, plotW);
            hits.add(HitIndex.Kind.FAULT, fault.startSeq(), -1, t.globalFaults().indexOf(fault), a, AXIS, b,
                    lanesBottom);
        }
        // Settings changed during a live run: a dashed line across every lane, numbered on the axis.
        for (int i = 0; i < t.changes().size(); i++) {
            Timeline.Change c = t.changes().get(i);
            double px = x.at(c.atMicros());
            if (px < GUTTER || px > GUTTER + plotW) {
                continue;
            }
            lanes.line(Ink.CHANGE, px, AXIS, px, lanesBottom, 1.5, true);
            axis.text(Ink.CHANGE, "\u0394" + (i + 1), px + 3, AXIS - 8, SMALL_BOLD, TextAlignment.LEFT);
            hits.add(HitIndex.Kind.CHANGE, c.seq(), -1, i, px - 4, AXIS, px + 4, lanesBottom);
        }
        if (f.pinnedSeq() > 0 && f.pinnedAtMicros() >= 0) {
            double px = x.at(f.pinnedAtMicros());
            if (px >= GUTTER && px <= GUTTER + plotW) {
                lanes.line(Ink.PINNED, px, AXIS, px, lanesBottom, 2, true);
            }
        }

        g.save();
        g.beginPath();
        g.rect(GUTTER, AXIS, plotW + RIGHT_PAD, height - AXIS);
        g.clip();
        lanes.drawTo(g);
        overlay.drawTo(g);
        g.restore();

        g.save();
        g.beginPath();
        g.rect(0, AXIS, GUTTER, height - AXIS);
        g.clip();
        gutter.drawTo(g);
        g.restore();

        axis.drawTo(g);
    }

    /** Where the lanes end on a canvas {@code height} high, scrolled by {@code scroll}. */
    static double lanesBottom(Layout layout, double height, double scroll) {
        return Math.min(height, layout.contentH() - scroll);
    }

    private void drawAxis(Scale x, double width, Frame f) {
        axis.rect(Ink.HALO, 0, 0, width, AXIS);
        axis.line(Ink.SEPARATOR, 0, AXIS - 0.5, width, AXIS - 0.5, 1, false);
        axis.line(Ink.SEPARATOR, GUTTER - 0.5, 0, GUTTER - 0.5, 2000, 1, false);
        axis.text(Ink.TEXT_MUTED, "run time", 8, AXIS / 2, SMALL, TextAlignment.LEFT);
        for (long tick : ticks(x)) {
            double px = x.at(tick);
            if (px < GUTTER || px > width - RIGHT_PAD + 1) {
                continue;
            }
            axis.line(Ink.SEPARATOR, px, AXIS - 6, px, AXIS, 1, false);
            axis.text(Ink.TEXT, RunTimes.brief(tick), px, AXIS / 2 - 2, AXIS_FONT,
                    TextAlignment.CENTER);
        }
    }

    /** {@code nowMicros}: where open spans run on to (the playhead while the run goes on, else 0). */
    private void drawHolder(Timeline t, HolderLane lane, int index, double top, double h, Scale x, double plotW,
                            Highlights hl, List<Long> focused, long nowMicros) {
        if (index % 2 == 1) {
            lanes.rect(Ink.LANE_ALT, GUTTER, top, plotW + RIGHT_PAD, h);
        }
        lanes.line(Ink.GRID, GUTTER, top + h, GUTTER + plotW, top + h, 1, false);
        gutter.text(Ink.TEXT, lane.holder(), 10, top + h / 2, h >= 30 ? LABEL : SMALL_BOLD, TextAlignment.LEFT);
        if (h >= 44) {
            gutter.text(Ink.TEXT_MUTED, "service / holder", 10, top + h / 2 + 15, TINY,
                    TextAlignment.LEFT);
        }
        // Roomy lanes keep a strip at the top for the names of pauses and faults.
        boolean roomy = h >= 44;
        double strip = roomy ? 15 : h * 0.08;
        double barH = Math.max(4, (h - strip - (roomy ? 8 : h * 0.08)) / 2 - 2);
        double heldY = top + strip;
        double beliefY = heldY + barH + 3;
        List<Span> spans = lane.spans();
        int lastHeld = -1;
        for (int k = spans.size() - 1; k >= 0 && lastHeld < 0; k--) {
            if (spans.get(k) instanceof Span.Held) {
                lastHeld = k;
            }
        }
        for (int k = 0; k < spans.size(); k++) {
            Span s = spans.get(k);
            long end = t.drawnEnd(s, nowMicros);
            if (end < x.start || s.startMicros() > x.end()) {
                continue;
            }
            double a = Math.max(GUTTER - 5, x.at(s.startMicros()));
            double b = Math.min(GUTTER + plotW + 5, x.at(end));
            double w = Math.max(2, b - a);
            boolean witness = !hl.isEmpty() && hl.contains(s);
            switch (s) {
                case Span.Pause p -> {
                    lanes.rect(Ink.PAUSE, a, top + 1, w, h - 2);
                    if (roomy) {
                        textIfRoom(lanes, Ink.TEXT, "paused", a + 4, top + 8, w, SMALL, TextAlignment.LEFT, plotW);
                    }
                    hits.add(HitIndex.Kind.PAUSE, p.startSeq(), index, k, a, top, a + w, top + h);
                }
                case Span.Fault fl -> {
                    lanes.rect(Ink.FAULT, a, top + 1, w, h - 2);
                    if (roomy) {
                        textIfRoom(lanes, Ink.TEXT, fl.fault(), a + 4, top + 8, Math.max(w, 140), SMALL,
                                TextAlignment.LEFT, plotW);
                    }
                    hits.add(HitIndex.Kind.FAULT, fl.startSeq(), index, k, a - 2, top, a + w + 2, top + h);
                }
                case Span.Held held -> {
                    Font font = roomy ? SMALL_BOLD : TINY_BOLD;
                    if (k == lastHeld) {
                        // A lease just granted has no width yet: drawn at least as wide as its token, so the
                        // 42 the story names is there at the moment it names it.
                        w = Math.max(w, textWidth(Long.toString(held.token()), font) + 8);
                    }
                    lanes.rect(Ink.HELD, a, heldY, w, barH);
                    String label = w > 90 ? "token " + held.token() : Long.toString(held.token());
                    textIfRoom(lanes, Ink.TEXT_ON_DARK, label, a + w / 2, heldY + barH / 2, w - 6, font,
                            TextAlignment.CENTER, plotW);
                    if (witness) {
                        lanes.outline(Ink.WITNESS, a - 1, heldY - 1, w + 2, barH + 2, 2.5);
                    }
                    hits.add(HitIndex.Kind.HELD, held.startSeq(), index, k, a, heldY, a + w, heldY + barH);
                }
                case Span.Believed belief -> {
                    lanes.rect(Ink.BELIEVED, a, beliefY, w, barH);
                    String label = w > 120 ? "believes " + belief.token() : Long.toString(belief.token());
                    textIfRoom(lanes, Ink.TEXT, label, a + 6, beliefY + barH / 2, w - 8,
                            roomy ? SMALL : TINY, TextAlignment.LEFT, plotW);
                    if (witness) {
                        lanes.outline(Ink.WITNESS, a - 1, beliefY - 1, w + 2, barH + 2, 2.5);
                    }
                    hits.add(HitIndex.Kind.BELIEVED, belief.startSeq(), index, k, a, beliefY, a + w, beliefY + barH);
                }
                case Span.Gap gap -> drawGap(gap, end - gap.startMicros(), index, k, a, w, heldY, beliefY + barH, plotW,
                        witness);
                case Span.Coalesced c -> {
                    Ink ink = switch (c.kind()) {
                        case HELD -> Ink.HELD;
                        case BELIEVED -> Ink.BELIEVED;
                        case GAP -> Ink.GAP;
                        case PAUSE -> Ink.PAUSE;
                        case FAULT -> Ink.FAULT;
                    };
                    double y = c.kind() == Span.Kind.HELD ? heldY : beliefY;
                    lanes.rect(ink, a, y, w, barH);
                }
            }
        }
        drawMarks(lane.marks(), index, heldY + barH + 1.5, Math.min(7, Math.max(4, h * 0.14)), x, plotW, hl, focused);
    }

    /** The gap: amber, striped, outlined and labelled across both bars, so nobody can miss it. */
    private void drawGap(Span.Gap gap, long micros, int index, int item, double a, double w, double y0, double y1,
                         double plotW, boolean witness) {
        double gh = y1 - y0;
        lanes.rect(Ink.GAP, a, y0, w, gh);
        for (double sx = a - gh; sx < a + w; sx += 9) {
            double x0 = Math.max(a, sx);
            double x1 = Math.min(a + w, sx + gh);
            if (x1 <= x0) {
                continue;
            }
            // a stripe from bottom-left to top-right, cut at the gap's edges
            double ya = y1 - (x0 - sx);
            double yb = y1 - (x1 - sx);
            lanes.line(Ink.GAP_STRIPE, x0, ya, x1, yb, 1.2, false);
        }
        lanes.outline(witness ? Ink.WITNESS : Ink.GAP_STRIPE, a, y0, w, gh, witness ? 3 : 2);
        String seconds = RunTimes.brief(micros);
        String label = w > 230 ? "GAP " + seconds + ": believes " + gap.token() + ", lease gone"
                : w > 90 ? "GAP " + seconds : "GAP";
        double textW = label.length() * 8.2 + 10;
        if (textW <= w || w > 28) {
            double cx = a + w / 2;
            double cy = y0 + gh / 2;
            double boxW = Math.min(textW, Math.max(w - 4, 30));
            overlay.rect(Ink.HALO, cx - boxW / 2, cy - 9, boxW, 18);
            textIfRoom(overlay, Ink.TEXT_GAP, label, cx, cy, boxW + 2, GAP_FONT, TextAlignment.CENTER, plotW);
        }
        hits.add(HitIndex.Kind.GAP, gap.startSeq(), index, item, a, y0, a + w, y1);
    }

    private void drawResource(ResourceLane lane, int index, double top, double h, Scale x, double plotW,
                              Highlights hl, List<Long> focused) {
        lanes.rect(Ink.LANE_ALT, GUTTER, top, plotW + RIGHT_PAD, h);
        lanes.line(Ink.GRID, GUTTER, top + h, GUTTER + plotW, top + h, 1, false);
        // The name whole on one line if it fits the gutter, else the target above the key (its end
        // kept: "…latest.pdf" tells more than "reports/la…"); the scope under it.
        String name = lane.resource().target() + " " + lane.resource().key();
        double room = GUTTER - 14;
        if (textWidth(name, SMALL_BOLD) <= room) {
            gutter.text(Ink.TEXT, name, 10, top + h / 2 - 8, SMALL_BOLD, TextAlignment.LEFT);
            gutter.text(Ink.TEXT_MUTED, "scope " + lane.resource().scope(), 10, top + h / 2 + 9, SMALL,
                    TextAlignment.LEFT);
        } else {
            gutter.text(Ink.TEXT, lane.resource().target().toString(), 10, top + h / 2 - 8, SMALL_BOLD,
                    TextAlignment.LEFT);
            gutter.text(Ink.TEXT, endOf(lane.resource().key(), SMALL, room), 10, top + h / 2 + 9, SMALL,
                    TextAlignment.LEFT);
        }
        List<TokenStep> steps = held.computeIfAbsent(lane, TimelineRenderer::held);
        long[] tokens = ranks.computeIfAbsent(lane, l -> distinctTokens(held.get(l)));
        double lineTop = top + 12;
        double lineH = h - 32;
        int from = Math.max(0, firstStepAfter(steps, x.start) - 1);
        double lastLabelX = Double.NEGATIVE_INFINITY;
        for (int k = from; k < steps.size(); k++) {
            TokenStep s = steps.get(k);
            if (s.atMicros() > x.end()) {
                break;
            }
            double y = yOfToken(tokens, s.token(), lineTop, lineH);
            double a = Math.max(GUTTER - 2, x.at(s.atMicros()));
            double b = k + 1 < steps.size() ? x.at(steps.get(k + 1).atMicros()) : GUTTER + plotW;
            b = Math.min(GUTTER + plotW, b);
            lanes.line(Ink.STEP, a, y, Math.max(a, b), y, 2.5, false);
            if (k + 1 < steps.size() && steps.get(k + 1).atMicros() <= x.end()) {
                double y2 = yOfToken(tokens, steps.get(k + 1).token(), lineTop, lineH);
                lanes.line(Ink.STEP, b, y, b, y2, 2.5, false);
            }
            if (a - lastLabelX > 40) {
                lanes.text(Ink.TEXT, Long.toString(s.token()), a + 4, y - 8, SMALL_BOLD, TextAlignment.LEFT);
                lastLabelX = a;
            }
            hits.add(HitIndex.Kind.STEP, s.seq(), index, k, a - 4, y - 5, a + 4, y + 5);
        }
        drawMarks(lane.marks(), index, top + h - 11, 5, x, plotW, hl, focused);
    }

    private void drawMarks(List<Mark> marks, int lane, double y, double r, Scale x, double plotW, Highlights hl,
                           List<Long> focused) {
        double[] lastX = new double[WriteClass.values().length];
        Arrays.fill(lastX, Double.NEGATIVE_INFINITY);
        int from = firstMarkAfter(marks, x.start - x.span * 0.01);
        for (int k = from; k < marks.size(); k++) {
            Mark m = marks.get(k);
            if (m.startMicros() > x.end() + x.span * 0.01) {
                break;
            }
            double px = x.at(m.startMicros());
            if (px < GUTTER - r || px > GUTTER + plotW + r) {
                continue;
            }
            switch (m) {
                case Mark.Write w -> {
                    boolean witness = !hl.isEmpty() && hl.contains(w.seq());
                    int kind = w.kind().ordinal();
                    if (!witness && px - lastX[kind] < 1.0) {
                        continue;
                    }
                    lastX[kind] = px;
                    drawWrite(w.kind(), px, y, r);
                    if (witness) {
                        boolean isFocused = focused.contains(w.seq());
                        lanes.outline(Ink.WITNESS, px - r - 4, y - r - 4, 2 * r + 8, 2 * r + 8, isFocused ? 3.5 : 2.5);
                        List<Integer> numbers = hl.numbersOf(w.seq());
                        if (!numbers.isEmpty()) {
                            overlay.text(Ink.WITNESS, "W" + numbers.getFirst(), px + r + 6, y - r - 2, SMALL_BOLD,
                                    TextAlignment.LEFT);
                        }
                    }
                    hits.add(HitIndex.Kind.WRITE, w.seq(), lane, k, px - r - 3, y - r - 3, px + r + 3, y + r + 3);
                }
                case Mark.Bucket b -> {
                    double bx = x.at(b.startMicros());
                    double bw = Math.max(2, x.at(b.endMicros()) - bx);
                    WriteClass worst = WriteClass.ACCEPTED;
                    for (WriteClass kind : WriteClass.values()) {
                        if (b.count(kind) > 0 && kind.ordinal() > worst.ordinal()) {
                            worst = kind;
                        }
                    }
                    lanes.rect(Ink.of(worst), bx, y - 2, bw, 4);
                }
            }
        }
    }

    private void drawWrite(WriteClass kind, double px, double y, double r) {
        Ink ink = Ink.of(kind);
        switch (kind) {
            case ACCEPTED -> {
                lanes.mark(Ink.HALO, Batches.Shape.DOT, px, y, r + 2);
                lanes.mark(ink, Batches.Shape.DOT, px, y, r);
            }
            case REJECTED_STALE -> {
                lanes.mark(Ink.HALO, Batches.Shape.DOT, px, y, r + 3);
                lanes.mark(ink, Batches.Shape.CROSS, px, y, r);
            }
            case STALE_OVERWRITE -> {
                lanes.mark(Ink.HALO, Batches.Shape.TRIANGLE, px, y, r + 3);
                lanes.mark(ink, Batches.Shape.TRIANGLE, px, y, r + 1.5);
            }
            case MISSING -> {
                lanes.mark(Ink.HALO, Batches.Shape.DOT, px, y, r + 2);
                lanes.mark(ink, Batches.Shape.RING, px, y, r);
            }
            case OUT_OF_ORDER -> {
                lanes.mark(Ink.HALO, Batches.Shape.DIAMOND, px, y, r + 3);
                lanes.mark(ink, Batches.Shape.DIAMOND, px, y, r + 1);
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

    private static long[] distinctTokens(List<TokenStep> steps) {
        return steps.stream().mapToLong(TokenStep::token).distinct().sorted().toArray();
    }

    /**
     * The token the resource holds, step by step: each applied write's token (an unfenced resource
     * takes an older one too: a stale overwrite puts the row back to 41 after 42). The report's
     * steps give only the highest token accepted; they stand in where writes are counted in buckets
     * rather than listed (a crowded lane), which only a fenced resource's many writes make.
     */
    static List<TokenStep> held(ResourceLane lane) {
        List<TokenStep> out = new java.util.ArrayList<>();
        long token = Long.MIN_VALUE;
        for (Mark m : lane.marks()) {
            if (m instanceof Mark.Bucket) {
                return lane.steps();
            }
            if (m instanceof Mark.Write w && (w.kind() == WriteClass.ACCEPTED || w.kind() == WriteClass.STALE_OVERWRITE)
                    && (out.isEmpty() || w.token() != token)) {
                token = w.token();
                out.add(new TokenStep(w.atMicros(), w.seq(), w.token(), w.holder()));
            }
        }
        return out;
    }

    private static double yOfToken(long[] tokens, long token, double top, double height) {
        if (tokens.length <= 1) {
            return top + height / 2;
        }
        int rank = Arrays.binarySearch(tokens, token);
        if (rank < 0) {
            rank = -rank - 1;
        }
        return top + height - height * rank / (tokens.length - 1.0);
    }

    private static int firstMarkAfter(List<Mark> marks, double micros) {
        int lo = 0;
        int hi = marks.size();
        while (lo < hi) {
            int mid = (lo + hi) >>> 1;
            if (marks.get(mid).startMicros() < micros) {
                lo = mid + 1;
            } else {
                hi = mid;
            }
        }
        return lo;
    }

    private static int firstStepAfter(List<TokenStep> steps, double micros) {
        int lo = 0;
        int hi = steps.size();
        while (lo < hi) {
            int mid = (lo + hi) >>> 1;
            if (steps.get(mid).atMicros() < micros) {
                lo = mid + 1;
            } else {
                hi = mid;
            }
        }
        return lo;
    }

    private static void rectClipped(Batches b, Ink ink, double x, double y, double w, double h, double plotW) {
        double a = Math.max(GUTTER, x);
        double e = Math.min(GUTTER + plotW + RIGHT_PAD, x + w);
        if (e > a && h > 0) {
            b.rect(ink, a, y, e - a, h);
        }
    }

    /** Draws {@code text} only if it fits in {@code room} px (a rough width: the canvas has no cheap text metrics). */
    private static void textIfRoom(Batches b, Ink ink, String text, double x, double y, double room, Font font,
                                   TextAlignment align, double plotW) {
        if (textWidth(text, font) <= room) {
            b.text(ink, text, x, y, font, align);
        }
    }

    /** {@code text}, or its end after an ellipsis, in at most {@code room} drawing units. */
    static String endOf(String text, Font font, double room) {
        if (textWidth(text, font) <= room) {
            return text;
        }
        int keep = Math.max(1, (int) (room / (font.getSize() * 0.62)) - 1);
        return "\u2026" + text.substring(Math.max(0, text.length() - keep));
    }

    /** A text's rough width in drawing units (the canvas has no cheap text metrics). */
    private static double textWidth(String text, Font font) {
        return text.length() * font.getSize() * 0.62;
    }

    /** Tick positions (run micros): the report's rule, about one tick per 110 px at most. */
    static long[] ticks(Scale x) {
        return TimeAxis.ticks(x.start, x.end(), x.width / 110);
    }

    /** Run time to canvas x. */
    static final class Scale {
        final double start;
        final double span;
        final double width;

        Scale(double start, double span, double width) {
            this.start = start;
            this.span = Math.max(1, span);
            this.width = width;
        }

        double at(double micros) {
            return GUTTER + (micros - start) / span * width;
        }

        double micros(double px) {
            return start + (px - GUTTER) / width * span;
        }

        double end() {
            return start + span;
        }
    }
}
