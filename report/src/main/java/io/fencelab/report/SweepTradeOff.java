package io.fencelab.report;

import static io.fencelab.report.SweepPage.LEFT;
import static io.fencelab.report.SweepPage.niceTicks;
import static io.fencelab.report.SweepPage.nz;
import static io.fencelab.report.SweepPage.percent;
import static io.fencelab.report.SweepReport.fmt;
import static io.fencelab.report.SweepReport.title;

import io.fencelab.engine.tune.Axis;
import io.fencelab.engine.tune.AxisValue;
import io.fencelab.engine.tune.Point;
import io.fencelab.engine.tune.PointSummary;
import io.fencelab.engine.tune.Recommendation;
import io.fencelab.engine.tune.Requirement;
import io.fencelab.engine.tune.SweepResults;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.DoubleUnaryOperator;

/** The sweep page's trade-off plot with its Pareto frontier, and the feasible region of the constraints. */
final class SweepTradeOff {

    private final SweepPage page;
    private final SweepResults r;
    private final List<Axis> axes;
    private final List<Point> points;
    private final StringBuilder out;

    SweepTradeOff(SweepPage page) {
        this.page = page;
        this.r = page.results();
        this.axes = page.axes();
        this.points = page.points();
        this.out = page.out();
    }

    // ---- trade-off ---------------------------------------------------------------------------------

    void tradeOff() {
        String xm = SweepResults.TRADE_OFF_X;
        String ym = r.tradeOffY();
        out.append("<section aria-label=\"Trade-off\">\n<h2>The trade-off: ").append(Html.esc(title(ym)))
                .append(" against lease losses</h2>\n");
        if (!ym.equals(SweepResults.TRADE_OFF_Y)) {
            out.append("<p class=\"note\">No run had a failover (no holder crashed, stepped down or lost its lease), so the ")
                    .append("vertical axis shows unavailability instead.</p>\n");
        }
        out.append("<p class=\"note\">One dot per setting (mean over the seeds; bars: least to greatest seed). ")
                .append("Down and left is better. The line joins the Pareto frontier: the settings no other ")
                .append("setting beats on both. Hollow dots break a constraint.</p>\n");
        List<PointSummary> all = new ArrayList<>(r.done().values());
        if (all.isEmpty()) {
            out.append("<p>No results yet.</p>\n</section>\n");
            return;
        }
        double xmax = 0;
        double ymax = 0;
        for (PointSummary s : all) {
            xmax = Math.max(xmax, nz(s.max(xm)));
            ymax = Math.max(ymax, nz(s.max(ym)));
        }
        xmax = xmax > 0 ? xmax * 1.08 : 1;
        ymax = ymax > 0 ? ymax * 1.08 : 1;
        int w = 1000;
        int h = 440;
        double left = 70;
        double right = 200;
        double top = 14;
        double bottom = 46;
        double plotW = w - left - right;
        double plotH = h - top - bottom;
        final double fx = xmax;
        final double fy = ymax;
        DoubleUnaryOperator sx = v -> left + v / fx * plotW;
        DoubleUnaryOperator sy = v -> top + plotH - v / fy * plotH;
        out.append("<div class=\"figure\"><svg width=\"").append(w).append("\" height=\"").append(h)
                .append("\" viewBox=\"0 0 ").append(w).append(' ').append(h).append("\" role=\"img\" aria-label=\"")
                .append(Html.esc("Trade-off: " + title(ym) + " against " + title(xm))).append("\">");
        out.append("<g class=\"grid\">");
        for (double t : niceTicks(0, xmax)) {
            String x = Html.num(sx.applyAsDouble(t));
            out.append("<line x1=\"").append(x).append("\" x2=\"").append(x).append("\" y1=\"").append(Html.num(top))
                    .append("\" y2=\"").append(Html.num(top + plotH)).append("\"/><text class=\"tick\" x=\"").append(x)
                    .append("\" y=\"").append(Html.num(top + plotH + 16)).append("\">").append(Html.esc(fmt(t)))
                    .append("</text>");
        }
        for (double t : niceTicks(0, ymax)) {
            String y = Html.num(sy.applyAsDouble(t));
            out.append("<line x1=\"").append(Html.num(left)).append("\" x2=\"").append(Html.num(left + plotW))
                    .append("\" y1=\"").append(y).append("\" y2=\"").append(y).append("\"/><text class=\"ytick\" x=\"")
                    .append(Html.num(left - 6)).append("\" y=\"").append(Html.num(sy.applyAsDouble(t) + 4)).append("\">")
                    .append(Html.esc(fmt(t))).append("</text>");
        }
        out.append("</g>");
        out.append("<text class=\"axis\" x=\"").append(Html.num(left + plotW / 2)).append("\" y=\"").append(h - 8)
                .append("\">").append(Html.esc(title(xm))).append("</text>");
        out.append("<text class=\"axis\" x=\"14\" y=\"").append(Html.num(top + plotH / 2))
                .append("\" transform=\"rotate(-90 14 ").append(Html.num(top + plotH / 2)).append(")\">")
                .append(Html.esc(title(ym))).append("</text>");
        dots(all, xm, ym, sx, sy);
        legend(left + plotW + 24);
        out.append("</svg></div>\n</section>\n");
    }

