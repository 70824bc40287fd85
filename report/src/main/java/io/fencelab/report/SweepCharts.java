package io.fencelab.report;

import static io.fencelab.report.SweepPage.CELL_H;
import static io.fencelab.report.SweepPage.CELL_W;
import static io.fencelab.report.SweepPage.niceTicks;
import static io.fencelab.report.SweepPage.unit;
import static io.fencelab.report.SweepReport.fmt;
import static io.fencelab.report.SweepReport.title;

import io.fencelab.engine.tune.Axis;
import io.fencelab.engine.tune.AxisValue;
import io.fencelab.engine.tune.Bounds;
import io.fencelab.engine.tune.Point;
import io.fencelab.engine.tune.PointSummary;
import io.fencelab.engine.tune.ResultsFile;
import io.fencelab.engine.tune.SweepResults;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.DoubleUnaryOperator;
import java.util.function.IntToDoubleFunction;

/** The sweep page's charts of every metric: a heatmap per metric over two axes, or a line with the seeds' spread over one. */
final class SweepCharts {

    private final SweepPage page;
    private final SweepResults r;
    private final List<Axis> axes;
    private final List<Point> points;
    private final StringBuilder out;

    SweepCharts(SweepPage page) {
        this.page = page;
        this.r = page.results();
        this.axes = page.axes();
        this.points = page.points();
        this.out = page.out();
    }

    // ---- heatmaps ----------------------------------------------------------------------------------

    void heatmaps() {
        out.append("<section aria-label=\"Metrics\">\n<h2>Every metric over the setting</h2>\n");
        if (axes.size() == 1) {
            out.append("<p class=\"note\">Dots are the mean over the seeds, bars the least and greatest seed. ")
                    .append("A dashed line is the closed-form bound. Click a dot for the worst seed's report.</p>\n");
        } else {
            out.append("<p class=\"note\">Each cell is one setting: the mean over the seeds, darker for more. ")
                    .append("Hover for the seeds' range; click for the worst seed's report. Hatched cells were skipped.</p>\n");
        }
        out.append("<div class=\"grid\">\n");
        for (String metric : ResultsFile.figureNames()) {
            out.append("<figure class=\"panel\"><figcaption>").append(Html.esc(title(metric)))
                    .append("</figcaption>\n");
            if (axes.size() == 1) {
                lineChart(metric);
            } else {
                for (Map<Integer, AxisValue> fixed : page.extraCombinations()) {
                    if (!fixed.isEmpty()) {
                        out.append("<p class=\"sub\">").append(Html.esc(page.describe(fixed))).append("</p>");
                    }
                    heatmap(metric, fixed);
                }
            }
            out.append("</figure>\n");
        }
        out.append("</div>\n</section>\n");
    }



    private void heatmap(String metric, Map<Integer, AxisValue> fixed) {
        double[] range = page.range(metric);
        page.grid(fixed, CELL_W, CELL_H, title(metric) + " by " + axes.get(0).path() + " and " + axes.get(1).path(),
                (p, x, y, w, h) -> cell(p, metric, range, x, y, w, h));
    }


    private void cell(Point p, String metric, double[] range, double x, double y, double w, double h) {
        String reason = r.skipped().get(p.index());
        PointSummary s = r.done().get(p.index());
        String rect = "<rect x=\"" + Html.num(x) + "\" y=\"" + Html.num(y) + "\" width=\"" + Html.num(w)
                + "\" height=\"" + Html.num(h) + "\"";
        double tx = x + w / 2;
        double ty = y + h / 2 + 4;
        if (reason != null) {
            out.append("<g><title>").append(Html.esc(p.label(axes) + ": skipped: " + reason)).append("</title>")
                    .append(rect).append(" class=\"skipped\"/></g>");
            return;
        }
        if (s == null) {
            out.append("<g><title>").append(Html.esc(p.label(axes) + ": not run yet")).append("</title>")
                    .append(rect).append(" class=\"pending\"/></g>");
            return;
        }
        double mean = s.mean(metric);
        String fill = Double.isNaN(mean) ? "#eeeeee" : SweepReport.Ramp.colour(unit(mean, range));
        String tip = p.label(axes) + "\n" + title(metric) + ": mean " + fmt(mean) + ", seeds " + fmt(s.min(metric))
                + " to " + fmt(s.max(metric)) + "\nworst seed " + s.worst().seed();
        page.open(p);
        out.append("<title>").append(Html.esc(tip)).append("</title>").append(rect).append(" fill=\"").append(fill)
                .append('"');
        if (page.isRecommended(p)) {
            out.append(" class=\"best\"");
        }
        out.append("/><text class=\"cell\" x=\"").append(Html.num(tx)).append("\" y=\"").append(Html.num(ty))
                .append("\" fill=\"").append(Double.isNaN(mean) ? "#555" : SweepReport.Ramp.ink(unit(mean, range))).append("\">")
                .append(Html.esc(fmt(mean))).append("</text>");
        page.close(p);
    }

