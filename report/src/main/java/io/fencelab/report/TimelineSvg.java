package io.fencelab.report;

import io.fencelab.engine.check.WriteClass;
import io.fencelab.engine.clock.RunTimes;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.LongToDoubleFunction;

/**
 * Draws a {@link Timeline} as one inline SVG: per holder a lane with what the lease service says it
 * holds, what it believes, the gap between them, pauses and faults, and its writes; per resource the
 * highest accepted token as a step line with the writes plotted at their tokens. Witness events are
 * pinned in red. Every detail is also in a {@code <title>} tooltip, which browsers show without scripts.
 */
final class TimelineSvg {

    static final int AXIS = 28;
    static final int SECTION = 24;
    static final int GLOBAL_LANE = 30;
    static final int HOLDER_LANE = 72;
    static final int RESOURCE_LANE = 66;

    // Rows inside a holder lane, relative to its top.
    private static final int HELD_Y = 6;
    private static final int BELIEVED_Y = 27;
    private static final int ROW_H = 17;
    private static final int MARK_Y = 58;

    /** Labels closer than this (pixels) to the previous one in a row are left to the tooltip. */
    private static final double LABEL_SPACING = 30;
    /** Lanes with at most this many marks (or steps) get labels in words. */
    private static final int FEW = 8;

    /**
     * Opens a lane's plot area: everything in it is placed by run time, so the report's zoom script
     * ({@link TimelineZoom}) can move it; lane names and backgrounds stay outside.
     */
    private static final String PLOT = "<g class=\"plot\">";

    private final Timeline t;
    private final TimeAxis axis;
    private final StringBuilder out = new StringBuilder(1 << 16);

    private TimelineSvg(Timeline t) {
        this.t = t;
        this.axis = new TimeAxis(t.runMicros());
    }

    static String render(Timeline t) {
        return new TimelineSvg(t).draw();
    }

    static int height(Timeline t) {
        int h = AXIS + SECTION + t.holders().size() * HOLDER_LANE + AXIS;
        if (!t.globalFaults().isEmpty()) {
            h += GLOBAL_LANE;
        }
        if (!t.resources().isEmpty()) {
            h += SECTION + t.resources().size() * RESOURCE_LANE;
        }
        return h;
    }

    private String draw() {
        int height = height(t);
        out.append("<svg class=\"timeline\" width=\"").append(TimeAxis.WIDTH).append("\" height=\"").append(height)
                .append("\" viewBox=\"0 0 ").append(TimeAxis.WIDTH).append(' ').append(height)
                .append("\" role=\"img\" aria-label=\"Timeline of ").append(t.holders().size()).append(" holders and ")
                .append(t.resources().size()).append(" resources over ").append(Html.esc(RunTimes.seconds(t.runMicros())))
                // What the report's zoom script needs to map an x back to run time (TimelineZoom).
                .append("\" data-run=\"").append(axis.runMicros()).append("\" data-left=\"").append(TimeAxis.LEFT)
                .append("\" data-plot=\"").append(TimeAxis.PLOT).append("\">");
        axis.grid(out, AXIS - 6, height - AXIS + 6, 16);
        axis.grid(out, height - AXIS + 6, height - AXIS + 6, height - 8);
        int y = AXIS;
        if (!t.globalFaults().isEmpty()) {
            globalLane(y);
            y += GLOBAL_LANE;
        }
        section(y, "HOLDERS: held (lease service) · believes (holder) · writes");
        y += SECTION;
        for (int i = 0; i < t.holders().size(); i++) {
            holderLane(t.holders().get(i), y, i);
            y += HOLDER_LANE;
        }
        if (!t.resources().isEmpty()) {
            section(y, "RESOURCES: highest accepted token · writes at their token");
            y += SECTION;
            for (int i = 0; i < t.resources().size(); i++) {
                resourceLane(t.resources().get(i), y, i);
                y += RESOURCE_LANE;
            }
        }
        changes(height);
        out.append("</svg>");
        return out.toString();
    }

