package io.fencelab.report;

import static io.fencelab.report.SweepReport.fmt;
import static io.fencelab.report.SweepReport.reportLink;
import static io.fencelab.report.SweepReport.title;

import io.fencelab.engine.chaos.PauseProfile;
import io.fencelab.engine.run.Backend;
import io.fencelab.engine.tune.Axis;
import io.fencelab.engine.tune.AxisValue;
import io.fencelab.engine.tune.BackendCheck;
import io.fencelab.engine.tune.Point;
import io.fencelab.engine.tune.PointSummary;
import io.fencelab.engine.tune.Recommendation;
import io.fencelab.engine.tune.Requirement;
import io.fencelab.engine.tune.SweepResults;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.function.Predicate;

/**
 * One rendering of {@code sweep.html}: the results, the page being written, the header and the
 * recommendation, and what the page's sections share (the grid over two axes, links to the points'
 * reports, ranges and ticks). The charts, the trade-off and the tables are written by
 * {@link SweepCharts}, {@link SweepTradeOff} and {@link SweepTables} into the same page.
 */
final class SweepPage {
    private final SweepResults r;
    private final String title;
    private final Predicate<Point> hasReport;
    private final List<Axis> axes;
    private final List<Point> points;
    private final Optional<Recommendation.Assessment> recommended;
    private final SweepDirectory.BackendNote backend;
    private final PauseProfile pauses;
    private final StringBuilder out = new StringBuilder(1 << 16);

    SweepPage(SweepResults r, String title, Predicate<Point> hasReport, SweepDirectory.BackendNote backend,
         PauseProfile pauses) {
        this.backend = backend;
        this.pauses = pauses;
        this.r = r;
        this.title = title;
        this.hasReport = hasReport;
        this.axes = r.plan().axes();
        this.points = r.points();
        this.recommended = r.recommended();
    }

    String render() {
        out.append("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n")
                .append("<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n")
                .append("<title>").append(Html.esc("Sweep: " + title + " · Fencelab")).append("</title>\n")
                .append("<style>").append(SweepReport.CSS).append("</style>\n</head>\n<body>\n")
                .append("<svg class=\"defs\" aria-hidden=\"true\"><defs><pattern id=\"hatch\" width=\"6\" ")
                .append("height=\"6\" patternUnits=\"userSpaceOnUse\" patternTransform=\"rotate(45)\">")
                .append("<rect width=\"6\" height=\"6\" fill=\"#f4f4f4\"/><line x1=\"0\" y1=\"0\" x2=\"0\" ")
                .append("y2=\"6\" stroke=\"#c4c4c4\" stroke-width=\"2\"/></pattern></defs></svg>\n<main>\n");
        header();
        recommendation();
        backend();
        new SweepCharts(this).heatmaps();
        new SweepTradeOff(this).tradeOff();
        new SweepTradeOff(this).feasibleRegion();
        new SweepTables(this).bounds();
        new SweepTables(this).pointTable();
        out.append("<footer class=\"note\">Written by Fencelab from the sweep's results: every run is a row of ")
                .append("<code>sweep.csv</code>; the summaries are in <code>sweep.json</code>.</footer>\n")
                .append("</main>\n</body>\n</html>\n");
        return out.toString();
    }

    SweepResults results() {
        return r;
    }

    List<Axis> axes() {
        return axes;
    }

    List<Point> points() {
        return points;
    }

    StringBuilder out() {
        return out;
    }

    // ---- header and recommendation ---------------------------------------------------------------