    /** Where a line chart's points go: run-value to pixel upwards, point number to pixel across. */
    private record LineScale(DoubleUnaryOperator sy, IntToDoubleFunction sx, double top, double plotH) {}

    private void lineChart(String metric) {
        Axis xs = axes.get(0);
        int n = xs.values().size();
        int w = 540;
        int h = 210;
        double left = 56;
        double right = 16;
        double top = 12;
        double bottom = 44;
        double[] range = page.range(metric);
        List<Double> boundValues = new ArrayList<>();
        String bound = boundOf(metric);
        if (bound != null) {
            for (PointSummary s : r.done().values()) {
                boundValues.add(boundValue(bound, s.bounds()));
            }
        }
        double lo = Math.min(0, range[0]);
        double hi = range[1];
        for (double b : boundValues) {
            if (!Double.isNaN(b)) {
                hi = Math.max(hi, b);
            }
        }
        if (!(hi > lo)) {
            hi = lo + 1;
        }
        final double ylo = lo;
        final double yhi = hi * 1.05;
        double plotW = w - left - right;
        double plotH = h - top - bottom;
        DoubleUnaryOperator sy = v -> top + plotH - (v - ylo) / (yhi - ylo) * plotH;
        IntToDoubleFunction sx = i -> left + (n == 1 ? plotW / 2 : plotW * i / (n - 1.0));
        out.append("<svg class=\"line\" width=\"").append(w).append("\" height=\"").append(h).append("\" viewBox=\"0 0 ")
                .append(w).append(' ').append(h).append("\" role=\"img\" aria-label=\"")
                .append(Html.esc(title(metric) + " by " + xs.path())).append("\">");
        out.append("<g class=\"grid\">");
        for (double t : niceTicks(ylo, yhi)) {
            String y = Html.num(sy.applyAsDouble(t));
            out.append("<line x1=\"").append(Html.num(left)).append("\" x2=\"").append(Html.num(w - right))
                    .append("\" y1=\"").append(y).append("\" y2=\"").append(y).append("\"/><text class=\"ytick\" x=\"")
                    .append(Html.num(left - 6)).append("\" y=\"").append(Html.num(sy.applyAsDouble(t) + 4)).append("\">")
                    .append(Html.esc(fmt(t))).append("</text>");
        }
        out.append("</g>");
        for (int i = 0; i < n; i++) {
            out.append("<text class=\"tick\" x=\"").append(Html.num(sx.applyAsDouble(i))).append("\" y=\"")
                    .append(Html.num(h - bottom + 16)).append("\">").append(Html.esc(xs.values().get(i).text()))
                    .append("</text>");
        }
        out.append("<text class=\"axis\" x=\"").append(Html.num(left + plotW / 2)).append("\" y=\"")
                .append(h - 6).append("\">").append(Html.esc(xs.path())).append("</text>");
        LineScale scale = new LineScale(sy, sx, top, plotH);
        boundLine(bound, scale);
        meanLine(metric, scale);
        lineDots(metric, bound, scale);
        out.append("</svg>\n");
        if (bound != null) {
            out.append("<p class=\"sub\"><span class=\"dash\"></span> ").append(Html.esc(boundTitle(bound)))
                    .append("</p>");
        }
    }