    /** Settings changed during a live run: a dashed line across every lane, numbered, the change in its tooltip. */
    private void changes(int height) {
        if (t.changes().isEmpty()) {
            return;
        }
        out.append(PLOT);
        int n = 0;
        for (Timeline.Change c : t.changes()) {
            String x = Html.fine(axis.x(c.atMicros()));
            out.append("<g class=\"change\"><title>").append(Html.esc("changed at " + RunTimes.seconds(c.atMicros()) + ": "
                    + c.text())).append("</title><line x1=\"").append(x).append("\" x2=\"").append(x)
                    .append("\" y1=\"").append(AXIS - 4).append("\" y2=\"").append(height - AXIS + 6)
                    .append("\" stroke=\"").append(Palette.CHANGE).append("\" stroke-width=\"1.5\" stroke-dasharray=\"5 3\"/>")
                    .append("<text class=\"lbl\" x=\"").append(x).append("\" dx=\"0\" y=\"").append(AXIS - 8)
                    .append("\" text-anchor=\"middle\" fill=\"").append(Palette.CHANGE).append("\">\u0394").append(++n)
                    .append("</text></g>");
        }
        out.append("</g>");
    }

    /**
     * The patterns and marker symbols the timeline and its legend refer to ({@code url(#p-gap)},
     * {@code #m-acc}, …), as one hidden SVG the page includes once, before either.
     */
    static String defs() {
        return new StringBuilder("<svg class=\"defs\" width=\"0\" height=\"0\" aria-hidden=\"true\"><defs>")
                .append("<pattern id=\"p-pause\" patternUnits=\"userSpaceOnUse\" width=\"8\" height=\"8\" patternTransform=\"rotate(45)\">")
                .append("<rect width=\"8\" height=\"8\" fill=\"#F1F1F1\"/><rect width=\"3\" height=\"8\" fill=\"#C4C4C4\"/></pattern>")
                .append("<pattern id=\"p-fault\" patternUnits=\"userSpaceOnUse\" width=\"8\" height=\"8\" patternTransform=\"rotate(-45)\">")
                .append("<rect width=\"8\" height=\"8\" fill=\"#F7E8F1\"/><rect width=\"3\" height=\"8\" fill=\"#E3B6D0\"/></pattern>")
                .append("<pattern id=\"p-gap\" patternUnits=\"userSpaceOnUse\" width=\"10\" height=\"10\" patternTransform=\"rotate(45)\">")
                .append("<rect width=\"10\" height=\"10\" fill=\"").append(Palette.GAP).append("\"/><rect width=\"3\" height=\"10\" fill=\"#F5C453\"/></pattern>")
                .append("<g id=\"m-acc\"><circle r=\"5.5\" fill=\"").append(Palette.ACCEPTED).append("\" stroke=\"#fff\" stroke-width=\"1.2\"/></g>")
                .append("<g id=\"m-rej\"><path d=\"M-5 -5L5 5M-5 5L5 -5\" stroke=\"#fff\" stroke-width=\"5\"/><path d=\"M-5 -5L5 5M-5 5L5 -5\" stroke=\"")
                .append(Palette.REJECTED).append("\" stroke-width=\"2.6\"/></g>")
                .append("<g id=\"m-ovr\"><path d=\"M0 -7.5L7 5H-7Z\" fill=\"").append(Palette.OVERWROTE)
                .append("\" stroke=\"#fff\" stroke-width=\"1.2\"/></g>")
                .append("<g id=\"m-mis\"><circle r=\"4.5\" fill=\"#fff\" stroke=\"").append(Palette.MISSING).append("\" stroke-width=\"2\"/></g>")
                .append("<g id=\"m-ooo\"><path d=\"M0 -6L6 0L0 6L-6 0Z\" fill=\"").append(Palette.OUT_OF_ORDER)
                .append("\" stroke=\"#fff\" stroke-width=\"1.2\"/></g>")
                .append("</defs></svg>").toString();
    }

    private void section(int y, String title) {
        out.append("<text class=\"section\" x=\"8\" y=\"").append(y + 16).append("\">").append(Html.esc(title)).append("</text>");
    }