    private void header() {
        int runs = r.done().values().stream().mapToInt(p -> p.runs().size()).sum();
        out.append("<header>\n<p class=\"eyebrow\">Fencelab sweep · scenario <code>")
                .append(Html.esc(r.plan().scenario())).append("</code></p>\n<h1>")
                .append(Html.esc(title)).append("</h1>\n<p class=\"meta\">");
        List<String> meta = new ArrayList<>();
        for (Axis a : axes) {
            meta.add(a.path() + " over " + String.join(", ", a.values().stream().map(AxisValue::text).toList()));
        }
        meta.add(r.plan().seeds().size() + (r.plan().seeds().size() == 1 ? " seed" : " seeds") + " per point");
        meta.add(r.done().size() + " of " + points.size() + " points done (" + runs + " runs)");
        if (!r.skipped().isEmpty()) {
            meta.add(r.skipped().size() + " skipped");
        }
        out.append(Html.esc(String.join(" · ", meta))).append("</p>\n");
        pauseProfile();
        out.append("</header>\n");
    }

    /**
     * The pauses every setting was measured against (docs/TUNING.md, Pause profile); a sweep that
     * varies a fault says these are the file's own, each setting's report giving its own.
     */
    private void pauseProfile() {
        if (pauses == null) {
            return;
        }
        List<String> lines = pauses.lines();
        out.append("<div class=\"pauses\" id=\"pause-profile\"><b>Pauses</b>");
        if (lines.size() == 1) {
            out.append(": ").append(Html.esc(lines.getFirst()));
        } else {
            out.append("<ul>");
            lines.forEach(l -> out.append("<li>").append(Html.esc(l)).append("</li>"));
            out.append("</ul>");
        }
        List<String> varied = axes.stream().map(Axis::path).filter(p -> p.startsWith("faults[")).toList();
        if (!varied.isEmpty()) {
            out.append("<p class=\"note\">As the scenario file writes them; this sweep varies ")
                    .append(Html.esc(String.join(", ", varied)))
                    .append(", so a setting's own pauses are in its report's configuration.</p>");
        }
        out.append("</div>\n");
    }

    /** Which store the runs used; an in-memory sweep shows its PostgreSQL re-run agreeing (or not). */
    private void backend() {
        if (backend == null) {
            return;
        }
        out.append("<p class=\"note\">");
        if (backend.backend() == Backend.POSTGRES) {
            out.append("Every run kept its leases and resources in PostgreSQL.");
        } else {
            out.append("The runs used Fencelab's in-memory model of PostgreSQL's statements, which the test suite ")
                    .append("proves gives byte-identical event logs (every catalog scenario and a thousand random ")
                    .append("schedules).");
            BackendCheck c = backend.check();
            if (c != null) {
                String what = Html.esc(c.point().label(axes) + ", seed " + c.seed());
                out.append(c.identical()
                        ? " Checked again here: <b>" + what + "</b> was run on PostgreSQL too, and the two event "
                                + "logs are identical (" + c.bytes() + " bytes)."
                        : " <b class=\"bad\">Checked again here, they differ</b>: <b>" + what + "</b> on "
                                + "PostgreSQL differs from the in-memory run at byte " + c.mismatch()
                                + ". Re-run the sweep with <code>--backend postgres</code> and report the scenario.");
            }
        }
        out.append("</p>\n");
    }

