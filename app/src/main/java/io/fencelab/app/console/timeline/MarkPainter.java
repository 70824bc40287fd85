package io.fencelab.app.console.timeline;

import io.fencelab.app.console.timeline.Batches.Shape;
import io.fencelab.app.console.ui.Ink;
import io.fencelab.engine.check.WriteClass;
import io.fencelab.report.Highlights;
import io.fencelab.report.Mark;
import java.util.Arrays;
import java.util.List;
import javafx.scene.text.TextAlignment;

/**
 * A lane's write outcomes as marks, each class its own shape and colour ({@link Ink#of}); a crowded
 * lane's buckets as a bar in the worst class they hold. Witnesses are ringed in red and numbered.
 * Marks closer than a pixel to the previous one of the same class are drawn once.
 */
final class MarkPainter {

    private final TimelineLayers layers;

    MarkPainter(TimelineLayers layers) {
        this.layers = layers;
    }

    /** Draws the marks of lane {@code lane} in view on the line {@code y}, each of radius {@code r}. */
    void paint(List<Mark> marks, int lane, double y, double r, TimelinePlot p) {
        TimelineScale x = p.x();
        double[] lastX = new double[WriteClass.values().length];
        Arrays.fill(lastX, Double.NEGATIVE_INFINITY);
        int from = TimelineScale.firstAtOrAfter(marks, Mark::startMicros, x.start - x.span * 0.01);
        for (int k = from; k < marks.size(); k++) {
            Mark m = marks.get(k);
            if (m.startMicros() > x.end() + x.span * 0.01) {
                break;
            }
            double px = x.at(m.startMicros());
            if (px < TimelineRenderer.GUTTER - r || px > p.right() + r) {
                continue;
            }
            switch (m) {
                case Mark.Write w -> {
                    boolean witness = !p.highlights().isEmpty() && p.highlights().contains(w.seq());
                    int kind = w.kind().ordinal();
                    if (!witness && px - lastX[kind] < 1.0) {
                        continue;
                    }
                    lastX[kind] = px;
                    paintWrite(w, lane, k, px, y, r, witness, p);
                }
                case Mark.Bucket b -> paintBucket(b, x, y);
            }
        }
    }

    private void paintWrite(Mark.Write w, int lane, int item, double px, double y, double r, boolean witness,
                            TimelinePlot p) {
        shape(w.kind(), px, y, r);
        if (witness) {
            Highlights hl = p.highlights();
            boolean isFocused = p.focused().contains(w.seq());
            layers.lanes.outline(Ink.WITNESS, px - r - 4, y - r - 4, 2 * r + 8, 2 * r + 8, isFocused ? 3.5 : 2.5);
            List<Integer> numbers = hl.numbersOf(w.seq());
            if (!numbers.isEmpty()) {
                layers.overlay.text(Ink.WITNESS, "W" + numbers.getFirst(), px + r + 6, y - r - 2,
                        TimelineText.SMALL_BOLD, TextAlignment.LEFT);
            }
        }
        layers.hits.add(HitIndex.Kind.WRITE, w.seq(), lane, item, px - r - 3, y - r - 3, px + r + 3, y + r + 3);
    }

    /** Writes counted in a bucket: a bar as wide as the bucket, in the worst class among them. */
    private void paintBucket(Mark.Bucket b, TimelineScale x, double y) {
        double bx = x.at(b.startMicros());
        double bw = Math.max(2, x.at(b.endMicros()) - bx);
        WriteClass worst = WriteClass.ACCEPTED;
        for (WriteClass kind : WriteClass.values()) {
            if (b.count(kind) > 0 && kind.ordinal() > worst.ordinal()) {
                worst = kind;
            }
        }
        layers.lanes.rect(Ink.of(worst), bx, y - 2, bw, 4);
    }

    /** A write's shape on a white halo, so it reads over bars and grid lines. */
    private void shape(WriteClass kind, double px, double y, double r) {
        Batches lanes = layers.lanes;
        Ink ink = Ink.of(kind);
        switch (kind) {
            case ACCEPTED -> {
                lanes.mark(Ink.HALO, Shape.DOT, px, y, r + 2);
                lanes.mark(ink, Shape.DOT, px, y, r);
            }
            case REJECTED_STALE -> {
                lanes.mark(Ink.HALO, Shape.DOT, px, y, r + 3);
                lanes.mark(ink, Shape.CROSS, px, y, r);
            }
            case STALE_OVERWRITE -> {
                lanes.mark(Ink.HALO, Shape.TRIANGLE, px, y, r + 3);
                lanes.mark(ink, Shape.TRIANGLE, px, y, r + 1.5);
            }
            case MISSING -> {
                lanes.mark(Ink.HALO, Shape.DOT, px, y, r + 2);
                lanes.mark(ink, Shape.RING, px, y, r);
            }
            case OUT_OF_ORDER -> {
                lanes.mark(Ink.HALO, Shape.DIAMOND, px, y, r + 3);
                lanes.mark(ink, Shape.DIAMOND, px, y, r + 1);
            }
        }
    }
}
