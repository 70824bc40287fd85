package io.fencelab.app.console.tune;

import io.fencelab.app.console.model.TuneModel;
import io.fencelab.app.console.ui.FrameLoop;
import io.fencelab.app.console.ui.Ink;
import io.fencelab.engine.tune.Axis;
import io.fencelab.engine.tune.PointSummary;
import io.fencelab.engine.tune.Recommendation;
import io.fencelab.engine.tune.SweepResults;
import io.fencelab.report.SweepReport;
import java.util.List;
import java.util.function.IntConsumer;
import javafx.beans.property.IntegerProperty;
import javafx.beans.property.SimpleIntegerProperty;
import javafx.geometry.VPos;
import javafx.scene.canvas.Canvas;
import javafx.scene.canvas.GraphicsContext;
import javafx.scene.layout.Pane;
import javafx.scene.paint.Color;
import javafx.scene.text.Font;
import javafx.scene.text.FontWeight;
import javafx.scene.text.TextAlignment;

/**
 * The sweep's heatmap, drawn on a {@link Canvas}: the first varied parameter across, the second
 * upwards (one row for a one-parameter sweep), each cell the mean of the chosen metric over the
 * seeds, light for little and dark for much (the report's viridis ramp), its value written in.
 * Cells still to run are dashed, skipped ones hatched; the recommended setting is ringed. It
 * redraws in the frame loop when the results, the metric, its size or the hovered cell changed.
 * Hovering sets {@link #hoveredProperty()}; a click hands the point's index on.
 */
public final class HeatmapView extends Pane {

    private static final double LEFT = 96;
    private static final double BOTTOM = 58;
    private static final double TOP = 12;
    private static final double RIGHT = 12;
    private static final double MAX_CELL_W = 190;
    private static final double MAX_CELL_H = 120;
    private static final Color PENDING = Color.WHITE;
    private static final Color NONE = Color.web("#EDEFF2");
    private static final Color RING = Color.web("#D55E00");

    private final TuneModel model;
    private final Canvas canvas = new Canvas();
    private final IntegerProperty hovered = new SimpleIntegerProperty(this, "hovered", -1);
    private boolean dirty = true;
    /** The last drawing's grid, for hit testing. */
    private double x0;
    private double y0;
    private double cellW;
    private double cellH;
    private int across;
    private int upwards;
    /** The figures the last drawing wrote into the cells, by point index ("" for a cell without one). */
    private final List<String> drawn = new java.util.ArrayList<>();

    public HeatmapView(TuneModel model, IntConsumer open, FrameLoop loop) {
        this.model = model;
        getStyleClass().add("heatmap");
        getChildren().add(canvas);
        setMinSize(200, 160);
        model.resultsProperty().addListener(o -> dirty = true);
        model.metricProperty().addListener(o -> dirty = true);
        hovered.addListener(o -> dirty = true);
        widthProperty().addListener(o -> dirty = true);
        heightProperty().addListener(o -> dirty = true);
        canvas.setOnMouseMoved(e -> hovered.set(cellAt(e.getX(), e.getY())));
        canvas.setOnMouseExited(e -> hovered.set(-1));
        canvas.setOnMouseClicked(e -> {
            int cell = cellAt(e.getX(), e.getY());
            if (cell >= 0) {
                open.accept(cell);
            }
        });
        loop.addDraw(now -> {
            if (dirty) {
                dirty = false;
                draw();
            }
        });
    }

    /** The point under the mouse, or -1. */
    public IntegerProperty hoveredProperty() {
        return hovered;
    }

    @Override
    protected void layoutChildren() {
        canvas.setWidth(getWidth());
        canvas.setHeight(getHeight());
    }

    /** The index of the point whose cell is at ({@code x}, {@code y}), or -1. */
    public int cellAt(double x, double y) {
        if (across == 0 || cellW <= 0) {
            return -1;
        }
        int i = (int) Math.floor((x - x0) / cellW);
        int j = upwards - 1 - (int) Math.floor((y - y0) / cellH);
        if (x < x0 || y < y0 || i >= across || j < 0 || j >= upwards) {
            return -1;
        }
        return i * upwards + j;
    }

    /** The centre of point {@code index}'s cell, in this view's coordinates (tests click there). */
    public double[] cellCentre(int index) {
        int i = index / upwards;
        int j = index % upwards;
        return new double[] {x0 + (i + 0.5) * cellW, y0 + (upwards - 1 - j + 0.5) * cellH};
    }

    /** The figures the last drawing wrote into the cells, by point index ("" where none): what a viewer reads. */
    public List<String> drawnValues() {
        return List.copyOf(drawn);
    }

