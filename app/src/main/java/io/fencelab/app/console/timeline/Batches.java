package io.fencelab.app.console.timeline;

import io.fencelab.app.console.ui.Ink;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import javafx.geometry.VPos;
import javafx.scene.canvas.GraphicsContext;
import javafx.scene.text.Font;
import javafx.scene.text.TextAlignment;

/**
 * Drawing requests collected per colour and drawn together: all rectangles of one colour, then
 * the next colour, so the canvas changes paint a few dozen times per frame instead of once per
 * item (per-item paint changes make large canvases slow).
 */
final class Batches {

    /** Marker shapes for write outcomes. */
    enum Shape { DOT, RING, CROSS, TRIANGLE, DIAMOND }

    private static final class Doubles {
        double[] a = new double[256];
        int n;

        void add(double... v) {
            if (n + v.length > a.length) {
                a = Arrays.copyOf(a, Math.max(a.length * 2, n + v.length));
            }
            System.arraycopy(v, 0, a, n, v.length);
            n += v.length;
        }

        void clear() {
            n = 0;
        }
    }

    private record Text(String text, double x, double y, Font font, TextAlignment align) {}

    private final Map<Ink, Doubles> rects = new EnumMap<>(Ink.class);
    private final Map<Ink, Doubles> outlines = new EnumMap<>(Ink.class);
    private final Map<Ink, Doubles> lines = new EnumMap<>(Ink.class);
    private final Map<Ink, Doubles> marks = new EnumMap<>(Ink.class);
    private final Map<Ink, List<Text>> texts = new EnumMap<>(Ink.class);
    /** The smallest font size of the texts collected since the last clear (infinite for none). */
    private double smallestFont = Double.POSITIVE_INFINITY;

    void clear() {
        smallestFont = Double.POSITIVE_INFINITY;
        rects.values().forEach(Doubles::clear);
        outlines.values().forEach(Doubles::clear);
        lines.values().forEach(Doubles::clear);
        marks.values().forEach(Doubles::clear);
        texts.values().forEach(List::clear);
    }

    void rect(Ink ink, double x, double y, double w, double h) {
        rects.computeIfAbsent(ink, k -> new Doubles()).add(x, y, w, h);
    }

    /** A rectangle's outline, {@code width} px wide. */
    void outline(Ink ink, double x, double y, double w, double h, double width) {
        outlines.computeIfAbsent(ink, k -> new Doubles()).add(x, y, w, h, width);
    }

    void line(Ink ink, double x1, double y1, double x2, double y2, double width, boolean dashed) {
        lines.computeIfAbsent(ink, k -> new Doubles()).add(x1, y1, x2, y2, width, dashed ? 1 : 0);
    }

    void mark(Ink ink, Shape shape, double x, double y, double r) {
        marks.computeIfAbsent(ink, k -> new Doubles()).add(x, y, r, shape.ordinal());
    }

    void text(Ink ink, String text, double x, double y, Font font, TextAlignment align) {
        smallestFont = Math.min(smallestFont, font.getSize());
        texts.computeIfAbsent(ink, k -> new ArrayList<>()).add(new Text(text, x, y, font, align));
    }

    /** The texts collected since the last clear, colour by colour in {@link Ink} order (tests read the lane names). */
    List<String> texts() {
        List<String> out = new ArrayList<>();
        for (Ink ink : Ink.values()) {
            texts.getOrDefault(ink, List.of()).forEach(t -> out.add(t.text()));
        }
        return out;
    }

    /** The smallest font size among the texts collected since the last clear, in drawing units. */
    double smallestFont() {
        return smallestFont;
    }

    /** Draws everything collected, colour by colour in {@link Ink} order, layer by layer. */
    void drawTo(GraphicsContext g) {
        for (Ink ink : Ink.values()) {
            Doubles r = rects.get(ink);
            if (r != null && r.n > 0) {
                g.setFill(ink.color);
                for (int i = 0; i < r.n; i += 4) {
                    g.fillRect(r.a[i], r.a[i + 1], r.a[i + 2], r.a[i + 3]);
                }
            }
        }
        for (Ink ink : Ink.values()) {
            Doubles l = lines.get(ink);
            if (l != null && l.n > 0) {
                g.setStroke(ink.color);
                double width = -1;
                boolean dashed = false;
                g.setLineDashes();
                for (int i = 0; i < l.n; i += 6) {
                    if (l.a[i + 4] != width) {
                        width = l.a[i + 4];
                        g.setLineWidth(width);
                    }
                    boolean d = l.a[i + 5] != 0;
                    if (d != dashed) {
                        dashed = d;
                        if (d) {
                            g.setLineDashes(6, 4);
                        } else {
                            g.setLineDashes();
                        }
                    }
                    g.strokeLine(l.a[i], l.a[i + 1], l.a[i + 2], l.a[i + 3]);
                }
                g.setLineDashes();
            }
        }
        for (Ink ink : Ink.values()) {
            Doubles m = marks.get(ink);
            if (m != null && m.n > 0) {
                g.setFill(ink.color);
                g.setStroke(ink.color);
                for (int i = 0; i < m.n; i += 4) {
                    drawMark(g, Shape.values()[(int) m.a[i + 3]], m.a[i], m.a[i + 1], m.a[i + 2]);
                }
            }
        }
        for (Ink ink : Ink.values()) {
            Doubles o = outlines.get(ink);
            if (o != null && o.n > 0) {
                g.setStroke(ink.color);
                for (int i = 0; i < o.n; i += 5) {
                    g.setLineWidth(o.a[i + 4]);
                    g.strokeRect(o.a[i], o.a[i + 1], o.a[i + 2], o.a[i + 3]);
                }
            }
        }
        g.setTextBaseline(VPos.CENTER);
        for (Ink ink : Ink.values()) {
            List<Text> t = texts.get(ink);
            if (t != null && !t.isEmpty()) {
                g.setFill(ink.color);
                Font font = null;
                TextAlignment align = null;
                for (Text x : t) {
                    if (x.font != font) {
                        font = x.font;
                        g.setFont(font);
                    }
                    if (x.align != align) {
                        align = x.align;
                        g.setTextAlign(align);
                    }
                    g.fillText(x.text, x.x, x.y);
                }
            }
        }
    }

    private static void drawMark(GraphicsContext g, Shape shape, double x, double y, double r) {
        switch (shape) {
            case DOT -> g.fillOval(x - r, y - r, 2 * r, 2 * r);
            case RING -> {
                g.setLineWidth(2);
                g.strokeOval(x - r, y - r, 2 * r, 2 * r);
            }
            case CROSS -> {
                g.setLineWidth(3.2);
                g.strokeLine(x - r, y - r, x + r, y + r);
                g.strokeLine(x - r, y + r, x + r, y - r);
            }
            case TRIANGLE -> g.fillPolygon(new double[] {x - r * 1.15, x + r * 1.15, x},
                    new double[] {y - r, y - r, y + r * 1.1}, 3);
            case DIAMOND -> g.fillPolygon(new double[] {x, x + r, x, x - r}, new double[] {y - r, y, y + r, y}, 4);
        }
    }
}
