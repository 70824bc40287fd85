package io.fencelab.report;

import io.fencelab.engine.chaos.PauseProfile;
import io.fencelab.engine.tune.Bounds;
import io.fencelab.engine.tune.Point;
import io.fencelab.engine.tune.SweepResults;
import java.io.IOException;
import java.math.BigDecimal;
import java.math.MathContext;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
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
        return new SweepPage(results, title, hasReport, backend, pauses).render();
    }

    /** A metric's name for people, with its unit: {@code Failover p99 (s)}. */
    public static String title(String metric) {
        return TITLES.getOrDefault(metric, metric);
    }

    /** The closed-form bound drawn beside {@code metric} at a setting with {@code bounds}, or NaN when it has none. */
    public static double bound(String metric, Bounds bounds) {
        String bound = SweepCharts.boundOf(metric);
        return bound == null ? Double.NaN : SweepCharts.boundValue(bound, bounds);
    }

    /** What {@link #bound} is, in words ({@code bound: failover ≤ ttl + retry interval}), or null. */
    public static String boundTitle(String metric) {
        String bound = SweepCharts.boundOf(metric);
        return bound == null ? null : SweepCharts.boundTitle(bound);
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
    static final String CSS = """
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