    // ---- global faults --------------------------------------------------------------------------

    private void globalLane(int y) {
        laneBackground(y, GLOBAL_LANE, 0);
        label(y + 20, "database", null);
        out.append(PLOT);
        for (Span.Fault f : t.globalFaults()) {
            String tip = "%s on the database, %s%s".formatted(f.fault(), RunTimes.range(f.startMicros(), f.endMicros()),
                    f.detail() == null ? "" : " (" + f.detail() + ")");
            spanRect(f, y + 5, GLOBAL_LANE - 10, "url(#p-fault)", Palette.FAULT, tip);
            spanText(f, 4, y + 19, "lbl", Html.clip(f.fault(), 24), width(f) > 90);
        }
        out.append("</g>");
    }

    // ---- holders --------------------------------------------------------------------------------

    private void holderLane(HolderLane lane, int y, int index) {
        laneBackground(y, HOLDER_LANE, index);
        // Witness events, pinned where they happened: seq -> {x, top, height}; the first row claiming a seq wins.
        Map<Long, double[]> pins = new LinkedHashMap<>();
        out.append(PLOT);
        disturbances(lane, y);
        heldRow(lane, y, pins);
        beliefRow(lane, y, pins);
        gapRow(lane, y);
        for (Span s : lane.spans()) {
            if (s instanceof Span.Pause || s instanceof Span.Fault) {
                List<Long> seqs = s.seqs();
                for (long seq : seqs) {
                    long at = seq == seqs.getFirst() ? s.startMicros() : s.endMicros();
                    pin(pins, seq, axis.x(at), y + 2, HOLDER_LANE - 4);
                }
            }
        }

        out.append("</g>");
        // The writes' line: a thin rule so the markers read as one row.
        out.append("<line class=\"rule\" x1=\"").append(TimeAxis.LEFT).append("\" x2=\"").append(TimeAxis.LEFT + TimeAxis.PLOT)
                .append("\" y1=\"").append(y + MARK_Y).append("\" y2=\"").append(y + MARK_Y).append("\"/>");
        out.append(PLOT);
        marks(lane.marks(), micros -> y + MARK_Y, y + HOLDER_LANE - 3, true, Set.of());

        AgentSvg.lostBand(out, axis, lane, t.runMicros(), y + 1, HOLDER_LANE - 2);
        pins.values().forEach(p -> pinAt(p[0], p[1], p[2]));
        out.append("</g>");
        label(y + 20, lane.holder(), TimelineTips.witnessTag(t, lane));
        AgentSvg.labels(out, lane, y + 20);
        rowLabel(y + HELD_Y + 13, "held");
        rowLabel(y + BELIEVED_Y + 13, "believes");
        rowLabel(y + MARK_Y + 4, "writes");
    }

    /** A holder's pauses and faults, drawn first, behind its bars. */
    private void disturbances(HolderLane lane, int y) {
        for (Span s : lane.spans()) {
            switch (s) {
                case Span.Pause p -> {
                    spanRect(p, y + 2, HOLDER_LANE - 4, "url(#p-pause)", null,
                            "%s paused (%s): %s, %s".formatted(lane.holder(), p.cause(),
                                    RunTimes.range(p.startMicros(), p.endMicros()), RunTimes.seconds(p.durationMicros())));
                    spanText(p, 4, y + HOLDER_LANE - 5, "lbl muted", "paused " + RunTimes.seconds(p.durationMicros()),
                            width(p) > 80);
                }
                case Span.Fault f -> {
                    String tip = "%s on %s, %s%s".formatted(f.fault(), f.appliesTo(),
                            RunTimes.range(f.startMicros(), f.endMicros()), f.detail() == null ? "" : " (" + f.detail() + ")");
                    if (f.durationMicros() == 0) {
                        double x = axis.x(f.startMicros());
                        out.append("<g><title>").append(Html.esc(tip)).append("</title><rect x=\"").append(Html.fine(x - 1.5))
                                .append("\" y=\"").append(y + 2).append("\" width=\"3\" height=\"").append(HOLDER_LANE - 4)
                                .append("\" fill=\"").append(Palette.FAULT).append("\"/></g>");
                    } else {
                        spanRect(f, y + HOLDER_LANE - 10, 7, "url(#p-fault)", Palette.FAULT, tip);
                    }
                }
                case Span.Coalesced c when c.kind() == Span.Kind.PAUSE || c.kind() == Span.Kind.FAULT ->
                        spanRect(c, y + 2, HOLDER_LANE - 4, c.kind() == Span.Kind.PAUSE ? "url(#p-pause)" : "url(#p-fault)",
                                null, TimelineTips.coalescedTip(c, lane.holder()));
                default -> { }
            }
        }
    }