    private void draw() {
        drawn.clear();
        GraphicsContext g = canvas.getGraphicsContext2D();
        double w = canvas.getWidth();
        double h = canvas.getHeight();
        g.clearRect(0, 0, w, h);
        SweepResults r = model.results();
        if (r == null) {
            across = 0;
            g.setFill(Ink.TEXT_MUTED.color);
            g.setFont(Font.font(15));
            g.setTextAlign(TextAlignment.CENTER);
            g.setTextBaseline(VPos.CENTER);
            g.fillText("The heatmap appears here when a sweep starts.", w / 2, h / 2);
            return;
        }
        List<Axis> axes = r.plan().axes();
        Axis ax = axes.getFirst();
        Axis ay = axes.size() > 1 ? axes.get(1) : null;
        across = ax.values().size();
        upwards = ay == null ? 1 : ay.values().size();
        // Further axes are not drawn: the form offers two.
        cellW = Math.min(MAX_CELL_W, (w - LEFT - RIGHT) / across);
        cellH = Math.min(MAX_CELL_H, (h - TOP - BOTTOM) / upwards);
        x0 = LEFT;
        y0 = TOP;
        drawCells(g, r, model.metricProperty().get());
        drawGrid(g);
        int recommended = r.recommended().map(a -> a.point().point().index()).orElse(-1);
        if (recommended >= 0) {
            ring(g, recommended, RING, 4);
        }
        if (hovered.get() >= 0 && hovered.get() < across * upwards) {
            ring(g, hovered.get(), Ink.TEXT.color, 2);
        }
        drawAxes(g, ax, ay);
    }

    /** Every point's cell: its mean in the ramp's colour between the lowest and highest mean, or skipped, or to run. */
    private void drawCells(GraphicsContext g, SweepResults r, String metric) {
        double lo = Double.POSITIVE_INFINITY;
        double hi = Double.NEGATIVE_INFINITY;
        for (PointSummary p : r.done().values()) {
            double v = p.mean(metric);
            if (!Double.isNaN(v)) {
                lo = Math.min(lo, v);
                hi = Math.max(hi, v);
            }
        }
        g.setTextAlign(TextAlignment.CENTER);
        g.setTextBaseline(VPos.CENTER);
        Font value = Font.font("DejaVu Sans", FontWeight.BOLD, Math.min(16, Math.max(10, cellH / 3.2)));
        Font small = Font.font("DejaVu Sans", 11);
        for (int index = 0; index < across * upwards; index++) {
            double[] c = cellCentre(index);
            PointSummary p = r.done().get(index);
            drawn.add(p == null ? "" : SweepReport.fmt(p.mean(metric)));
            if (p != null) {
                double v = p.mean(metric);
                double unit = Double.isNaN(v) ? 0 : hi > lo ? (v - lo) / (hi - lo) : 0;
                doneCell(g, p, metric, unit, c, value, small);
            } else if (r.skipped().get(index) != null) {
                skippedCell(g, c, small);
            } else {
                pendingCell(g, c);
            }
        }
    }

    /** A point that ran: its mean ({@code unit} of the way up the ramp), and under it the violations or the seeds' spread. */
    private void doneCell(GraphicsContext g, PointSummary p, String metric, double unit, double[] c, Font value,
                          Font small) {
        double v = p.mean(metric);
        g.setFill(Double.isNaN(v) ? NONE : Color.web(SweepReport.Ramp.colour(unit)));
        g.fillRect(c[0] - cellW / 2, c[1] - cellH / 2, cellW, cellH);
        g.setFill(Double.isNaN(v) ? Ink.TEXT_MUTED.color : Color.web(SweepReport.Ramp.ink(unit)));
        g.setFont(value);
        g.fillText(SweepReport.fmt(v), c[0], c[1] - (cellH > 44 ? 7 : 0));
        if (cellH > 44) {
            g.setFont(small);
            long violated = p.violatedRuns();
            g.fillText(violated > 0 ? "✗ " + violated + " violated" : spread(p, metric), c[0], c[1] + 14);
        }
    }

    /** A skipped point: hatched and named. */
    private void skippedCell(GraphicsContext g, double[] c, Font small) {
        double x = c[0] - cellW / 2;
        double y = c[1] - cellH / 2;
        g.setFill(NONE);
        g.fillRect(x, y, cellW, cellH);
        g.setStroke(Color.web("#B8BEC6"));
        g.setLineWidth(1);
        g.save();
        g.beginPath();
        g.rect(x, y, cellW, cellH);
        g.clip();
        for (double d = -cellH; d < cellW; d += 10) {
            g.strokeLine(x + d, y + cellH, x + d + cellH, y);
        }
        g.restore();
        g.setFill(Ink.TEXT_MUTED.color);
        g.setFont(small);
        g.fillText("skipped", c[0], c[1]);
    }

