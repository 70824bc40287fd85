package io.fencelab.app.console.timeline;

import static io.fencelab.app.console.timeline.TimelineRenderer.GUTTER;
import static io.fencelab.app.console.timeline.TimelineRenderer.RIGHT_PAD;

import io.fencelab.app.console.ui.Ink;
import io.fencelab.engine.check.WriteClass;
import io.fencelab.report.Mark;
import io.fencelab.report.Palette;
import io.fencelab.report.ResourceLane;
import io.fencelab.report.Timeline;
import io.fencelab.report.TokenStep;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import javafx.scene.text.TextAlignment;

/**
 * A resource's lane: its name in the gutter, the token it holds as a step line (one height per
 * distinct token, lowest at the bottom), and its writes as marks along the bottom. The steps and
 * token ranks of a timeline are worked out once and kept until another timeline is drawn.
 */
final class ResourceLanePainter {

    private final TimelineLayers layers;
    private final MarkPainter marks;
    private final Map<ResourceLane, long[]> ranks = new IdentityHashMap<>();
    private final Map<ResourceLane, List<TokenStep>> held = new IdentityHashMap<>();
    private Timeline ranked;

    ResourceLanePainter(TimelineLayers layers, MarkPainter marks) {
        this.layers = layers;
        this.marks = marks;
    }

    /** Forgets what it worked out for an earlier timeline when {@code t} is another one. */
    void drawing(Timeline t) {
        if (ranked != t) {
            ranks.clear();
            held.clear();
            ranked = t;
        }
    }

    /** Draws {@code lane}, the {@code index}th lane of the drawing, {@code h} high from {@code top}. */
    void paint(ResourceLane lane, int index, double top, double h, TimelinePlot p) {
        layers.lanes.rect(Ink.LANE_ALT, GUTTER, top, p.plotW() + RIGHT_PAD, h);
        layers.lanes.line(Ink.GRID, GUTTER, top + h, p.right(), top + h, 1, false);
        name(lane, top, h);
        steps(lane, index, top, h, p);
        marks.paint(lane.marks(), index, top + h - 11, 5, p);
    }

    /**
     * The name whole on one line if it fits the gutter, else the target above the key (its end
     * kept: "…latest.pdf" tells more than "reports/la…"); the scope under it.
     */
    private void name(ResourceLane lane, double top, double h) {
        Batches gutter = layers.gutter;
        Palette.ResourceLook look = Palette.look(lane.resource());
        if (look.band() != null) {
            sqlName(look, lane, top, h);
            return;
        }
        String name = lane.resource().target() + " " + lane.resource().key();
        double room = GUTTER - 14;
        if (TimelineText.width(name, TimelineText.SMALL_BOLD) <= room) {
            gutter.text(Ink.TEXT, name, 10, top + h / 2 - 8, TimelineText.SMALL_BOLD, TextAlignment.LEFT);
            gutter.text(Ink.TEXT_MUTED, "scope " + lane.resource().scope(), 10, top + h / 2 + 9,
                    TimelineText.SMALL, TextAlignment.LEFT);
        } else {
            gutter.text(Ink.TEXT, lane.resource().target().toString(), 10, top + h / 2 - 8,
                    TimelineText.SMALL_BOLD, TextAlignment.LEFT);
            gutter.text(Ink.TEXT, TimelineText.endOf(lane.resource().key(), TimelineText.SMALL, room), 10,
                    top + h / 2 + 9, TimelineText.SMALL, TextAlignment.LEFT);
        }
    }

    /**
     * A user's SQL fence, named as a row is ("ROW report-1" over "scope reports") but with a band down
     * the gutter's edge and its kind word in the fence's colour, then the fence and key
     * ({@code SQL report 17}, the name's end kept if long).
     */
    private void sqlName(Palette.ResourceLook look, ResourceLane lane, double top, double h) {
        Batches gutter = layers.gutter;
        gutter.rect(Ink.SQL_FENCE, 0, top, 5, h);
        double room = GUTTER - 14;
        double kindW = TimelineText.width(look.kind() + " ", TimelineText.SMALL_BOLD);
        gutter.text(Ink.SQL_FENCE, look.kind(), 10, top + h / 2 - 8, TimelineText.SMALL_BOLD, TextAlignment.LEFT);
        gutter.text(Ink.TEXT, TimelineText.endOf(look.name(), TimelineText.SMALL_BOLD, room - kindW), 10 + kindW,
                top + h / 2 - 8, TimelineText.SMALL_BOLD, TextAlignment.LEFT);
        gutter.text(Ink.TEXT_MUTED, TimelineText.endOf("scope " + lane.resource().scope(), TimelineText.SMALL, room),
                10, top + h / 2 + 9, TimelineText.SMALL, TextAlignment.LEFT);
    }

    /** The token line: a step at each change of the token held, labelled where labels do not crowd. */
    private void steps(ResourceLane lane, int index, double top, double h, TimelinePlot p) {
        Batches lanes = layers.lanes;
        TimelineScale x = p.x();
        List<TokenStep> steps = held.computeIfAbsent(lane, ResourceLanePainter::held);
        long[] tokens = ranks.computeIfAbsent(lane, l -> distinctTokens(held.get(l)));
        double lineTop = top + 12;
        double lineH = h - 32;
        int from = Math.max(0, TimelineScale.firstAtOrAfter(steps, TokenStep::atMicros, x.start) - 1);
        double lastLabelX = Double.NEGATIVE_INFINITY;
        for (int k = from; k < steps.size(); k++) {
            TokenStep s = steps.get(k);
            if (s.atMicros() > x.end()) {
                break;
            }
            double y = yOfToken(tokens, s.token(), lineTop, lineH);
            double a = Math.max(GUTTER - 2, x.at(s.atMicros()));
            double b = k + 1 < steps.size() ? x.at(steps.get(k + 1).atMicros()) : p.right();
            b = Math.min(p.right(), b);
            lanes.line(Ink.STEP, a, y, Math.max(a, b), y, 2.5, false);
            if (k + 1 < steps.size() && steps.get(k + 1).atMicros() <= x.end()) {
                double y2 = yOfToken(tokens, steps.get(k + 1).token(), lineTop, lineH);
                lanes.line(Ink.STEP, b, y, b, y2, 2.5, false);
            }
            if (a - lastLabelX > 40) {
                lanes.text(Ink.TEXT, Long.toString(s.token()), a + 4, y - 8, TimelineText.SMALL_BOLD,
                        TextAlignment.LEFT);
                lastLabelX = a;
            }
            layers.hits.add(HitIndex.Kind.STEP, s.seq(), index, k, a - 4, y - 5, a + 4, y + 5);
        }
    }

    /**
     * The token the resource holds, step by step: each applied write's token (an unfenced resource
     * takes an older one too: a stale overwrite puts the row back to 41 after 42). The report's
     * steps give only the highest token accepted; they stand in where writes are counted in buckets
     * rather than listed (a crowded lane), which only a fenced resource's many writes make.
     */
    static List<TokenStep> held(ResourceLane lane) {
        List<TokenStep> out = new ArrayList<>();
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

    private static long[] distinctTokens(List<TokenStep> steps) {
        return steps.stream().mapToLong(TokenStep::token).distinct().sorted().toArray();
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
}