    /** The Pareto frontier as a line, then each setting as a dot with its seeds' spread as bars. */
    private void dots(List<PointSummary> all, String xm, String ym, DoubleUnaryOperator sx, DoubleUnaryOperator sy) {
        List<PointSummary> frontier = r.frontier();
        if (frontier.size() > 1) {
            StringBuilder d = new StringBuilder();
            for (PointSummary s : frontier) {
                double x = sx.applyAsDouble(nz(s.mean(xm)));
                double y = sy.applyAsDouble(nz(s.mean(ym)));
                d.append(d.isEmpty() ? "M" : " L").append(Html.num(x)).append(' ').append(Html.num(y));
            }
            out.append("<path class=\"frontier\" d=\"").append(d).append("\"/>");
        }
        Set<Integer> onFrontier = new HashSet<>();
        frontier.forEach(s -> onFrontier.add(s.point().index()));
        for (PointSummary s : all) {
            Point p = s.point();
            double x = sx.applyAsDouble(nz(s.mean(xm)));
            double y = sy.applyAsDouble(nz(s.mean(ym)));
            boolean feasible = r.requirements().isEmpty() || r.assess(s).feasible();
            page.open(p);
            out.append("<title>").append(Html.esc(p.label(axes) + "\n" + title(ym) + ": " + fmt(s.mean(ym))
                    + " (" + fmt(s.min(ym)) + " to " + fmt(s.max(ym)) + ")\n" + title(xm) + ": " + fmt(s.mean(xm))
                    + " (" + fmt(s.min(xm)) + " to " + fmt(s.max(xm)) + ")"
                    + (onFrontier.contains(p.index()) ? "\non the Pareto frontier" : "")
                    + (feasible ? "" : "\nbreaks a constraint"))).append("</title>");
            out.append("<line class=\"err\" x1=\"").append(Html.num(sx.applyAsDouble(nz(s.min(xm))))).append("\" x2=\"")
                    .append(Html.num(sx.applyAsDouble(nz(s.max(xm))))).append("\" y1=\"").append(Html.num(y))
                    .append("\" y2=\"").append(Html.num(y)).append("\"/>");
            out.append("<line class=\"err\" x1=\"").append(Html.num(x)).append("\" x2=\"").append(Html.num(x))
                    .append("\" y1=\"").append(Html.num(sy.applyAsDouble(nz(s.min(ym))))).append("\" y2=\"")
                    .append(Html.num(sy.applyAsDouble(nz(s.max(ym))))).append("\"/>");
            out.append("<circle class=\"dot").append(feasible ? "" : " infeasible")
                    .append(onFrontier.contains(p.index()) ? " pareto" : "").append(page.isRecommended(p) ? " best" : "")
                    .append("\" cx=\"").append(Html.num(x)).append("\" cy=\"").append(Html.num(y)).append("\" r=\"6\"/>");
            if (onFrontier.contains(p.index()) || page.isRecommended(p)) {
                out.append("<text class=\"label\" x=\"").append(Html.num(x + 9)).append("\" y=\"")
                        .append(Html.num(y - 7)).append("\">").append(Html.esc(shortLabel(p))).append("</text>");
            }
            page.close(p);
        }
    }

    private void legend(double lx) {
        out.append("<g class=\"key\"><circle class=\"dot pareto\" cx=\"").append(Html.num(lx)).append("\" cy=\"30\" r=\"6\"/>")
                .append("<text x=\"").append(Html.num(lx + 12)).append("\" y=\"34\">on the frontier</text>")
                .append("<circle class=\"dot\" cx=\"").append(Html.num(lx)).append("\" cy=\"54\" r=\"6\"/>")
                .append("<text x=\"").append(Html.num(lx + 12)).append("\" y=\"58\">dominated</text>")
                .append("<circle class=\"dot infeasible\" cx=\"").append(Html.num(lx)).append("\" cy=\"78\" r=\"6\"/>")
                .append("<text x=\"").append(Html.num(lx + 12)).append("\" y=\"82\">breaks a constraint</text>")
                .append("<circle class=\"dot best\" cx=\"").append(Html.num(lx)).append("\" cy=\"102\" r=\"6\"/>")
                .append("<text x=\"").append(Html.num(lx + 12)).append("\" y=\"106\">recommended</text></g>");
    }

    /** The values only, for labels in the plot: {@code 15s / 5s}. */
    private String shortLabel(Point p) {
        return String.join(" / ", p.values().stream().map(AxisValue::text).toList());
    }