    private void recommendation() {
        out.append("<section class=\"rec\" aria-label=\"Recommendation\">\n");
        if (r.requirements().isEmpty()) {
            out.append("<h2>No constraints given</h2>\n<p>Give <code>--require METRIC&lt;=VALUE</code> (for ")
                    .append("example <code>--require failoverP99Seconds&lt;=20 --require leaseLossesPerHour&lt;=1")
                    .append("</code>) to see the feasible region and a recommended setting.</p>\n");
        } else if (recommended.isPresent()) {
            Recommendation.Assessment a = recommended.get();
            out.append("<h2>Recommended: <code>").append(Html.esc(a.point().point().label(axes)))
                    .append("</code></h2>\n<p>Of the settings that meet every constraint on every seed, this one ")
                    .append("has the widest margin: each constraint is met with at least ")
                    .append(Html.esc(percent(a.margin()))).append(" of its limit to spare.</p>\n<ul>");
            for (int i = 0; i < r.requirements().size(); i++) {
                Requirement q = r.requirements().get(i);
                out.append("<li><code>").append(Html.esc(q.toString())).append("</code>: worst seed ")
                        .append(Html.esc(fmt(q.judged(a.point())))).append(", margin ")
                        .append(Html.esc(percent(a.margins().get(i)))).append("</li>");
            }
            out.append("</ul>\n");
            if (!a.pastBounds().isEmpty()) {
                // Recommended on its measured figures, but the reader must see that a bound did not hold.
                out.append("<p><b class=\"bad\">Some seeds of this setting went past a bound</b>, each for a reason ")
                        .append("the bound leaves out (so its figures, not the bound, are what the constraints judged):")
                        .append("</p>\n<ul>");
                a.pastBounds().forEach((seed, past) -> past.forEach(p -> out.append("<li>seed ").append(seed)
                        .append(" (").append(Html.esc(p.bound().words())).append("): ").append(Html.esc(p.why()))
                        .append("</li>")));
                out.append("</ul>\n");
            }
            out.append(link(a.point().point(), "Open its worst seed's report")).append('\n');
        } else {
            out.append("<h2>No setting meets every constraint</h2>\n<p>None of the ").append(r.done().size())
                    .append(" settings meets ").append(Html.esc(String.join(" and ",
                            r.requirements().stream().map(Requirement::toString).toList())))
                    .append(" on every seed. The feasible-region map below shows which constraint each breaks.</p>\n");
        }
        long suspect = r.done().values().stream().filter(PointSummary::pastBoundUnexplained).count();
        if (suspect > 0) {
            out.append("<p class=\"bad\">").append(suspect).append(suspect == 1 ? " setting" : " settings")
                    .append(" went past a bound for no reason the bound leaves out and ")
                    .append(suspect == 1 ? "is" : "are").append(" not recommended: see the bounds table.</p>\n");
        }
        out.append("</section>\n");
    }

    static final int CELL_W = 64;
    static final int CELL_H = 30;
    static final int LEFT = 78;
    static final int TOP = 24;

    /** Each combination of the values of axes 3, 4, …; one empty map with two axes. */
    List<Map<Integer, AxisValue>> extraCombinations() {
        List<Map<Integer, AxisValue>> combos = new ArrayList<>();
        Set<String> seen = new HashSet<>();
        for (Point p : points) {
            Map<Integer, AxisValue> fixed = new LinkedHashMap<>();
            for (int a = 2; a < axes.size(); a++) {
                fixed.put(a, p.values().get(a));
            }
            if (seen.add(fixed.toString())) {
                combos.add(fixed);
            }
        }
        return combos;
    }

    String describe(Map<Integer, AxisValue> fixed) {
        List<String> parts = new ArrayList<>();
        fixed.forEach((a, v) -> parts.add(axes.get(a).path() + "=" + v.text()));
        return String.join(" ", parts);
    }

    /** Draws one cell of a grid. */
    interface CellDrawer {
        void draw(Point p, double x, double y, double w, double h);
    }

