package io.fencelab.report;

import io.fencelab.engine.chaos.PauseProfile;
import io.fencelab.engine.run.Backend;
import io.fencelab.engine.tune.Axis;
import io.fencelab.engine.tune.AxisValue;
import io.fencelab.engine.tune.BackendCheck;
import io.fencelab.engine.tune.Bounds;
import io.fencelab.engine.tune.Point;
import io.fencelab.engine.tune.PointSummary;
import io.fencelab.engine.tune.Recommendation;
import io.fencelab.engine.tune.Requirement;
import io.fencelab.engine.tune.ResultsFile;
import io.fencelab.engine.tune.SweepResults;
import java.io.IOException;
import java.math.BigDecimal;
import java.math.MathContext;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.function.Predicate;

/**
 * A sweep's report, {@code sweep.html}: one self-contained page like the run report (inline CSS and
 * SVG, no scripts, nothing fetched; hover details are SVG {@code <title>}s). It shows the
 * recommendation, a heatmap per metric over the first two varied parameters (a line with the seeds'
 * spread for one parameter; one heatmap per value of any further parameter), the trade-off of
 * failover time against lease losses with its Pareto frontier, the feasible region of the
 * constraints, the closed-form bounds beside what the runs measured, and every point with a link to
 * the report of its worst seed ({@code points/<point>/report.html}).
 */
public final class SweepReport {

    /** Where a point's worst-seed report is, relative to the sweep directory. */
    public static String reportLink(Point p) {
        return "points/" + p.id() + "/" + ReportBundle.HTML;
    }

    /** How each metric is named on the page, with its unit. */
    static final Map<String, String> TITLES = new LinkedHashMap<>();

    static {
        TITLES.put("failoverP50Seconds", "Failover p50 (s)");
        TITLES.put("failoverP99Seconds", "Failover p99 (s; the max in a run with fewer than 100)");
        TITLES.put("failoverMaxSeconds", "Failover max (s)");
        TITLES.put("failovers", "Failovers per run");
        TITLES.put("unavailability", "Unavailability (fraction of the run)");
        TITLES.put("unavailableFrozen", "Unavailable: holder frozen (fraction)");
        TITLES.put("unavailableAwaitingExpiry", "Unavailable: awaiting a dead or stepped-down lease (fraction)");
        TITLES.put("unavailableAcquiring", "Unavailable: acquiring (fraction)");
        TITLES.put("unavailableUnreachable", "Unavailable: lease service unreachable (fraction)");
        TITLES.put("leaseLossesPerHour", "Lease losses per hour");
        TITLES.put("pauseLossesPerHour", "Lease losses to pauses per hour");
        TITLES.put("renewalLossesPerHour", "Lease losses to renewals per hour");
        TITLES.put("transitionsPerHour", "Leader transitions per hour");
        TITLES.put("staleWritesPerHour", "Stale writes per hour");
        TITLES.put("wastedJobs", "Wasted jobs per run");
        TITLES.put("leaseLoadPerSecond", "Lease-service load (statements/s)");
        TITLES.put("longestSurvivedPauseSeconds", "Longest pause survived (s)");
        TITLES.put("shortestLostPauseSeconds", "Shortest pause that cost the lease (s)");
    }

    private SweepReport() {
    }

    /**
     * Writes the page; {@code hasReport} says which points' worst-seed reports exist, to link only those;
     * {@code pauses} are the pauses the scenario as written gives its holders (null: not told).
     */
    public static void write(Path file, SweepResults results, String title, Predicate<Point> hasReport,
                             SweepDirectory.BackendNote backend, PauseProfile pauses) throws IOException {
        StagedDirectory.writeFile(file, render(results, title, hasReport, backend, pauses));
    }

    public static String render(SweepResults results, String title, Predicate<Point> hasReport) {
        return render(results, title, hasReport, null);
    }

    /** {@code backend}: which backend the runs used and its PostgreSQL check, told under the recommendation (null: not told). */
    public static String render(SweepResults results, String title, Predicate<Point> hasReport,
                                SweepDirectory.BackendNote backend) {
        return render(results, title, hasReport, backend, null);
    }

    /** As above, with the pauses the scenario as written gives its holders, told under the title (null: not told). */
    public static String render(SweepResults results, String title, Predicate<Point> hasReport,
                                SweepDirectory.BackendNote backend, PauseProfile pauses) {
        return new Page(results, title, hasReport, backend, pauses).render();
    }