    /** What the lease service says the holder held, with each lease's token and how it ended. */
    private void heldRow(HolderLane lane, int y, Map<Long, double[]> pins) {
        double lastHeldLabel = Double.NEGATIVE_INFINITY;
        List<Span.Held> held = lane.held();
        for (int i = 0; i < held.size(); i++) {
            Span.Held h = held.get(i);
            String tip = "%s holds the lease on %s with token %d (lease service): %s, %s%s%s".formatted(
                    lane.holder(), h.scope(), h.token(), RunTimes.range(h.startMicros(), h.endMicros()), TimelineTips.endText(h.end()),
                    h.renewals() == 0 ? "" : ", renewed " + h.renewals() + "×",
                    h.fencingToken() == h.token() ? "" : "; presents token " + h.fencingToken());
            spanRect(h, y + HELD_Y, ROW_H, Palette.HELD, null, tip);
            double x0 = axis.x(h.startMicros());
            double w = width(h);
            String label = w > 150 && h.renewals() > 0 ? "token %d · renewed %d×".formatted(h.token(), h.renewals())
                    : w > 64 ? "token " + h.token() : Long.toString(h.token());
            if (w > label.length() * 6.4 + 6 && x0 - lastHeldLabel > LABEL_SPACING) {
                spanText(h, 4, y + HELD_Y + 13, "lbl on-dark", label, true);
                lastHeldLabel = x0;
            }
            double nextStart = i + 1 < held.size() ? axis.x(held.get(i + 1).startMicros()) : TimeAxis.LEFT + TimeAxis.PLOT;
            double x1 = x0 + w;
            if (h.end() != Span.HeldEnd.RUN_END && nextStart - x1 > 56) {
                text(x1, 4, y + HELD_Y + 13, "lbl muted", TimelineTips.endText(h.end()), true);
            }
            pin(pins, h.startSeq(), axis.x(h.startMicros()), y + HELD_Y, ROW_H);
            pin(pins, h.endSeq(), axis.x(h.endMicros()), y + HELD_Y, ROW_H);
        }
    }

    /** What the holder believed it held. */
    private void beliefRow(HolderLane lane, int y, Map<Long, double[]> pins) {
        double lastBeliefLabel = Double.NEGATIVE_INFINITY;
        for (Span s : lane.spans()) {
            if (s instanceof Span.Believed b) {
                String tip = "%s believes it holds %s with token %d: %s, %s".formatted(lane.holder(), b.scope(), b.token(),
                        RunTimes.range(b.startMicros(), b.endMicros()),
                        b.openAtEnd() ? "still believed at the end" : "until " + b.endReason());
                spanRect(b, y + BELIEVED_Y, ROW_H, Palette.BELIEVED, null, tip);
                double x0 = axis.x(b.startMicros());
                String label = width(b) > 120 ? "believes token " + b.token() : Long.toString(b.token());
                if (width(b) > label.length() * 6.4 + 6 && x0 - lastBeliefLabel > LABEL_SPACING) {
                    spanText(b, 4, y + BELIEVED_Y + 13, "lbl on-light", label, true);
                    lastBeliefLabel = x0;
                }
                pin(pins, b.startSeq(), axis.x(b.startMicros()), y + BELIEVED_Y, ROW_H);
                pin(pins, b.endSeq(), axis.x(b.endMicros()), y + BELIEVED_Y, ROW_H);
            } else if (s instanceof Span.Coalesced c && (c.kind() == Span.Kind.HELD || c.kind() == Span.Kind.BELIEVED)) {
                spanRect(c, y + (c.kind() == Span.Kind.HELD ? HELD_Y : BELIEVED_Y), ROW_H,
                        c.kind() == Span.Kind.HELD ? Palette.HELD : Palette.BELIEVED, null, TimelineTips.coalescedTip(c, lane.holder()));
            }
        }
    }

