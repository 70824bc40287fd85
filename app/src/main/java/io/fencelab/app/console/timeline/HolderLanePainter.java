package io.fencelab.app.console.timeline;

import static io.fencelab.app.console.timeline.TimelineRenderer.GUTTER;
import static io.fencelab.app.console.timeline.TimelineRenderer.RIGHT_PAD;

import io.fencelab.app.console.ui.Ink;
import io.fencelab.engine.clock.RunTimes;
import io.fencelab.report.HolderLane;
import io.fencelab.report.Span;
import io.fencelab.report.Timeline;
import java.util.List;
import javafx.scene.text.Font;
import javafx.scene.text.TextAlignment;

/**
 * A holder's lane: the lease the service says it holds (dark bar, labelled with the token), what
 * the holder believes (light bar), the gap between them (amber, striped, labelled), pauses and
 * faults shaded across the lane, and its writes as marks between the bars.
 */
final class HolderLanePainter {

    private final TimelineLayers layers;
    private final MarkPainter marks;

    /** Where a lane's bars go: {@code roomy} lanes keep a strip at the top for the names of pauses and faults. */
    private record Bars(double top, double h, boolean roomy, double heldY, double beliefY, double barH) {
        static Bars of(double top, double h) {
            boolean roomy = h >= 44;
            double strip = roomy ? 15 : h * 0.08;
            double barH = Math.max(4, (h - strip - (roomy ? 8 : h * 0.08)) / 2 - 2);
            double heldY = top + strip;
            return new Bars(top, h, roomy, heldY, heldY + barH + 3, barH);
        }
    }

    /** One span where it is drawn: item {@code item} of lane {@code lane}, from x {@code a}, {@code w} wide. */
    private record Item(int lane, int item, double a, double w, boolean witness) {}

    HolderLanePainter(TimelineLayers layers, MarkPainter marks) {
        this.layers = layers;
        this.marks = marks;
    }

    /** Draws {@code lane}, the {@code index}th lane of {@code t}, {@code h} high from {@code top}. */
    void paint(Timeline t, HolderLane lane, int index, double top, double h, TimelinePlot p) {
        name(lane, index, top, h, p);
        Bars bars = Bars.of(top, h);
        TimelineScale x = p.x();
        List<Span> spans = lane.spans();
        int lastHeld = lastHeld(spans);
        for (int k = 0; k < spans.size(); k++) {
            Span s = spans.get(k);
            long end = t.drawnEnd(s, p.openUntilMicros());
            if (end < x.start || s.startMicros() > x.end()) {
                continue;
            }
            double a = Math.max(GUTTER - 5, x.at(s.startMicros()));
            double b = Math.min(GUTTER + p.plotW() + 5, x.at(end));
            Item item = new Item(index, k, a, Math.max(2, b - a),
                    !p.highlights().isEmpty() && p.highlights().contains(s));
            span(s, item, k == lastHeld, end, bars);
        }
        marks.paint(lane.marks(), index, bars.heldY() + bars.barH() + 1.5, Math.min(7, Math.max(4, h * 0.14)), p);
        hostLost(t, lane, bars, p);
    }

    /**
     * A process run's holder whose host stopped answering: the lane darkened from then on (to the
     * playhead while the run goes on), edged in red and named, over the events it had logged before.
     */
    private void hostLost(Timeline t, HolderLane lane, Bars bars, TimelinePlot p) {
        HolderLane.Agent agent = lane.agent();
        if (agent == null || !agent.lost()) {
            return;
        }
        TimelineScale x = p.x();
        long end = Math.max(Math.max(t.runMicros(), p.openUntilMicros()), agent.lostAtMicros());
        if (end < x.start || agent.lostAtMicros() > x.end()) {
            return;
        }
        double a = Math.max(GUTTER - 5, x.at(agent.lostAtMicros()));
        double b = Math.min(GUTTER + p.plotW() + 5, x.at(end));
        double w = Math.max(2, b - a);
        layers.lanes.rect(Ink.HOST_LOST, a, bars.top() + 1, w, bars.h() - 2);
        layers.lanes.line(Ink.WITNESS, a, bars.top() + 1, a, bars.top() + bars.h() - 1, 2, true);
        String label = "host " + agent.host() + " lost";
        layers.overlay.rect(Ink.HALO, a + 3, bars.top() + bars.h() - 16,
                Math.min(TimelineText.width(label, TimelineText.SMALL_BOLD) + 6, Math.max(0, w - 4)), 14);
        TimelineText.ifRoom(layers.overlay, Ink.WITNESS, label, a + 6, bars.top() + bars.h() - 9, w - 8,
                TimelineText.SMALL_BOLD, TextAlignment.LEFT);
    }