    /** A metric's name for people, with its unit: {@code Failover p99 (s)}. */
    public static String title(String metric) {
        return TITLES.getOrDefault(metric, metric);
    }

    /** The closed-form bound drawn beside {@code metric} at a setting with {@code bounds}, or NaN when it has none. */
    public static double bound(String metric, Bounds bounds) {
        String bound = Page.boundOf(metric);
        return bound == null ? Double.NaN : Page.boundValue(bound, bounds);
    }

    /** What {@link #bound} is, in words ({@code bound: failover ≤ ttl + retry interval}), or null. */
    public static String boundTitle(String metric) {
        String bound = Page.boundOf(metric);
        return bound == null ? null : Page.boundTitle(bound);
    }

    /** A figure for people: three significant digits, no exponent; "–" when there is none. */
    public static String fmt(double v) {
        if (Double.isNaN(v)) {
            return "–";
        }
        if (v == 0) {
            return "0";
        }
        if (Math.abs(v) >= 1000) {
            return String.valueOf(Math.round(v));
        }
        return new BigDecimal(v).round(new MathContext(3)).stripTrailingZeros().toPlainString();
    }

    private static final class Page {
        private final SweepResults r;
        private final String title;
        private final Predicate<Point> hasReport;
        private final List<Axis> axes;
        private final List<Point> points;
        private final Optional<Recommendation.Assessment> recommended;
        private final SweepDirectory.BackendNote backend;
        private final PauseProfile pauses;
        private final StringBuilder out = new StringBuilder(1 << 16);

        Page(SweepResults r, String title, Predicate<Point> hasReport, SweepDirectory.BackendNote backend,
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
                    .append("<style>").append(CSS).append("</style>\n</head>\n<body>\n")
                    .append("<svg class=\"defs\" aria-hidden=\"true\"><defs><pattern id=\"hatch\" width=\"6\" ")
                    .append("height=\"6\" patternUnits=\"userSpaceOnUse\" patternTransform=\"rotate(45)\">")
                    .append("<rect width=\"6\" height=\"6\" fill=\"#f4f4f4\"/><line x1=\"0\" y1=\"0\" x2=\"0\" ")
                    .append("y2=\"6\" stroke=\"#c4c4c4\" stroke-width=\"2\"/></pattern></defs></svg>\n<main>\n");
            header();
            recommendation();
            backend();
            heatmaps();
            tradeOff();
            feasibleRegion();
            bounds();
            pointTable();
            out.append("<footer class=\"note\">Written by Fencelab from the sweep's results: every run is a row of ")
                    .append("<code>sweep.csv</code>; the summaries are in <code>sweep.json</code>.</footer>\n")
                    .append("</main>\n</body>\n</html>\n");
            return out.toString();
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

        // ---- heatmaps ----------------------------------------------------------------------------------

        private void heatmaps() {
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
                    for (Map<Integer, AxisValue> fixed : extraCombinations()) {
                        if (!fixed.isEmpty()) {
                            out.append("<p class=\"sub\">").append(Html.esc(describe(fixed))).append("</p>");
                        }
                        heatmap(metric, fixed);
                    }
                }
                out.append("</figure>\n");
            }
            out.append("</div>\n</section>\n");
        }