    /** A point still to run: white, dashed inside. */
    private void pendingCell(GraphicsContext g, double[] c) {
        double x = c[0] - cellW / 2;
        double y = c[1] - cellH / 2;
        g.setFill(PENDING);
        g.fillRect(x, y, cellW, cellH);
        g.setStroke(Color.web("#9AA5B1"));
        g.setLineWidth(1);
        g.setLineDashes(4, 4);
        g.strokeRect(x + 2.5, y + 2.5, cellW - 5, cellH - 5);
        g.setLineDashes();
    }

    /** White lines between the cells. */
    private void drawGrid(GraphicsContext g) {
        g.setStroke(Color.WHITE);
        g.setLineWidth(1);
        for (int i = 0; i <= across; i++) {
            g.strokeLine(x0 + i * cellW, y0, x0 + i * cellW, y0 + upwards * cellH);
        }
        for (int j = 0; j <= upwards; j++) {
            g.strokeLine(x0, y0 + j * cellH, x0 + across * cellW, y0 + j * cellH);
        }
    }

    /** The axes' values and names: {@code ax} across, {@code ay} (null for one parameter) upwards. */
    private void drawAxes(GraphicsContext g, Axis ax, Axis ay) {
        g.setFill(Ink.TEXT.color);
        g.setFont(Font.font("DejaVu Sans", 13));
        g.setTextBaseline(VPos.TOP);
        for (int i = 0; i < across; i++) {
            g.fillText(ax.values().get(i).text(), x0 + (i + 0.5) * cellW, y0 + upwards * cellH + 6);
        }
        g.setFont(Font.font("DejaVu Sans", FontWeight.BOLD, 13));
        g.fillText(ax.path() + " →", x0 + across * cellW / 2, y0 + upwards * cellH + 30);
        g.setTextAlign(TextAlignment.RIGHT);
        g.setTextBaseline(VPos.CENTER);
        g.setFont(Font.font("DejaVu Sans", 13));
        if (ay != null) {
            for (int j = 0; j < upwards; j++) {
                g.fillText(ay.values().get(j).text(), x0 - 8, y0 + (upwards - 1 - j + 0.5) * cellH);
            }
            g.save();
            g.translate(16, y0 + upwards * cellH / 2);
            g.rotate(-90);
            g.setTextAlign(TextAlignment.CENTER);
            g.setFont(Font.font("DejaVu Sans", FontWeight.BOLD, 13));
            g.fillText(ay.path() + " →", 0, 0);
            g.restore();
        }
    }

    /** The seeds' spread under a cell's mean: {@code seeds 0.2–0.9}, {@code 1 seed}, {@code no value}. */
    private static String spread(PointSummary p, String metric) {
        if (Double.isNaN(p.mean(metric))) {
            return "no value in any seed";
        }
        return p.runs().size() == 1 ? "1 seed" : "seeds " + SweepReport.fmt(p.min(metric)) + "–"
                + SweepReport.fmt(p.max(metric));
    }

    private void ring(GraphicsContext g, int index, Color colour, double width) {
        double[] c = cellCentre(index);
        g.setStroke(colour);
        g.setLineWidth(width);
        g.strokeRect(c[0] - cellW / 2 + width / 2, c[1] - cellH / 2 + width / 2, cellW - width, cellH - width);
    }

    /** What a hovered cell says: the setting, the metric's mean and spread, its bound, the worst seed. */
    static String describe(SweepResults r, int index, String metric) {
        if (r == null || index < 0 || index >= r.plan().pointCount()) {
            return "";
        }
        var point = r.points().get(index);
        String label = point.id() + "  " + point.label(r.plan().axes());
        PointSummary p = r.done().get(index);
        if (p == null) {
            String skipped = r.skipped().get(index);
            return label + "\n" + (skipped != null ? "skipped: " + skipped : "still to run");
        }
        StringBuilder s = new StringBuilder(label).append('\n').append(SweepReport.title(metric)).append(": mean ")
                .append(SweepReport.fmt(p.mean(metric))).append(", seeds ").append(SweepReport.fmt(p.min(metric)))
                .append("–").append(SweepReport.fmt(p.max(metric))).append(" over ").append(p.runs().size())
                .append(p.runs().size() == 1 ? " seed" : " seeds");
        double bound = SweepReport.bound(metric, p.bounds());
        if (!Double.isNaN(bound)) {
            s.append("; ").append(SweepReport.boundTitle(metric)).append(" = ").append(SweepReport.fmt(bound))
                    .append(" s");
        }
        s.append("\nworst seed ").append(p.worst().seed()).append(" (").append(p.worst().verdict()).append(")");
        if (p.violatedRuns() > 0) {
            s.append(", ").append(p.violatedRuns()).append(" run(s) VIOLATED");
        }
        if (!r.requirements().isEmpty()) {
            Recommendation.Assessment a = r.assess(p);
            s.append(a.feasible() ? ", meets every constraint"
                    : a.margin() >= 0 ? ", breaks a bound it should not have (set aside)" : ", breaks a constraint");
        }
        return s.append(" — click to open it on the timeline").toString();
    }
}