    // ---- feasible region -------------------------------------------------------------------------

    void feasibleRegion() {
        out.append("<section aria-label=\"Feasible region\">\n<h2>Feasible region</h2>\n");
        if (r.requirements().isEmpty()) {
            out.append("<p class=\"note\">No constraints were given (<code>--require</code>).</p>\n</section>\n");
            return;
        }
        out.append("<p class=\"note\">A setting is feasible when every seed meets ")
                .append(Html.esc(String.join(" and ", r.requirements().stream().map(Requirement::toString).toList())))
                .append(". The margin of a constraint is how far inside its limit the worst seed stays, as a ")
                .append("fraction of the limit; a setting's margin is its smallest. Feasible cells show it; the ")
                .append("others name the constraint they break. The recommended setting is outlined.</p>\n");
        if (axes.size() == 1) {
            Axis xs = axes.get(0);
            int w = LEFT + xs.values().size() * 96 + 8;
            out.append("<svg class=\"heat\" width=\"").append(w).append("\" height=\"92\" viewBox=\"0 0 ").append(w)
                    .append(" 92\" role=\"img\" aria-label=\"Feasible settings\">");
            for (Point p : points) {
                feasibleCell(p, LEFT + p.index() * 96, 8, 94, 44);
                out.append("<text class=\"tick\" x=\"").append(Html.num(LEFT + p.index() * 96 + 47)).append("\" y=\"68\">")
                        .append(Html.esc(p.values().get(0).text())).append("</text>");
            }
            out.append("<text class=\"axis\" x=\"").append(Html.num(LEFT + xs.values().size() * 48.0))
                    .append("\" y=\"86\">").append(Html.esc(xs.path())).append("</text></svg>\n");
        } else {
            for (Map<Integer, AxisValue> fixed : page.extraCombinations()) {
                if (!fixed.isEmpty()) {
                    out.append("<p class=\"sub\">").append(Html.esc(page.describe(fixed))).append("</p>");
                }
                page.grid(fixed, 96, 40, "Feasible settings", this::feasibleCell);
            }
        }
        out.append("</section>\n");
    }

    private void feasibleCell(Point p, double x, double y, double w, double h) {
        String rect = "<rect x=\"" + Html.num(x) + "\" y=\"" + Html.num(y) + "\" width=\"" + Html.num(w)
                + "\" height=\"" + Html.num(h) + "\"";
        double tx = x + w / 2;
        double ty = y + h / 2 + 4;
        if (r.skipped().containsKey(p.index())) {
            out.append("<g><title>").append(Html.esc(p.label(axes) + ": skipped: " + r.skipped().get(p.index())))
                    .append("</title>").append(rect).append(" class=\"skipped\"/></g>");
            return;
        }
        PointSummary s = r.done().get(p.index());
        if (s == null) {
            out.append(rect).append(" class=\"pending\"/>");
            return;
        }
        Recommendation.Assessment a = r.assess(s);
        List<String> broken = new ArrayList<>();
        for (int i = 0; i < r.requirements().size(); i++) {
            if (a.margins().get(i) < 0) {
                broken.add(r.requirements().get(i).metric());
            }
        }
        if (s.pastBoundUnexplained()) {
            broken.add("a bound"); // set aside: see the bounds table
        }
        page.open(p);
        out.append("<title>").append(Html.esc(p.label(axes) + "\n" + (a.feasible() ? "feasible, margin "
                + percent(a.margin()) : "breaks " + String.join(", ", broken)))).append("</title>");
        out.append(rect).append(" class=\"").append(a.feasible() ? "feasible" : "infeasible")
                .append(page.isRecommended(p) ? " best" : "").append("\"/>");
        out.append("<text class=\"cell\" x=\"").append(Html.num(tx)).append("\" y=\"").append(Html.num(ty))
                .append("\" fill=\"").append(a.feasible() ? "#fff" : "#333").append("\">")
                .append(Html.esc(a.feasible() ? "✓ " + percent(a.margin()) : "✗ " + Html.clip(
                        String.join(", ", broken.stream().map(SweepTradeOff::abbreviation).toList()), 14)))
                .append("</text>");
        page.close(p);
    }

    private static String abbreviation(String metric) {
        return switch (metric) {
            case "failoverP50Seconds" -> "p50";
            case "failoverP99Seconds" -> "p99";
            case "failoverMaxSeconds" -> "max";
            case "leaseLossesPerHour" -> "losses";
            case "pauseLossesPerHour" -> "pause losses";
            case "renewalLossesPerHour" -> "renewal losses";
            case "transitionsPerHour" -> "transitions";
            case "staleWritesPerHour" -> "stale";
            case "unavailability" -> "unavail.";
            case "leaseLoadPerSecond" -> "load";
            case "wastedJobs" -> "wasted";
            default -> metric;
        };
    }
}
