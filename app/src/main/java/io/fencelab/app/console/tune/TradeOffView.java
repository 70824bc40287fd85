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
        g.setStroke(Ink.SEPARATOR.color);
        g.setLineWidth(1);
        g.strokeLine(LEFT, TOP, LEFT, TOP + ph);
        g.strokeLine(LEFT, TOP + ph, LEFT + pw, TOP + ph);
        String xm = SweepResults.TRADE_OFF_X;
        String ym = r == null ? SweepResults.TRADE_OFF_Y : r.tradeOffY();
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
        if (r == null || r.done().isEmpty()) {
            return;
        }
        List<PointSummary> points = new ArrayList<>(r.done().values());
        double[] xr = range(points, xm);
        double[] yr = range(points, ym);
        g.setFont(Font.font("DejaVu Sans", 11));
        g.setFill(Ink.TEXT_MUTED.color);
        g.setTextBaseline(VPos.TOP);
        g.setTextAlign(TextAlignment.LEFT);
        g.fillText(SweepReport.fmt(xr[0]), LEFT, TOP + ph + 5);
        g.setTextAlign(TextAlignment.RIGHT);
        g.fillText(SweepReport.fmt(xr[1]), LEFT + pw, TOP + ph + 5);
        g.setTextBaseline(VPos.CENTER);
        g.fillText(SweepReport.fmt(yr[0]), LEFT - 6, TOP + ph);
        g.fillText(SweepReport.fmt(yr[1]), LEFT - 6, TOP);

        // Seeds' spread, then the frontier's line, then the dots.
        g.setStroke(Ink.SEPARATOR.color);
        g.setLineWidth(1.2);
        for (PointSummary p : points) {
            double x = sx(p.mean(xm), xr, pw);
            double y = sy(p.mean(ym), yr, ph);
            g.strokeLine(sx(p.min(xm), xr, pw), y, sx(p.max(xm), xr, pw), y);
            g.strokeLine(x, sy(p.min(ym), yr, ph), x, sy(p.max(ym), yr, ph));
        }
        List<PointSummary> frontier = r.frontier();
        g.setStroke(FRONTIER);
        g.setLineWidth(2);
        for (int i = 1; i < frontier.size(); i++) {
            PointSummary a = frontier.get(i - 1);
            PointSummary b = frontier.get(i);
            g.strokeLine(sx(a.mean(xm), xr, pw), sy(a.mean(ym), yr, ph), sx(b.mean(xm), xr, pw),
                    sy(b.mean(ym), yr, ph));
        }
        for (PointSummary p : points) {
            double x = sx(p.mean(xm), xr, pw);
            double y = sy(p.mean(ym), yr, ph);
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
        r.recommended().ifPresent(a -> {
            PointSummary p = a.point();
            double x = sx(p.mean(xm), xr, pw);
            double y = sy(p.mean(ym), yr, ph);
            g.setStroke(RING);
            g.setLineWidth(3);
            g.strokeOval(x - 11, y - 11, 22, 22);
            g.setFill(RING);
            g.setFont(Font.font("DejaVu Sans", FontWeight.BOLD, 12));
            g.setTextAlign(x > LEFT + pw * 0.7 ? TextAlignment.RIGHT : TextAlignment.LEFT);
            g.setTextBaseline(VPos.BOTTOM);
            g.fillText("recommended " + p.point().id(), x + (x > LEFT + pw * 0.7 ? -14 : 14), y - 8);
        });
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