    /** Where the holder believed a lease the service no longer counted as held: the gap. */
    private void gapRow(HolderLane lane, int y) {
        for (Span s : lane.spans()) {
            if (s instanceof Span.Gap g) {
                String tip = "Gap: %s still believes it holds token %d after the lease service stopped counting it as held: %s (%s)"
                        .formatted(lane.holder(), g.token(), RunTimes.range(g.startMicros(), g.endMicros()),
                                RunTimes.seconds(g.durationMicros()));
                double x0 = axis.x(g.startMicros());
                double w = Math.max(1.5, width(g));
                // The empty place in the held row, outlined: where the holder thinks a lease is.
                out.append("<rect x=\"").append(Html.fine(x0)).append("\" y=\"").append(y + HELD_Y).append("\" width=\"")
                        .append(Html.fine(w)).append('"').append(times(g)).append(" height=\"").append(ROW_H)
                        .append("\" fill=\"none\" stroke=\"")
                        .append(Palette.GAP_DARK).append("\" stroke-width=\"1.2\" stroke-dasharray=\"4 3\"/>");
                spanRect(g, y + BELIEVED_Y, ROW_H, "url(#p-gap)", Palette.GAP_DARK, tip);
                String label = w > 200 ? "gap: believes token " + g.token() + ", not held" : w > 110 ? "believes, not held" : "gap";
                spanText(g, 4, y + BELIEVED_Y + 13, "lbl on-gap", label, w > label.length() * 6.4 + 6);
            } else if (s instanceof Span.Coalesced c && c.kind() == Span.Kind.GAP) {
                spanRect(c, y + BELIEVED_Y, ROW_H, "url(#p-gap)", Palette.GAP_DARK, TimelineTips.coalescedTip(c, lane.holder()));
            }
        }
    }

    // ---- resources ------------------------------------------------------------------------------