    /** The lane's shading (every other lane), its rule, and the holder's name in the gutter. */
    private void name(HolderLane lane, int index, double top, double h, TimelinePlot p) {
        if (index % 2 == 1) {
            layers.lanes.rect(Ink.LANE_ALT, GUTTER, top, p.plotW() + RIGHT_PAD, h);
        }
        layers.lanes.line(Ink.GRID, GUTTER, top + h, p.right(), top + h, 1, false);
        layers.gutter.text(Ink.TEXT, lane.holder(), 10, top + h / 2,
                h >= 30 ? TimelineText.LABEL : TimelineText.SMALL_BOLD, TextAlignment.LEFT);
        HolderLane.Agent agent = lane.agent();
        if (agent != null && h >= 40) {
            // A process run: where the holder runs, in place of the rows' names (its tooltip says them).
            Font font = agent.lost() ? TimelineText.TINY_BOLD : TimelineText.TINY;
            layers.gutter.text(agent.lost() ? Ink.WITNESS : Ink.TEXT_MUTED, where(agent, font, GUTTER - 14), 10,
                    top + h / 2 + 15, font, TextAlignment.LEFT);
        } else if (h >= 44) {
            layers.gutter.text(Ink.TEXT_MUTED, "service / holder", 10, top + h / 2 + 15, TimelineText.TINY,
                    TextAlignment.LEFT);
        }
    }

    /** {@code host b · pid 41300}, shortened to fit {@code room}; a lost host says so before the pid. */
    private static String where(HolderLane.Agent agent, Font font, double room) {
        String pid = agent.pid() == null ? "" : " \u00b7 pid " + agent.pid();
        List<String> tries = agent.lost()
                ? List.of("host " + agent.host() + " lost" + pid, "host " + agent.host() + " lost")
                : List.of("host " + agent.host() + pid, agent.host() + pid);
        for (String t : tries) {
            if (TimelineText.width(t, font) <= room) {
                return t;
            }
        }
        return TimelineText.endOf(tries.getLast(), font, room);
    }

    private static int lastHeld(List<Span> spans) {
        for (int k = spans.size() - 1; k >= 0; k--) {
            if (spans.get(k) instanceof Span.Held) {
                return k;
            }
        }
        return -1;
    }

    /** {@code end}: where the span is drawn to (an open one runs on to the playhead). */
    private void span(Span s, Item item, boolean lastHeld, long end, Bars bars) {
        switch (s) {
            case Span.Pause pause -> shaded(Ink.PAUSE, "paused", item.w(), pause.startSeq(), HitIndex.Kind.PAUSE, 0,
                    item, bars);
            case Span.Fault fault -> shaded(Ink.FAULT, fault.fault(), Math.max(item.w(), 140), fault.startSeq(),
                    HitIndex.Kind.FAULT, 2, item, bars);
            case Span.Held held -> held(held, item, lastHeld, bars);
            case Span.Believed belief -> believed(belief, item, bars);
            case Span.Gap gap -> gap(gap, end - gap.startMicros(), item, bars.heldY(), bars.beliefY() + bars.barH());
            case Span.Coalesced c -> {
                Ink ink = switch (c.kind()) {
                    case HELD -> Ink.HELD;
                    case BELIEVED -> Ink.BELIEVED;
                    case GAP -> Ink.GAP;
                    case PAUSE -> Ink.PAUSE;
                    case FAULT -> Ink.FAULT;
                };
                double y = c.kind() == Span.Kind.HELD ? bars.heldY() : bars.beliefY();
                layers.lanes.rect(ink, item.a(), y, item.w(), bars.barH());
            }
        }
    }

    /**
     * A pause or a fault: the whole lane shaded, named in the top strip of a roomy lane within
     * {@code room}; its hit box {@code slack} wider on each side.
     */
    private void shaded(Ink ink, String name, double room, long seq, HitIndex.Kind kind, double slack, Item item,
                        Bars bars) {
        double a = item.a();
        double w = item.w();
        layers.lanes.rect(ink, a, bars.top() + 1, w, bars.h() - 2);
        if (bars.roomy()) {
            TimelineText.ifRoom(layers.lanes, Ink.TEXT, name, a + 4, bars.top() + 8, room, TimelineText.SMALL,
                    TextAlignment.LEFT);
        }
        layers.hits.add(kind, seq, item.lane(), item.item(), a - slack, bars.top(), a + w + slack,
                bars.top() + bars.h());
    }

