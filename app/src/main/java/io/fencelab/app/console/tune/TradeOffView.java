package io.fencelab.app.console.tune;

import io.fencelab.app.console.model.TuneModel;
import io.fencelab.app.console.ui.FrameLoop;
import io.fencelab.app.console.ui.Ink;
import io.fencelab.engine.tune.PointSummary;
import io.fencelab.engine.tune.SweepResults;
import io.fencelab.report.SweepReport;
import java.util.ArrayList;
import java.util.List;
import javafx.geometry.VPos;
import javafx.scene.canvas.Canvas;
import javafx.scene.canvas.GraphicsContext;
import javafx.scene.layout.Pane;
import javafx.scene.paint.Color;
import javafx.scene.text.Font;
import javafx.scene.text.FontWeight;
import javafx.scene.text.TextAlignment;

/**
 * The trade-off, as in the sweep report: failover p99 (unavailability when nothing crashed) against
 * lease losses per hour, one dot per finished setting with the seeds' spread as bars, the
 * Pareto frontier in orange joined by a line, settings that break a constraint hollow, the
 * recommended one ringed in vermilion. Down and left is better. Drawn on a {@link Canvas} in the
 * frame loop when the results change.
 */
public final class TradeOffView extends Pane {

    private static final double LEFT = 64;
    private static final double BOTTOM = 52;
    private static final double TOP = 14;
    private static final double RIGHT = 18;
    private static final Color DOT = Color.web("#0072B2");
    private static final Color FRONTIER = Color.web("#E69F00");
    private static final Color RING = Color.web("#D55E00");

    private final TuneModel model;
    private final Canvas canvas = new Canvas();
    private boolean dirty = true;

    public TradeOffView(TuneModel model, FrameLoop loop) {
        this.model = model;
        getStyleClass().add("trade-off");
        getChildren().add(canvas);
        setMinSize(200, 180);
        model.resultsProperty().addListener(o -> dirty = true);
        widthProperty().addListener(o -> dirty = true);
        heightProperty().addListener(o -> dirty = true);
        loop.addDraw(now -> {
            if (dirty) {
                dirty = false;
                draw();
            }
        });
    }

    @Override
    protected void layoutChildren() {
        canvas.setWidth(getWidth());
        canvas.setHeight(getHeight());
    }

    private void draw() {
        GraphicsContext g = canvas.getGraphicsContext2D();
        double w = canvas.getWidth();
        double h = canvas.getHeight();
        g.clearRect(0, 0, w, h);
        SweepResults r = model.results();
        double pw = w - LEFT - RIGHT;
        double ph = h - TOP - BOTTOM;
        String xm = SweepResults.TRADE_OFF_X;
        String ym = r == null ? SweepResults.TRADE_OFF_Y : r.tradeOffY();
        drawAxes(g, xm, ym, pw, ph);
        if (r == null || r.done().isEmpty()) {
            return;
        }
        List<PointSummary> points = new ArrayList<>(r.done().values());
        Plot plot = new Plot(xm, ym, range(points, xm), range(points, ym), pw, ph);
        drawRanges(g, plot);
        // Seeds' spread, then the frontier's line, then the dots.
        g.setStroke(Ink.SEPARATOR.color);
        g.setLineWidth(1.2);
        for (PointSummary p : points) {
            double x = plot.x(p.mean(xm));
            double y = plot.y(p.mean(ym));
            g.strokeLine(plot.x(p.min(xm)), y, plot.x(p.max(xm)), y);
            g.strokeLine(x, plot.y(p.min(ym)), x, plot.y(p.max(ym)));
        }
        List<PointSummary> frontier = r.frontier();
        g.setStroke(FRONTIER);
        g.setLineWidth(2);
        for (int i = 1; i < frontier.size(); i++) {
            PointSummary a = frontier.get(i - 1);
            PointSummary b = frontier.get(i);
            g.strokeLine(plot.x(a.mean(xm)), plot.y(a.mean(ym)), plot.x(b.mean(xm)), plot.y(b.mean(ym)));
        }
        drawDots(g, r, points, frontier, plot);
        r.recommended().ifPresent(a -> drawRecommended(g, a.point(), plot));
    }

    /** The metrics' scales and the plot's size: {@code xr} and {@code yr} are each a metric's low and high. */
    private record Plot(String xm, String ym, double[] xr, double[] yr, double pw, double ph) {
        double x(double v) {
            return sx(v, xr, pw);
        }

        double y(double v) {
            return sy(v, yr, ph);
        }
    }