    private void resourceLane(ResourceLane lane, int y, int index) {
        laneBackground(y, RESOURCE_LANE, index);
        long min = Long.MAX_VALUE;
        long max = Long.MIN_VALUE;
        for (TokenStep s : lane.steps()) {
            min = Math.min(min, s.token());
            max = Math.max(max, s.token());
        }
        for (Mark m : lane.marks()) {
            if (m instanceof Mark.Write w) {
                min = Math.min(min, w.token());
                max = Math.max(max, w.token());
            }
        }
        final double top = y + 12;
        final double bottom = y + RESOURCE_LANE - 16;
        final long lo = min;
        final long hi = max;
        LongToDoubleFunction yOf = token -> lo >= hi ? (top + bottom) / 2
                : bottom - ((double) token - (double) lo) / ((double) hi - (double) lo) * (bottom - top);

        List<TokenStep> steps = lane.steps();
        if (steps.isEmpty()) {
            text(TimeAxis.LEFT, 6, y + RESOURCE_LANE / 2.0 + 4, "lbl muted", "no write accepted", true);
        }
        out.append(PLOT);
        if (!steps.isEmpty()) {
            StringBuilder d = new StringBuilder();
            for (int i = 0; i < steps.size(); i++) {
                TokenStep s = steps.get(i);
                String x = Html.fine(axis.x(s.atMicros()));
                String yy = Html.num(yOf.applyAsDouble(s.token()));
                d.append(i == 0 ? "M" + x + " " + yy : "H" + x + "V" + yy);
            }
            d.append("H").append(Html.fine(axis.x(t.runMicros())));
            out.append("<path class=\"step\" d=\"").append(d).append("\"/>");
            double lastLabel = Double.NEGATIVE_INFINITY;
            for (int i = 0; i < steps.size(); i++) {
                TokenStep s = steps.get(i);
                double x0 = axis.x(s.atMicros());
                long until = i + 1 < steps.size() ? steps.get(i + 1).atMicros() : t.runMicros();
                double x1 = axis.x(until);
                double yy = yOf.applyAsDouble(s.token());
                out.append("<rect class=\"hit\" x=\"").append(Html.fine(x0)).append("\" y=\"").append(Html.num(yy - 5))
                        .append("\" width=\"").append(Html.fine(Math.max(2, x1 - x0))).append('"')
                        .append(times(s.atMicros(), until)).append(" height=\"10\"><title>")
                        .append(Html.esc("%s: highest accepted token %d, from %s's write at %s".formatted(lane.resource(),
                                s.token(), s.holder(), RunTimes.seconds(s.atMicros()))))
                        .append("</title></rect>");
                String label = steps.size() <= FEW ? "highest " + s.token() + " (" + s.holder() + ")" : Long.toString(s.token());
                if (x0 - lastLabel > Math.max(LABEL_SPACING, textWidth(label) + 8)
                        && x0 + 13 + textWidth(label) <= TimeAxis.WIDTH - 2) {
                    text(x0, 13, yy - 5, "lbl step-lbl", label, true);
                    lastLabel = x0;
                }
            }
        }
        Set<Long> stepSeqs = new HashSet<>();
        steps.forEach(st -> stepSeqs.add(st.seq()));
        marks(lane.marks(), yOf, y + RESOURCE_LANE - 3, false, stepSeqs);
        out.append("</g>");
        Palette.ResourceLook look = Palette.look(lane.resource());
        if (look.band() != null) {
            // A user's SQL fence: a band down the lane's edge and its kind word in the same colour.
            out.append("<rect x=\"0\" y=\"").append(y).append("\" width=\"5\" height=\"").append(RESOURCE_LANE)
                    .append("\" fill=\"").append(look.band()).append("\"/>");
        }
        out.append("<text class=\"kind\" x=\"8\" y=\"").append(y + 18).append('"')
                .append(look.band() == null ? "" : " style=\"fill:" + look.band() + ";font-weight:700\"").append('>')
                .append(Html.esc(look.band() == null ? look.kind()
                        : Html.clip(look.kind() + " · scope " + lane.resource().scope(), 24))).append("</text>");
        // A SQL fence's name is the fence and key, which the scope would push out of the gutter.
        String name = look.band() == null ? lane.resource().scope() + "/" + look.name() : look.name();
        out.append("<text class=\"lane\" x=\"8\" y=\"").append(y + 34).append("\"><title>").append(Html.esc(look.sentence()))
                .append("</title>").append(Html.esc(Html.clip(name, 16))).append("</text>");
    }

    // ---- marks ----------------------------------------------------------------------------------