    private void held(Span.Held held, Item item, boolean lastHeld, Bars bars) {
        Font font = bars.roomy() ? TimelineText.SMALL_BOLD : TimelineText.TINY_BOLD;
        double a = item.a();
        double w = item.w();
        double y = bars.heldY();
        if (lastHeld) {
            // A lease just granted has no width yet: drawn at least as wide as its token, so the
            // 42 the story names is there at the moment it names it.
            w = Math.max(w, TimelineText.width(Long.toString(held.token()), font) + 8);
        }
        layers.lanes.rect(Ink.HELD, a, y, w, bars.barH());
        String label = w > 90 ? "token " + held.token() : Long.toString(held.token());
        TimelineText.ifRoom(layers.lanes, Ink.TEXT_ON_DARK, label, a + w / 2, y + bars.barH() / 2, w - 6, font,
                TextAlignment.CENTER);
        if (item.witness()) {
            layers.lanes.outline(Ink.WITNESS, a - 1, y - 1, w + 2, bars.barH() + 2, 2.5);
        }
        layers.hits.add(HitIndex.Kind.HELD, held.startSeq(), item.lane(), item.item(), a, y, a + w, y + bars.barH());
    }

    private void believed(Span.Believed belief, Item item, Bars bars) {
        double a = item.a();
        double w = item.w();
        double y = bars.beliefY();
        layers.lanes.rect(Ink.BELIEVED, a, y, w, bars.barH());
        String label = w > 120 ? "believes " + belief.token() : Long.toString(belief.token());
        TimelineText.ifRoom(layers.lanes, Ink.TEXT, label, a + 6, y + bars.barH() / 2, w - 8,
                bars.roomy() ? TimelineText.SMALL : TimelineText.TINY, TextAlignment.LEFT);
        if (item.witness()) {
            layers.lanes.outline(Ink.WITNESS, a - 1, y - 1, w + 2, bars.barH() + 2, 2.5);
        }
        layers.hits.add(HitIndex.Kind.BELIEVED, belief.startSeq(), item.lane(), item.item(), a, y, a + w,
                y + bars.barH());
    }

    /** The gap: amber, striped, outlined and labelled across both bars, so nobody can miss it. */
    private void gap(Span.Gap gap, long micros, Item item, double y0, double y1) {
        double a = item.a();
        double w = item.w();
        double gh = y1 - y0;
        layers.lanes.rect(Ink.GAP, a, y0, w, gh);
        for (double sx = a - gh; sx < a + w; sx += 9) {
            double x0 = Math.max(a, sx);
            double x1 = Math.min(a + w, sx + gh);
            if (x1 <= x0) {
                continue;
            }
            // a stripe from bottom-left to top-right, cut at the gap's edges
            double ya = y1 - (x0 - sx);
            double yb = y1 - (x1 - sx);
            layers.lanes.line(Ink.GAP_STRIPE, x0, ya, x1, yb, 1.2, false);
        }
        layers.lanes.outline(item.witness() ? Ink.WITNESS : Ink.GAP_STRIPE, a, y0, w, gh, item.witness() ? 3 : 2);
        String seconds = RunTimes.brief(micros);
        String label = w > 230 ? "GAP " + seconds + ": believes " + gap.token() + ", lease gone"
                : w > 90 ? "GAP " + seconds : "GAP";
        double textW = label.length() * 8.2 + 10;
        if (textW <= w || w > 28) {
            double cx = a + w / 2;
            double cy = y0 + gh / 2;
            double boxW = Math.min(textW, Math.max(w - 4, 30));
            layers.overlay.rect(Ink.HALO, cx - boxW / 2, cy - 9, boxW, 18);
            TimelineText.ifRoom(layers.overlay, Ink.TEXT_GAP, label, cx, cy, boxW + 2, TimelineText.GAP_FONT,
                    TextAlignment.CENTER);
        }
        layers.hits.add(HitIndex.Kind.GAP, gap.startSeq(), item.lane(), item.item(), a, y0, a + w, y1);
    }
}
