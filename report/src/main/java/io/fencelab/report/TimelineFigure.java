package io.fencelab.report;

import io.fencelab.engine.check.WriteClass;
import io.fencelab.engine.clock.RunTimes;
import java.util.List;

/**
 * A run's timeline as a page shows it: the lanes that fit (witness lanes first), aggregated when
 * crowded, with its legend and the notes on what was grouped or left out. The report and the
 * handout draw it the same way; both include {@link TimelineSvg#defs()} once and {@link #CSS}.
 */
final class TimelineFigure {

    /** Lanes drawn at most; the rest are counted (witness lanes are drawn first). */
    static final int MAX_HOLDER_LANES = 100;
    static final int MAX_RESOURCE_LANES = 60;
    /**
     * Lanes a printed handout draws at most: some 120 mm at the text width (a holder lane is about
     * 70 px tall, the figure 1160 px wide), so a crowded run is drawn readable beside its verdict on
     * one page rather than shrunk to a strip.
     */
    static final int PAGE_HOLDER_LANES = 10;
    static final int PAGE_RESOURCE_LANES = 4;
    /** Marks drawn across all lanes, roughly: shared out per lane, within the bounds below. */
    static final int MARK_BUDGET = 6_000;
    static final int MIN_MARKS_PER_LANE = 12;
    static final int MAX_MARKS_PER_LANE = 400;

    private final Timeline drawn;
    private final LaneSelection selection;
    private final boolean detailKept;

    private TimelineFigure(Timeline drawn, LaneSelection selection, boolean detailKept) {
        this.drawn = drawn;
        this.selection = selection;
        this.detailKept = detailKept;
    }

    /** The figure of {@code full}, the timeline of a whole run. */
    static TimelineFigure of(Timeline full) {
        return of(full, List.of());
    }

    /**
     * The figure of {@code full}, drawn one mark at a time within {@code detail} (the windows the
     * report's zoom links go to) even where the rest of a lane is grouped.
     */
    static TimelineFigure of(Timeline full, List<TimelineZoom.Window> detail) {
        return of(full, detail, MAX_HOLDER_LANES, MAX_RESOURCE_LANES);
    }

    /** The figure of {@code full} for a printed page: at most {@link #PAGE_HOLDER_LANES} holder lanes. */
    static TimelineFigure forPage(Timeline full) {
        return of(full, List.of(), PAGE_HOLDER_LANES, PAGE_RESOURCE_LANES);
    }

    private static TimelineFigure of(Timeline full, List<TimelineZoom.Window> detail, int maxHolders, int maxResources) {
        LaneSelection selection = LaneSelection.of(full, maxHolders, maxResources);
        int lanes = Math.max(1, selection.shown().holders().size() + selection.shown().resources().size());
        int perLane = Math.clamp(MARK_BUDGET / lanes, MIN_MARKS_PER_LANE, MAX_MARKS_PER_LANE);
        return new TimelineFigure(selection.shown().aggregated(perLane, detail), selection, !detail.isEmpty());
    }

    /**
     * The legend, the SVG and the notes, appended to {@code out} as one block, which print keeps on
     * one page ({@code .timeline-figure} in {@link HtmlReport#CSS}).
     */
    void appendTo(StringBuilder out) {
        out.append("<div class=\"timeline-figure\">\n");
        legend(out);
        out.append("<div class=\"figure\">").append(TimelineSvg.render(drawn)).append("</div>\n");
        if (drawn.isAggregated()) {
            out.append("<p class=\"note\">This run has more marks than a page can show: crowded lanes group writes into ")
                    .append(Html.esc(RunTimes.rounded(drawn.bucketMicros())))
                    .append(" buckets (stacked bars, counts in the tooltip) and merge close spans. Witness events are always drawn one by one")
                    .append(detailKept ? ", and so is everything in the windows the failovers and lease losses below link to.</p>\n" : ".</p>\n");
        }
        if (selection.hiddenHolders() > 0 || selection.hiddenResources() > 0) {
            out.append("<p class=\"note\">Not drawn: ").append(selection.hiddenHolders()).append(" holders and ")
                    .append(selection.hiddenResources())
                    .append(" resources (lanes with witness events or refused writes come first).</p>\n");
        }
        out.append("</div>\n");
    }

    private void legend(StringBuilder out) {
        out.append("<ul class=\"legend\" aria-label=\"Legend\">");
        swatch(out, "<rect x=\"1\" y=\"3\" width=\"28\" height=\"12\" fill=\"" + Palette.HELD + "\"/>", "held (lease service)");
        swatch(out, "<rect x=\"1\" y=\"3\" width=\"28\" height=\"12\" fill=\"" + Palette.BELIEVED + "\"/>", "believed (holder)");
        swatch(out, "<rect x=\"1\" y=\"3\" width=\"28\" height=\"12\" fill=\"url(#p-gap)\" stroke=\"" + Palette.GAP_DARK + "\"/>",
                "gap: believes, not held");
        swatch(out, "<rect x=\"1\" y=\"1\" width=\"28\" height=\"16\" fill=\"url(#p-pause)\"/>", "paused");
        swatch(out, "<rect x=\"1\" y=\"1\" width=\"28\" height=\"16\" fill=\"url(#p-fault)\" stroke=\"" + Palette.FAULT + "\"/>", "fault");
        for (WriteClass kind : WriteClass.values()) {
            swatch(out, "<use href=\"#" + Palette.symbol(kind) + "\" x=\"15\" y=\"9\"/>", Palette.legend(kind));
        }
        swatch(out, "<path d=\"M1 14H12V5H29\" fill=\"none\" stroke=\"" + Palette.HELD + "\" stroke-width=\"2.5\"/>",
                "highest accepted token");
        if (drawn.isAggregated()) {
            swatch(out, "<rect x=\"10\" y=\"8\" width=\"8\" height=\"9\" fill=\"" + Palette.ACCEPTED + "\"/><rect x=\"10\" y=\"4\" width=\"8\" height=\"4\" fill=\""
                    + Palette.REJECTED + "\"/>", "writes counted per bucket");
        }
        if (drawn.holders().stream().anyMatch(l -> l.agent() != null && l.agent().lost())) {
            swatch(out, "<rect x=\"1\" y=\"1\" width=\"28\" height=\"16\" fill=\"#1a1a1a\" fill-opacity=\"0.14\" "
                    + "stroke=\"#b00020\" stroke-dasharray=\"4 3\"/>", "host lost (process runs)");
        }
        if (!drawn.highlights().isEmpty()) {
            swatch(out, "<g class=\"pin\"><rect x=\"6.5\" y=\"4\" width=\"3\" height=\"13\"/><circle cx=\"8\" cy=\"4\" r=\"3.5\"/></g>"
                    + "<circle class=\"witness\" cx=\"22\" cy=\"9\" r=\"7\"/>", "event in a witness");
        }
        out.append("</ul>\n");
    }

    /** One legend entry: a small SVG drawing and its label. */
    static void swatch(StringBuilder out, String svg, String label) {
        out.append("<li><svg width=\"30\" height=\"18\" viewBox=\"0 0 30 18\" aria-hidden=\"true\">").append(svg)
                .append("</svg>").append(Html.esc(label)).append("</li>");
    }
}