    /** The two axes and their metrics' names. */
    private static void drawAxes(GraphicsContext g, String xm, String ym, double pw, double ph) {
        g.setStroke(Ink.SEPARATOR.color);
        g.setLineWidth(1);
        g.strokeLine(LEFT, TOP, LEFT, TOP + ph);
        g.strokeLine(LEFT, TOP + ph, LEFT + pw, TOP + ph);
        g.setFill(Ink.TEXT.color);
        g.setFont(Font.font("DejaVu Sans", FontWeight.BOLD, 12));
        g.setTextAlign(TextAlignment.CENTER);
        g.setTextBaseline(VPos.TOP);
        g.fillText(SweepReport.title(xm) + " →", LEFT + pw / 2, TOP + ph + 24);
        g.save();
        g.translate(14, TOP + ph / 2);
        g.rotate(-90);
        g.setTextBaseline(VPos.CENTER);
        g.fillText(SweepReport.title(ym) + " →", 0, 0);
        g.restore();
    }

    /** Each axis's low and high, at its ends. */
    private static void drawRanges(GraphicsContext g, Plot plot) {
        g.setFont(Font.font("DejaVu Sans", 11));
        g.setFill(Ink.TEXT_MUTED.color);
        g.setTextBaseline(VPos.TOP);
        g.setTextAlign(TextAlignment.LEFT);
        g.fillText(SweepReport.fmt(plot.xr()[0]), LEFT, TOP + plot.ph() + 5);
        g.setTextAlign(TextAlignment.RIGHT);
        g.fillText(SweepReport.fmt(plot.xr()[1]), LEFT + plot.pw(), TOP + plot.ph() + 5);
        g.setTextBaseline(VPos.CENTER);
        g.fillText(SweepReport.fmt(plot.yr()[0]), LEFT - 6, TOP + plot.ph());
        g.fillText(SweepReport.fmt(plot.yr()[1]), LEFT - 6, TOP);
    }

    /** A dot a setting: filled when it meets every constraint, a ring when not; the frontier's in its colour. */
    private static void drawDots(GraphicsContext g, SweepResults r, List<PointSummary> points,
                                 List<PointSummary> frontier, Plot plot) {
        for (PointSummary p : points) {
            double x = plot.x(p.mean(plot.xm()));
            double y = plot.y(p.mean(plot.ym()));
            boolean feasible = r.requirements().isEmpty() || r.assess(p).feasible();
            Color c = frontier.contains(p) ? FRONTIER : DOT;
            if (feasible) {
                g.setFill(c);
                g.fillOval(x - 5, y - 5, 10, 10);
            } else {
                g.setStroke(c);
                g.setLineWidth(2);
                g.strokeOval(x - 5, y - 5, 10, 10);
            }
        }
    }

    /** The recommended setting, ringed and named (the name on the side with room). */
    private static void drawRecommended(GraphicsContext g, PointSummary p, Plot plot) {
        double x = plot.x(p.mean(plot.xm()));
        double y = plot.y(p.mean(plot.ym()));
        double pw = plot.pw();
        g.setStroke(RING);
        g.setLineWidth(3);
        g.strokeOval(x - 11, y - 11, 22, 22);
        g.setFill(RING);
        g.setFont(Font.font("DejaVu Sans", FontWeight.BOLD, 12));
        g.setTextAlign(x > LEFT + pw * 0.7 ? TextAlignment.RIGHT : TextAlignment.LEFT);
        g.setTextBaseline(VPos.BOTTOM);
        g.fillText("recommended " + p.point().id(), x + (x > LEFT + pw * 0.7 ? -14 : 14), y - 8);
    }

    private static double[] range(List<PointSummary> points, String metric) {
        double lo = 0;
        double hi = 0;
        for (PointSummary p : points) {
            for (double v : new double[] {p.min(metric), p.max(metric), p.mean(metric)}) {
                if (!Double.isNaN(v)) {
                    lo = Math.min(lo, v);
                    hi = Math.max(hi, v);
                }
            }
        }
        return new double[] {lo, hi > lo ? hi * 1.05 : lo + 1};
    }

    private static double nz(double v) {
        return Double.isNaN(v) ? 0 : v;
    }

    private static double sx(double v, double[] range, double width) {
        return LEFT + (nz(v) - range[0]) / (range[1] - range[0]) * width;
    }

    private static double sy(double v, double[] range, double height) {
        return TOP + height - (nz(v) - range[0]) / (range[1] - range[0]) * height;
    }
}