    /**
     * Draws write marks; {@code yOfToken} places a write (a constant row on holder lanes, its token's
     * height on resource lanes); buckets stand on {@code baseline}. A lane with few writes gets
     * worded labels ("41 rejected: 42 is newer"), a busy one token numbers where they fit.
     */
    private void marks(List<Mark> marks, LongToDoubleFunction yOfToken, double baseline, boolean holderLane,
                       Set<Long> labelledElsewhere) {
        long maxBucket = 1;
        for (Mark m : marks) {
            if (m instanceof Mark.Bucket b) {
                maxBucket = Math.max(maxBucket, b.total());
            }
        }
        boolean worded = marks.size() <= FEW;
        double labelEnd = Double.NEGATIVE_INFINITY;
        List<Mark.Write> highlighted = new ArrayList<>();
        for (Mark m : marks) {
            switch (m) {
                case Mark.Write w -> {
                    double x = axis.x(w.atMicros());
                    double y = yOfToken.applyAsDouble(w.token());
                    out.append("<g><title>").append(Html.esc(TimelineTips.writeTip(w, holderLane))).append("</title><use href=\"#")
                            .append(Palette.symbol(w.kind())).append("\" x=\"").append(Html.fine(x)).append("\" y=\"")
                            .append(Html.num(y)).append("\"/></g>");
                    boolean ringed = t.highlights().contains(w);
                    if (ringed) {
                        highlighted.add(w);
                    }
                    if (!labelledElsewhere.contains(w.seq())) {
                        String label = worded ? TimelineTips.wordedLabel(w, holderLane) : Long.toString(w.token());
                        double width = textWidth(label);
                        double gap = ringed ? 15 : 9;
                        String cls = w.kind() == WriteClass.STALE_OVERWRITE ? "lbl bad" : "lbl";
                        if (x + gap + width <= TimeAxis.WIDTH - 2 && x + gap > labelEnd + 6) {
                            text(x, gap, y + 4, cls, label, true);
                            labelEnd = x + gap + width;
                        } else if (worded && x - gap - width > labelEnd + 6) {
                            // No room to the right (the run's end): to the left, anchored at its end.
                            out.append("<text class=\"").append(cls).append(" end\" x=\"").append(Html.fine(x))
                                    .append("\" dx=\"").append(Html.num(-gap)).append("\" y=\"").append(Html.num(y + 4)).append("\">").append(Html.esc(label)).append("</text>");
                            labelEnd = x;
                        }
                    }
                }
                case Mark.Bucket b -> bucket(b, baseline, maxBucket);
            }
        }
        for (Mark.Write w : highlighted) {
            out.append("<circle class=\"witness\" cx=\"").append(Html.fine(axis.x(w.atMicros()))).append("\" cy=\"")
                    .append(Html.num(yOfToken.applyAsDouble(w.token()))).append("\" r=\"10\"/>");
        }
    }

    /** An estimate of an 11 px label's width; labels that might not fit are left to the tooltip. */
    private static double textWidth(String label) {
        return label.length() * 6.3;
    }

    /** A bucket of write outcomes: a small stacked bar, one colour per kind, height growing with the count. */
    private void bucket(Mark.Bucket b, double baseline, long maxBucket) {
        double x0 = axis.x(b.startMicros());
        double w = Math.max(1.5, axis.x(b.endMicros()) - x0 - 0.5);
        double total = b.total();
        double height = 4 + 14 * Math.sqrt(total / maxBucket);
        StringBuilder tip = new StringBuilder(RunTimes.range(b.startMicros(), b.endMicros())).append(':');
        String sep = " ";
        for (WriteClass kind : WriteClass.values()) {
            if (b.count(kind) > 0) {
                tip.append(sep).append(b.count(kind)).append(' ').append(Palette.describe(kind));
                sep = ", ";
            }
        }
        out.append("<g><title>").append(Html.esc(tip.toString())).append("</title>");
        double y = baseline;
        for (WriteClass kind : WriteClass.values()) {
            long n = b.count(kind);
            if (n == 0) {
                continue;
            }
            double h = height * n / total;
            y -= h;
            out.append("<rect x=\"").append(Html.fine(x0)).append("\" y=\"").append(Html.num(y)).append("\" width=\"")
                    .append(Html.fine(w)).append('"').append(times(b.startMicros(), b.endMicros()))
                    .append(" height=\"").append(Html.num(Math.max(0.6, h))).append("\" fill=\"")
                    .append(Palette.of(kind)).append("\"/>");
        }
        out.append("</g>");
    }

    // ---- pieces ---------------------------------------------------------------------------------

    private double width(Span s) {
        return axis.x(s.endMicros()) - axis.x(s.startMicros());
    }