        /** Each combination of the values of axes 3, 4, …; one empty map with two axes. */
        private List<Map<Integer, AxisValue>> extraCombinations() {
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

        private String describe(Map<Integer, AxisValue> fixed) {
            List<String> parts = new ArrayList<>();
            fixed.forEach((a, v) -> parts.add(axes.get(a).path() + "=" + v.text()));
            return String.join(" ", parts);
        }

        private static final int CELL_W = 64;
        private static final int CELL_H = 30;
        private static final int LEFT = 78;
        private static final int TOP = 24;

        private void heatmap(String metric, Map<Integer, AxisValue> fixed) {
            double[] range = range(metric);
            grid(fixed, CELL_W, CELL_H, title(metric) + " by " + axes.get(0).path() + " and " + axes.get(1).path(),
                    (p, x, y, w, h) -> cell(p, metric, range, x, y, w, h));
        }

        /** Draws one cell of a grid. */
        private interface CellDrawer {
            void draw(Point p, double x, double y, double w, double h);
        }

        /**
         * A grid over the first two axes, the first across and the second upwards, of the points whose
         * further axes have the {@code fixed} values; each cell drawn by {@code drawer}.
         */
        private void grid(Map<Integer, AxisValue> fixed, int cw, int ch, String label, CellDrawer drawer) {
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
            String fill = Double.isNaN(mean) ? "#eeeeee" : Ramp.colour(unit(mean, range));
            String tip = p.label(axes) + "\n" + title(metric) + ": mean " + fmt(mean) + ", seeds " + fmt(s.min(metric))
                    + " to " + fmt(s.max(metric)) + "\nworst seed " + s.worst().seed();
            open(p);
            out.append("<title>").append(Html.esc(tip)).append("</title>").append(rect).append(" fill=\"").append(fill)
                    .append('"');
            if (isRecommended(p)) {
                out.append(" class=\"best\"");
            }
            out.append("/><text class=\"cell\" x=\"").append(Html.num(tx)).append("\" y=\"").append(Html.num(ty))
                    .append("\" fill=\"").append(Double.isNaN(mean) ? "#555" : Ramp.ink(unit(mean, range))).append("\">")
                    .append(Html.esc(fmt(mean))).append("</text>");
            close(p);
        }

        private void lineChart(String metric) {
            Axis xs = axes.get(0);
            int n = xs.values().size();
            int w = 540;
            int h = 210;
            double left = 56;
            double right = 16;
            double top = 12;
            double bottom = 44;
            double[] range = range(metric);
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
            java.util.function.DoubleUnaryOperator sy = v -> top + plotH - (v - ylo) / (yhi - ylo) * plotH;
            java.util.function.IntToDoubleFunction sx = i -> left + (n == 1 ? plotW / 2 : plotW * i / (n - 1.0));
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
            // the bound, dashed, through each finished point's value
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
                open(p);
                out.append("<title>").append(Html.esc(p.label(axes) + "\n" + title(metric) + ": mean "
                        + fmt(s.mean(metric)) + ", seeds " + fmt(s.min(metric)) + " to " + fmt(s.max(metric))
                        + (bound != null ? "\n" + boundTitle(bound) + ": " + fmt(boundValue(bound, s.bounds())) : "")
                        + "\nworst seed " + s.worst().seed())).append("</title>");
                out.append("<line class=\"err\" x1=\"").append(Html.num(x)).append("\" x2=\"").append(Html.num(x))
                        .append("\" y1=\"").append(Html.num(sy.applyAsDouble(s.min(metric)))).append("\" y2=\"")
                        .append(Html.num(sy.applyAsDouble(s.max(metric)))).append("\"/>");
                out.append("<circle class=\"dot").append(isRecommended(p) ? " best" : "").append("\" cx=\"")
                        .append(Html.num(x)).append("\" cy=\"").append(Html.num(sy.applyAsDouble(s.mean(metric))))
                        .append("\" r=\"5\"/>");
                close(p);
            }
            out.append("</svg>\n");
            if (bound != null) {
                out.append("<p class=\"sub\"><span class=\"dash\"></span> ").append(Html.esc(boundTitle(bound)))
                        .append("</p>");
            }
        }

        /** Which bound a metric is drawn against, if any. */
        private static String boundOf(String metric) {
            return switch (metric) {
                case "failoverP50Seconds", "failoverP99Seconds", "failoverMaxSeconds" -> "failover";
                case "longestSurvivedPauseSeconds" -> "lost";
                case "shortestLostPauseSeconds" -> "survived";
                default -> null;
            };
        }

        private static double boundValue(String bound, Bounds b) {
            return switch (bound) {
                case "failover" -> b.failoverSeconds();
                case "lost" -> b.lostPauseSeconds();
                default -> b.survivedPauseSeconds();
            };
        }

        private static String boundTitle(String bound) {
            return switch (bound) {
                case "failover" -> "bound: failover ≤ ttl + retry interval";
                case "lost" -> "bound: a pause longer than ttl always costs the lease";
                default -> "bound: a pause shorter than ttl − renewEvery never costs the lease";
            };
        }

        // ---- trade-off ---------------------------------------------------------------------------------