    /** The bound, dashed, through each finished point's value. */
    private void boundLine(String bound, LineScale scale) {
        DoubleUnaryOperator sy = scale.sy();
        IntToDoubleFunction sx = scale.sx();
        if (bound != null) {
            StringBuilder path = new StringBuilder();
            for (Point p : points) {
                PointSummary s = r.done().get(p.index());
                double b = s == null ? Double.NaN : boundValue(bound, s.bounds());
                if (!Double.isNaN(b)) {
                    path.append(path.isEmpty() ? "M" : " L").append(Html.num(sx.applyAsDouble(p.index())))
                            .append(' ').append(Html.num(sy.applyAsDouble(b)));
                }
            }
            if (!path.isEmpty()) {
                out.append("<path class=\"bound\" d=\"").append(path).append("\"><title>")
                        .append(Html.esc(boundTitle(bound))).append("</title></path>");
            }
        }
    }

    private void meanLine(String metric, LineScale scale) {
        DoubleUnaryOperator sy = scale.sy();
        IntToDoubleFunction sx = scale.sx();
        StringBuilder mean = new StringBuilder();
        for (Point p : points) {
            PointSummary s = r.done().get(p.index());
            if (s != null && !Double.isNaN(s.mean(metric))) {
                mean.append(mean.isEmpty() ? "M" : " L").append(Html.num(sx.applyAsDouble(p.index()))).append(' ')
                        .append(Html.num(sy.applyAsDouble(s.mean(metric))));
            }
        }
        if (!mean.isEmpty()) {
            out.append("<path class=\"mean\" d=\"").append(mean).append("\"/>");
        }
    }

    /** Each point: its mean as a dot, its seeds' spread as a bar, linked to its worst seed's report. */
    private void lineDots(String metric, String bound, LineScale scale) {
        DoubleUnaryOperator sy = scale.sy();
        IntToDoubleFunction sx = scale.sx();
        double top = scale.top();
        double plotH = scale.plotH();
        for (Point p : points) {
            double x = sx.applyAsDouble(p.index());
            if (r.skipped().containsKey(p.index())) {
                out.append("<g><title>").append(Html.esc(p.label(axes) + ": skipped: " + r.skipped().get(p.index())))
                        .append("</title><text class=\"skip\" x=\"").append(Html.num(x)).append("\" y=\"")
                        .append(Html.num(top + plotH - 4)).append("\">skipped</text></g>");
                continue;
            }
            PointSummary s = r.done().get(p.index());
            if (s == null || Double.isNaN(s.mean(metric))) {
                continue;
            }
            page.open(p);
            out.append("<title>").append(Html.esc(p.label(axes) + "\n" + title(metric) + ": mean "
                    + fmt(s.mean(metric)) + ", seeds " + fmt(s.min(metric)) + " to " + fmt(s.max(metric))
                    + (bound != null ? "\n" + boundTitle(bound) + ": " + fmt(boundValue(bound, s.bounds())) : "")
                    + "\nworst seed " + s.worst().seed())).append("</title>");
            out.append("<line class=\"err\" x1=\"").append(Html.num(x)).append("\" x2=\"").append(Html.num(x))
                    .append("\" y1=\"").append(Html.num(sy.applyAsDouble(s.min(metric)))).append("\" y2=\"")
                    .append(Html.num(sy.applyAsDouble(s.max(metric)))).append("\"/>");
            out.append("<circle class=\"dot").append(page.isRecommended(p) ? " best" : "").append("\" cx=\"")
                    .append(Html.num(x)).append("\" cy=\"").append(Html.num(sy.applyAsDouble(s.mean(metric))))
                    .append("\" r=\"5\"/>");
            page.close(p);
        }
    }

    /** Which bound a metric is drawn against, if any. */
    static String boundOf(String metric) {
        return switch (metric) {
            case "failoverP50Seconds", "failoverP99Seconds", "failoverMaxSeconds" -> "failover";
            case "longestSurvivedPauseSeconds" -> "lost";
            case "shortestLostPauseSeconds" -> "survived";
            default -> null;
        };
    }

    static double boundValue(String bound, Bounds b) {
        return switch (bound) {
            case "failover" -> b.failoverSeconds();
            case "lost" -> b.lostPauseSeconds();
            default -> b.survivedPauseSeconds();
        };
    }

    static String boundTitle(String bound) {
        return switch (bound) {
            case "failover" -> "bound: failover ≤ ttl + retry interval";
            case "lost" -> "bound: a pause longer than ttl always costs the lease";
            default -> "bound: a pause shorter than ttl − renewEvery never costs the lease";
        };
    }
}