    private void spanRect(Span s, double y, double h, String fill, String stroke, String tip) {
        double x0 = axis.x(s.startMicros());
        double w = Math.max(1.5, width(s));
        out.append("<rect x=\"").append(Html.fine(x0)).append("\" y=\"").append(Html.num(y)).append("\" width=\"")
                .append(Html.fine(w)).append('"').append(times(s)).append(" height=\"").append(Html.num(h))
                .append("\" fill=\"").append(fill).append('"');
        if (stroke != null) {
            out.append(" stroke=\"").append(stroke).append("\" stroke-width=\"1\"");
        }
        if (s instanceof Span.Coalesced) {
            out.append(" opacity=\"0.75\"");
        }
        out.append("><title>").append(Html.esc(tip)).append("</title></rect>");
    }

    /** Remembers where event {@code seq} is drawn, if it is in a witness and not pinned already. */
    private void pin(Map<Long, double[]> pins, long seq, double x, double top, double height) {
        if (seq != 0 && t.highlights().contains(seq)) {
            pins.putIfAbsent(seq, new double[] {x, top, height});
        }
    }

    /** A witness event: a red bar across the row at the event's time, with a head above it. */
    private void pinAt(double x, double top, double height) {
        out.append("<g class=\"pin\"><rect x=\"").append(Html.fine(x - 1.5)).append("\" y=\"").append(Html.num(top - 3))
                .append("\" width=\"3\" height=\"").append(Html.num(height + 6)).append("\"/><circle cx=\"")
                .append(Html.fine(x)).append("\" cy=\"").append(Html.num(top - 3)).append("\" r=\"3.5\"/></g>");
    }

    private void laneBackground(int y, int h, int index) {
        out.append("<rect class=\"").append(index % 2 == 0 ? "lane-a" : "lane-b").append("\" x=\"0\" y=\"").append(y)
                .append("\" width=\"").append(TimeAxis.WIDTH).append("\" height=\"").append(h).append("\"/>");
    }

    /** The lane's name in the left column (clipped, full name in the tooltip), and its witness tag. */
    private void label(double y, String name, String tag) {
        out.append("<text class=\"lane\" x=\"8\" y=\"").append(Html.num(y)).append("\"><title>").append(Html.esc(name))
                .append("</title>").append(Html.esc(Html.clip(name, 10))).append("</text>");
        if (tag != null) {
            out.append("<text class=\"tag\" x=\"8\" y=\"").append(Html.num(y + 16)).append("\">").append(Html.esc(tag))
                    .append("</text>");
        }
    }

    private void rowLabel(double y, String text) {
        out.append("<text class=\"row\" x=\"").append(TimeAxis.LEFT - 6).append("\" y=\"").append(Html.num(y)).append("\">")
                .append(Html.esc(text)).append("</text>");
    }

    /**
     * A label {@code dx} pixels right of the time position {@code x}: the offset is kept apart so a
     * zoomed view moves the label with its time and keeps the offset.
     */
    private void text(double x, double dx, double y, String cls, String text, boolean show) {
        if (!show) {
            return;
        }
        out.append("<text class=\"").append(cls).append("\" x=\"").append(Html.fine(x)).append("\" dx=\"").append(Html.num(dx))
                .append("\" y=\"").append(Html.num(y)).append("\">").append(Html.esc(text)).append("</text>");
    }

    /**
     * A span's label, at its start; it carries the span's times, so a zoomed view whose window begins
     * inside the span keeps the label in sight at the window's edge.
     */
    private void spanText(Span s, double dx, double y, String cls, String text, boolean show) {
        if (!show) {
            return;
        }
        out.append("<text class=\"").append(cls).append("\" x=\"").append(Html.fine(axis.x(s.startMicros()))).append("\" dx=\"")
                .append(Html.num(dx)).append('"').append(times(s)).append(" y=\"").append(Html.num(y)).append("\">")
                .append(Html.esc(text)).append("</text>");
    }

    /**
     * A span's run times, for the zoom script: its drawn width has a minimum (and a bucket a gap), so
     * the width alone cannot say where it ends.
     */
    private static String times(Span s) {
        return times(s.startMicros(), s.endMicros());
    }

    static String times(long startMicros, long endMicros) {
        return " data-t=\"" + startMicros + " " + endMicros + "\"";
    }
}