        private void tradeOff() {
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
            java.util.function.DoubleUnaryOperator sx = v -> left + v / fx * plotW;
            java.util.function.DoubleUnaryOperator sy = v -> top + plotH - v / fy * plotH;
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
                open(p);
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
                        .append(onFrontier.contains(p.index()) ? " pareto" : "").append(isRecommended(p) ? " best" : "")
                        .append("\" cx=\"").append(Html.num(x)).append("\" cy=\"").append(Html.num(y)).append("\" r=\"6\"/>");
                if (onFrontier.contains(p.index()) || isRecommended(p)) {
                    out.append("<text class=\"label\" x=\"").append(Html.num(x + 9)).append("\" y=\"")
                            .append(Html.num(y - 7)).append("\">").append(Html.esc(shortLabel(p))).append("</text>");
                }
                close(p);
            }
            // legend
            double lx = left + plotW + 24;
            out.append("<g class=\"key\"><circle class=\"dot pareto\" cx=\"").append(Html.num(lx)).append("\" cy=\"30\" r=\"6\"/>")
                    .append("<text x=\"").append(Html.num(lx + 12)).append("\" y=\"34\">on the frontier</text>")
                    .append("<circle class=\"dot\" cx=\"").append(Html.num(lx)).append("\" cy=\"54\" r=\"6\"/>")
                    .append("<text x=\"").append(Html.num(lx + 12)).append("\" y=\"58\">dominated</text>")
                    .append("<circle class=\"dot infeasible\" cx=\"").append(Html.num(lx)).append("\" cy=\"78\" r=\"6\"/>")
                    .append("<text x=\"").append(Html.num(lx + 12)).append("\" y=\"82\">breaks a constraint</text>")
                    .append("<circle class=\"dot best\" cx=\"").append(Html.num(lx)).append("\" cy=\"102\" r=\"6\"/>")
                    .append("<text x=\"").append(Html.num(lx + 12)).append("\" y=\"106\">recommended</text></g>");
            out.append("</svg></div>\n</section>\n");
        }

        /** The values only, for labels in the plot: {@code 15s / 5s}. */
        private String shortLabel(Point p) {
            return String.join(" / ", p.values().stream().map(AxisValue::text).toList());
        }

        // ---- feasible region -------------------------------------------------------------------------

        private void feasibleRegion() {
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
                for (Map<Integer, AxisValue> fixed : extraCombinations()) {
                    if (!fixed.isEmpty()) {
                        out.append("<p class=\"sub\">").append(Html.esc(describe(fixed))).append("</p>");
                    }
                    grid(fixed, 96, 40, "Feasible settings", this::feasibleCell);
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
            open(p);
            out.append("<title>").append(Html.esc(p.label(axes) + "\n" + (a.feasible() ? "feasible, margin "
                    + percent(a.margin()) : "breaks " + String.join(", ", broken)))).append("</title>");
            out.append(rect).append(" class=\"").append(a.feasible() ? "feasible" : "infeasible")
                    .append(isRecommended(p) ? " best" : "").append("\"/>");
            out.append("<text class=\"cell\" x=\"").append(Html.num(tx)).append("\" y=\"").append(Html.num(ty))
                    .append("\" fill=\"").append(a.feasible() ? "#fff" : "#333").append("\">")
                    .append(Html.esc(a.feasible() ? "✓ " + percent(a.margin()) : "✗ " + Html.clip(
                            String.join(", ", broken.stream().map(Page::abbreviation).toList()), 14)))
                    .append("</text>");
            close(p);
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

        // ---- bounds and points ---------------------------------------------------------------------------

        private void bounds() {
            out.append("<section aria-label=\"Bounds\">\n<h2>Closed-form bounds beside the measurements</h2>\n")
                    .append("<p class=\"note\">Each bound comes from the lease profile's own rules (docs/TUNING.md, ")
                    .append("Bounds). Failover after a crash: the holder's lease lapses at most one grant after its last ")
                    .append("renewal, a lock-delay (Consul) grants nothing for that long, and a waiting candidate asks again ")
                    .append("within its longest retry: <b>grant + lock-delay + retry</b> (a lease lost in a pause counts from ")
                    .append("the pause's start). After a step-down, from the step-down: what is left of the lease, at most ")
                    .append("<b>grant − give-up time</b>, + lock-delay + retry, or only <b>retry</b> when the leader releases ")
                    .append("on stepping down (client-go's releaseOnCancel). Pauses: a ")
                    .append("holder loses its lease in any pause longer than <b>limit</b> (the grant, or sooner its renew ")
                    .append("deadline or give-up time) and keeps it through any pause shorter than <b>limit − renewal ")
                    .append("interval</b>. The bounds assume no network fault, no outage and a candidate alive; ✓ means no ")
                    .append("seed went past the bound, and each ✗ is explained below the table.</p>\n")
                    .append("<div class=\"figure\"><table>\n<thead><tr><th>setting</th><th>failover bound (crash / ")
                    .append("step-down)</th><th>longest failover</th><th>limit − renewal</th><th>shortest pause that ")
                    .append("cost the lease</th><th>limit</th><th>longest pause survived</th></tr></thead>\n<tbody>\n");
            List<String> notes = new ArrayList<>();
            for (PointSummary s : r.done().values()) {
                Bounds b = s.bounds();
                out.append("<tr><td>").append(link(s.point(), s.point().label(axes))).append("</td><td>")
                        .append(Html.esc(fmt(b.failoverSeconds()) + " / " + fmt(b.stepDownFailoverSeconds())))
                        .append("</td><td>").append(Html.esc(fmt(s.max("failoverMaxSeconds"))))
                        .append(check(s, notes, Bounds.Bound.FAILOVER, Bounds.Bound.STEP_DOWN_FAILOVER))
                        .append("</td><td>").append(Html.esc(fmt(b.survivedPauseSeconds()))).append("</td><td>")
                        .append(Html.esc(fmt(s.min("shortestLostPauseSeconds"))))
                        .append(check(s, notes, Bounds.Bound.SURVIVED_PAUSE))
                        .append("</td><td>").append(Html.esc(fmt(b.lostPauseSeconds()))).append("</td><td>")
                        .append(Html.esc(fmt(s.max("longestSurvivedPauseSeconds"))))
                        .append(check(s, notes, Bounds.Bound.LOST_PAUSE)).append("</td></tr>\n");
            }
            out.append("</tbody></table></div>\n");
            if (!notes.isEmpty()) {
                out.append("<ol class=\"note\" aria-label=\"Why past the bound\">\n");
                notes.forEach(n -> out.append("<li id=\"past-").append(notes.indexOf(n) + 1).append("\">").append(n)
                        .append("</li>\n"));
                out.append("</ol>\n");
            }
            out.append("</section>\n");
        }

        /**
         * ✓, or ✗ with a footnote per seed that went past one of {@code bounds}: the seed, what took it
         * past (from its events), and whether the bound leaves that out or it is a bug to report.
         */
        private String check(PointSummary s, List<String> notes, Bounds.Bound... bounds) {
            List<Bounds.Bound> which = List.of(bounds);
            StringBuilder refs = new StringBuilder();
            s.pastBounds().forEach((seed, past) -> past.stream().filter(p -> which.contains(p.bound())).forEach(p -> {
                notes.add(Html.esc(s.point().label(axes) + ", seed " + seed + " (" + p.bound().words() + "): " + p.why())
                        + (p.modelled() ? " <b class=\"bad\">The bound models this: a bug in the bound or the simulator; "
                        + "this setting is not recommended. Please report it.</b>"
                        : " <i>The bound leaves this out.</i>"));
                refs.append(refs.isEmpty() ? "" : ",").append("<a href=\"#past-").append(notes.size()).append("\">")
                        .append(notes.size()).append("</a>");
            }));
            return refs.isEmpty() ? " <span class=\"ok\">✓</span>"
                    : " <span class=\"bad\">✗ past the bound <sup>" + refs + "</sup></span>";
        }

        /** The point table's figures: the failover count beside its p99, which it qualifies. */
        private static final List<String> POINT_COLUMNS = List.of("failoverP99Seconds", "failovers", "unavailability",
                "leaseLossesPerHour", "staleWritesPerHour");

        private void pointTable() {
            out.append("<section aria-label=\"Points\">\n<h2>Every setting</h2>\n<div class=\"figure\"><table>\n<thead><tr>")
                    .append("<th>point</th><th>setting</th><th>runs</th><th>violated</th><th>worst seed</th>");
            for (String m : POINT_COLUMNS) {
                out.append("<th>").append(Html.esc(title(m))).append("</th>");
            }
            out.append("</tr></thead>\n<tbody>\n");
            for (Point p : points) {
                out.append("<tr><td><code>").append(p.id()).append("</code></td><td class=\"setting\">")
                        .append(Html.esc(p.label(axes))).append("</td>");
                String reason = r.skipped().get(p.index());
                PointSummary s = r.done().get(p.index());
                if (reason != null) {
                    out.append("<td colspan=\"8\" class=\"bad\">skipped: ").append(Html.esc(reason)).append("</td></tr>\n");
                    continue;
                }
                if (s == null) {
                    out.append("<td colspan=\"8\" class=\"note\">not run yet</td></tr>\n");
                    continue;
                }
                out.append("<td>").append(s.runs().size()).append("</td><td>").append(s.violatedRuns()).append("</td><td>")
                        .append(link(p, "seed " + s.worst().seed())).append("</td>");
                for (String m : POINT_COLUMNS) {
                    out.append("<td>").append(Html.esc(fmt(s.mean(m)))).append("</td>");
                }
                out.append("</tr>\n");
            }
            out.append("</tbody></table></div>\n</section>\n");
        }

        // ---- helpers -------------------------------------------------------------------------------------

        private boolean matches(Point p, Map<Integer, AxisValue> fixed) {
            for (Map.Entry<Integer, AxisValue> f : fixed.entrySet()) {
                if (!p.values().get(f.getKey()).equals(f.getValue())) {
                    return false;
                }
            }
            return true;
        }

        private boolean isRecommended(Point p) {
            return recommended.isPresent() && recommended.get().point().point().index() == p.index();
        }

        private void open(Point p) {
            if (hasReport.test(p)) {
                out.append("<a href=\"").append(Html.esc(reportLink(p))).append("\">");
            } else {
                out.append("<g>");
            }
        }

        private void close(Point p) {
            out.append(hasReport.test(p) ? "</a>" : "</g>");
        }

        private String link(Point p, String text) {
            return hasReport.test(p) ? "<a href=\"" + Html.esc(reportLink(p)) + "\">" + Html.esc(text) + "</a>"
                    : Html.esc(text);
        }

        /** The least and greatest mean of a metric over the finished points. */
        private double[] range(String metric) {
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

        private static double unit(double v, double[] range) {
            return range[1] > range[0] ? (v - range[0]) / (range[1] - range[0]) : 0; // all alike: the light end
        }

        private static double nz(double v) {
            return Double.isNaN(v) ? 0 : v;
        }

        private static String percent(double fraction) {
            return Double.isInfinite(fraction) ? "all" : Math.round(fraction * 100) + " %";
        }

        /** Ticks at 1, 2 or 5 times a power of ten, at most six steps. */
        private static List<Double> niceTicks(double lo, double hi) {
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

    /**
     * The heatmaps' sequential colour scale: viridis reversed (light yellow for little, dark violet for
     * much), readable with the common colour-vision deficiencies and in greyscale; text on a cell is
     * dark or white by the cell's lightness.
     */
    public static final class Ramp {
        private static final int[][] STOPS = {
            {0xfd, 0xe7, 0x25}, {0x90, 0xd7, 0x43}, {0x35, 0xb7, 0x79}, {0x21, 0x91, 0x8c},
            {0x31, 0x68, 0x8e}, {0x44, 0x39, 0x83}, {0x44, 0x01, 0x54}};

        private Ramp() {
        }

        /** The colour of {@code unit} (0 little, 1 much) as {@code #rrggbb}. */
        public static String colour(double unit) {
            double u = Math.clamp(unit, 0, 1) * (STOPS.length - 1);
            int i = Math.min((int) Math.floor(u), STOPS.length - 2);
            double f = u - i;
            int[] a = STOPS[i];
            int[] b = STOPS[i + 1];
            return String.format("#%02x%02x%02x", mix(a[0], b[0], f), mix(a[1], b[1], f), mix(a[2], b[2], f));
        }

        /** Text colour readable on {@link #colour}: dark or white. */
        public static String ink(double unit) {
            return Math.clamp(unit, 0, 1) > 0.45 ? "#ffffff" : "#1a1a1a";
        }

        private static int mix(int a, int b, double f) {
            return (int) Math.round(a + (b - a) * f);
        }
    }

    /** The page's style; in print (as the run report's) every chart fits the page width and nothing scrolls. */
    private static final String CSS = """
            :root{color-scheme:light}
            body{margin:0;background:#fff;color:#1a1a1a;font:15px/1.5 system-ui,-apple-system,"Segoe UI",Roboto,"Helvetica Neue",Arial,sans-serif}
            main{max-width:1176px;margin:0 auto;padding:20px 12px 40px}
            h1{font-size:28px;line-height:1.2;margin:2px 0 8px}
            h2{font-size:19px;margin:26px 0 8px;padding-bottom:4px;border-bottom:1px solid #ddd}
            .rec h2{border:0;margin-top:4px}
            .eyebrow{margin:0;color:#555;font-size:13px;letter-spacing:.04em}
            .meta{color:#444;font-size:14px;margin:4px 0}
            .pauses{font-size:14px;margin:4px 0}
            .pauses ul{margin:2px 0;padding-left:20px}
            .pauses .note{margin:2px 0}
            .rec{border-left:6px solid #0072B2;background:#f0f6fb;padding:6px 18px 8px;margin-top:16px}
            .rec ul{margin:4px 0 8px}
            .note{color:#555;font-size:13px}
            .sub{color:#444;font-size:12px;margin:2px 0 4px}
            .ok{color:#1b7f3b;font-weight:700}
            .bad{color:#b3261e;font-weight:700}
            .grid{display:flex;flex-wrap:wrap;gap:14px 22px}
            .panel{margin:0;padding:8px 10px;border:1px solid #e4e4e4;border-radius:6px}
            .panel figcaption{font-weight:600;font-size:14px;margin-bottom:4px}
            .figure{overflow-x:auto}
            table{border-collapse:collapse;font-size:14px}
            th,td{border-bottom:1px solid #e4e4e4;padding:3px 10px;text-align:left;vertical-align:top}
            th{background:#f6f6f6;font-weight:600}
            td:first-child,td.setting{white-space:nowrap}
            code{font-family:ui-monospace,SFMono-Regular,Menlo,Consolas,monospace;font-size:.92em}
            svg text{font-family:system-ui,-apple-system,"Segoe UI",Roboto,Arial,sans-serif}
            svg .tick{font-size:11px;fill:#444;text-anchor:middle}
            svg .ytick{font-size:11px;fill:#444;text-anchor:end}
            svg .axis{font-size:12px;fill:#222;text-anchor:middle;font-weight:600}
            svg .yaxis{text-anchor:start}
            svg .cell{font-size:11px;text-anchor:middle;font-variant-numeric:tabular-nums}
            svg .label{font-size:11px;fill:#222}
            svg .skip{font-size:10px;fill:#b3261e;text-anchor:middle}
            svg .grid line{stroke:#e6e6e6;stroke-width:1}
            svg rect.pending{fill:#fafafa;stroke:#ccc;stroke-dasharray:3 3}
            svg.defs{position:absolute;width:0;height:0;overflow:hidden}
            svg rect.skipped{fill:url(#hatch);stroke:#bbb}
            svg rect.best{stroke:#D7191C;stroke-width:3}
            svg rect.feasible{fill:#009E73}
            svg rect.infeasible{fill:#e8e8e8}
            svg .mean{fill:none;stroke:#0072B2;stroke-width:2}
            svg .bound{fill:none;stroke:#D55E00;stroke-width:2;stroke-dasharray:6 4}
            svg .err{stroke:#555;stroke-width:1.5}
            svg .dot{fill:#0072B2;stroke:#fff;stroke-width:1.5}
            svg .dot.pareto{fill:#E69F00;stroke:#222}
            svg .dot.infeasible{fill:#fff;stroke:#0072B2;stroke-width:2}
            svg .dot.best{stroke:#D7191C;stroke-width:3.5}
            svg .frontier{fill:none;stroke:#E69F00;stroke-width:2.5}
            svg .key text{font-size:12px;fill:#222}
            svg a:hover rect,svg a:hover circle{stroke:#000;stroke-width:2}
            .dash{display:inline-block;width:24px;border-top:2px dashed #D55E00;vertical-align:middle}
            @media print{
            main{max-width:none;padding:0}
            .figure{overflow:visible}
            .figure svg,.panel svg{max-width:100%;height:auto}
            .panel,tr{break-inside:avoid}
            h2{break-after:avoid}
            svg rect.skipped{fill:#eeeeee}
            }
            """;
}