    /**
     * A grid over the first two axes, the first across and the second upwards, of the points whose
     * further axes have the {@code fixed} values; each cell drawn by {@code drawer}.
     */
    void grid(Map<Integer, AxisValue> fixed, int cw, int ch, String label, CellDrawer drawer) {
        Axis xs = axes.get(0);
        Axis ys = axes.get(1);
        int cols = xs.values().size();
        int rows = ys.values().size();
        int w = LEFT + cols * cw + 8;
        int h = TOP + rows * ch + 44;
        out.append("<svg class=\"heat\" width=\"").append(w).append("\" height=\"").append(h)
                .append("\" viewBox=\"0 0 ").append(w).append(' ').append(h).append("\" role=\"img\" aria-label=\"")
                .append(Html.esc(label)).append("\">");
        for (Point p : points) {
            if (!matches(p, fixed)) {
                continue;
            }
            int col = xs.values().indexOf(p.values().get(0));
            int row = rows - 1 - ys.values().indexOf(p.values().get(1)); // larger values upwards
            drawer.draw(p, LEFT + col * cw, TOP + row * ch, cw - 2, ch - 2);
        }
        for (int c = 0; c < cols; c++) {
            out.append("<text class=\"tick\" x=\"").append(Html.num(LEFT + c * cw + (cw - 2) / 2.0))
                    .append("\" y=\"").append(TOP + rows * ch + 14).append("\">")
                    .append(Html.esc(xs.values().get(c).text())).append("</text>");
        }
        for (int row = 0; row < rows; row++) {
            out.append("<text class=\"ytick\" x=\"").append(LEFT - 6).append("\" y=\"")
                    .append(Html.num(TOP + (rows - 1 - row) * ch + ch / 2.0 + 4)).append("\">")
                    .append(Html.esc(ys.values().get(row).text())).append("</text>");
        }
        out.append("<text class=\"axis\" x=\"").append(Html.num(LEFT + cols * cw / 2.0)).append("\" y=\"")
                .append(TOP + rows * ch + 34).append("\">").append(Html.esc(xs.path())).append("</text>");
        out.append("<text class=\"axis yaxis\" x=\"4\" y=\"").append(TOP - 8).append("\">")
                .append(Html.esc("↑ " + ys.path())).append("</text>");
        out.append("</svg>\n");
    }

    // ---- helpers -------------------------------------------------------------------------------------

    boolean matches(Point p, Map<Integer, AxisValue> fixed) {
        for (Map.Entry<Integer, AxisValue> f : fixed.entrySet()) {
            if (!p.values().get(f.getKey()).equals(f.getValue())) {
                return false;
            }
        }
        return true;
    }

    boolean isRecommended(Point p) {
        return recommended.isPresent() && recommended.get().point().point().index() == p.index();
    }

    void open(Point p) {
        if (hasReport.test(p)) {
            out.append("<a href=\"").append(Html.esc(reportLink(p))).append("\">");
        } else {
            out.append("<g>");
        }
    }

    void close(Point p) {
        out.append(hasReport.test(p) ? "</a>" : "</g>");
    }

    String link(Point p, String text) {
        return hasReport.test(p) ? "<a href=\"" + Html.esc(reportLink(p)) + "\">" + Html.esc(text) + "</a>"
                : Html.esc(text);
    }

    /** The least and greatest mean of a metric over the finished points. */
    double[] range(String metric) {
        double lo = Double.POSITIVE_INFINITY;
        double hi = Double.NEGATIVE_INFINITY;
        for (PointSummary s : r.done().values()) {
            for (double v : new double[] {s.mean(metric), s.min(metric), s.max(metric)}) {
                if (!Double.isNaN(v)) {
                    lo = Math.min(lo, v);
                    hi = Math.max(hi, v);
                }
            }
        }
        return lo > hi ? new double[] {0, 0} : new double[] {lo, hi};
    }

    static double unit(double v, double[] range) {
        return range[1] > range[0] ? (v - range[0]) / (range[1] - range[0]) : 0; // all alike: the light end
    }

    static double nz(double v) {
        return Double.isNaN(v) ? 0 : v;
    }

    static String percent(double fraction) {
        return Double.isInfinite(fraction) ? "all" : Math.round(fraction * 100) + " %";
    }

    /** Ticks at 1, 2 or 5 times a power of ten, at most six steps. */
    static List<Double> niceTicks(double lo, double hi) {
        double span = hi - lo;
        List<Double> out = new ArrayList<>();
        if (!(span > 0)) {
            out.add(lo);
            return out;
        }
        double raw = span / 6;
        double power = Math.pow(10, Math.floor(Math.log10(raw)));
        double step = power;
        for (double f : new double[] {1, 2, 5, 10}) {
            if (f * power >= raw) {
                step = f * power;
                break;
            }
        }
        for (double t = Math.ceil(lo / step) * step; t <= hi + step * 1e-9; t += step) {
            out.add(Math.abs(t) < step * 1e-9 ? 0 : t);
        }
        return out;
    }
}
