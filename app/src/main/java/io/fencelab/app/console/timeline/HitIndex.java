package io.fencelab.app.console.timeline;

import java.util.Arrays;

/**
 * What the last drawing put where, for hover and click: boxes with the seq of the event behind
 * them (or of the event that starts a span) and what they are. Marks are found before spans.
 */
final class HitIndex {

    /** What a box on the timeline is. */
    enum Kind { WRITE, HELD, BELIEVED, GAP, PAUSE, FAULT, STEP, CHANGE }

    /** Something under the pointer. */
    record Hit(Kind kind, long seq, int lane, int item, double x, double y) {}

    private double[] boxes = new double[1024];
    private long[] seqs = new long[256];
    private int[] kinds = new int[256];
    private int[] lanes = new int[256];
    private int[] items = new int[256];
    private int n;

    void clear() {
        n = 0;
    }

    int size() {
        return n;
    }

    void add(Kind kind, long seq, int lane, int item, double x0, double y0, double x1, double y1) {
        if (n == seqs.length) {
            int cap = n * 2;
            boxes = Arrays.copyOf(boxes, cap * 4);
            seqs = Arrays.copyOf(seqs, cap);
            kinds = Arrays.copyOf(kinds, cap);
            lanes = Arrays.copyOf(lanes, cap);
            items = Arrays.copyOf(items, cap);
        }
        boxes[n * 4] = x0;
        boxes[n * 4 + 1] = y0;
        boxes[n * 4 + 2] = x1;
        boxes[n * 4 + 3] = y1;
        seqs[n] = seq;
        kinds[n] = kind.ordinal();
        lanes[n] = lane;
        items[n] = item;
        n++;
    }

    /** The nearest write mark within its box, else the last-drawn (topmost) span containing the point. */
    Hit find(double x, double y) {
        int best = -1;
        double bestDistance = Double.MAX_VALUE;
        for (int i = 0; i < n; i++) {
            if (kinds[i] != Kind.WRITE.ordinal() && kinds[i] != Kind.STEP.ordinal()) {
                continue;
            }
            if (contains(i, x, y)) {
                double cx = (boxes[i * 4] + boxes[i * 4 + 2]) / 2;
                double d = Math.abs(cx - x);
                if (d < bestDistance) {
                    bestDistance = d;
                    best = i;
                }
            }
        }
        if (best < 0) {
            for (int i = n - 1; i >= 0; i--) {
                if (contains(i, x, y)) {
                    best = i;
                    break;
                }
            }
        }
        if (best < 0) {
            return null;
        }
        return new Hit(Kind.values()[kinds[best]], seqs[best], lanes[best], items[best],
                (boxes[best * 4] + boxes[best * 4 + 2]) / 2, (boxes[best * 4 + 1] + boxes[best * 4 + 3]) / 2);
    }

    /** The centre of the last box drawn for event {@code seq}, or null if none is in view. */
    double[] centreOf(long seq) {
        for (int i = n - 1; i >= 0; i--) {
            if (seqs[i] == seq) {
                return new double[] {(boxes[i * 4] + boxes[i * 4 + 2]) / 2, (boxes[i * 4 + 1] + boxes[i * 4 + 3]) / 2};
            }
        }
        return null;
    }

    private boolean contains(int i, double x, double y) {
        return x >= boxes[i * 4] && x <= boxes[i * 4 + 2] && y >= boxes[i * 4 + 1] && y <= boxes[i * 4 + 3];
    }
}
