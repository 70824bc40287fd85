package io.fencelab.report;

import static io.fencelab.report.SweepReport.fmt;

import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.function.DoubleUnaryOperator;

/**
 * {@code calibration.html}: a model and the real service it models side by side. For each figure,
 * both sides' values as dots on one axis with their median and 90th percentile marked, and for each
 * pause length of the grid the share of runs that lost a lease on each side, with the survivable-pause
 * edge of each. The sweep page's style ({@link SweepReport#CSS}, ticks, number format).
 */
public final class CalibrationPage {

    /** The model's colour and the real service's: the palette's held-lease blue and the gap's orange. */
    static final String MODEL = Palette.HELD;
    static final String REAL = Palette.GAP;

    private static final String CSS = """
            svg .model{fill:%s;fill-opacity:.45}
            svg .real{fill:%s;fill-opacity:.85;stroke:#222;stroke-width:.8}
            svg .q{stroke:#222;stroke-width:2}
            svg .span{stroke:#999;stroke-width:1}
            svg .lmodel{fill:none;stroke:%s;stroke-width:2}
            svg .lreal{fill:none;stroke:%s;stroke-width:2;stroke-dasharray:6 3}
            svg .edge{stroke:#D7191C;stroke-width:1.5;stroke-dasharray:3 3}
            .swatch{display:inline-block;width:12px;height:12px;border-radius:6px;vertical-align:-1px;margin-right:4px}
            td.num{text-align:right;font-variant-numeric:tabular-nums}
            """.formatted(MODEL, REAL, MODEL, REAL);

    private final Calibration c;
    private final StringBuilder out = new StringBuilder(1 << 15);

    private CalibrationPage(Calibration c) {
        this.c = c;
    }

    /** Writes the page to {@code file}, atomically. */
    public static void write(Path file, Calibration c) throws IOException {
        StagedDirectory.writeFile(file, render(c));
    }

    public static String render(Calibration c) {
        return new CalibrationPage(c).page();
    }

    private String page() {
        out.append("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n")
                .append("<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n<title>")
                .append(Html.esc("Calibration: " + c.scenario() + " on " + c.service() + " · Fencelab"))
                .append("</title>\n<style>").append(SweepReport.CSS).append(CSS).append("</style>\n</head>\n<body>\n<main>\n");
        header();
        summary();
        figures();
        pauses();
        out.append("<footer class=\"note\">Written by Fencelab's <code>calibrate</code>; the values are in ")
                .append("<code>calibration.json</code>. docs/TUNING.md (Calibration) explains every figure.</footer>\n")
                .append("</main>\n</body>\n</html>\n");
        return out.toString();
    }

    private void header() {
        int pauses = c.pauses().size();
        out.append("<p class=\"eyebrow\">CALIBRATION</p>\n<h1>").append(Html.esc(c.scenario())).append(": model vs ")
                .append(Html.esc(c.service())).append("</h1>\n<p class=\"meta\"><span class=\"swatch\" style=\"background:")
                .append(MODEL).append("\"></span><b>model</b>: ").append(Html.esc(c.profile()))
                .append(" on Fencelab's lease table, simulated, ").append(runs(c.modelSeeds(), pauses)).append("</p>\n")
                .append("<p class=\"meta\"><span class=\"swatch\" style=\"background:").append(REAL)
                .append("\"></span><b>real</b>: ").append(Html.esc(c.serviceVersion() == null ? c.service()
                        : c.serviceVersion())).append(", each worker its own JVM, ").append(runs(c.realSeeds(), pauses))
                .append("</p>\n<p class=\"meta\">server: ").append(Html.esc(c.serverSource())).append("; pause varied: ")
                .append(Html.esc(c.pauseAt())).append("</p>\n");
    }

    private static String runs(List<Long> seeds, int pauses) {
        return Html.esc(seeds.size() * pauses + " runs (" + pauses + " pause lengths × seeds " + seedWords(seeds) + ")");
    }

    /** Seeds in brief: {@code 1..50} when consecutive, else listed. */
    static String seedWords(List<Long> seeds) {
        if (seeds.isEmpty()) {
            return "none";
        }
        boolean consecutive = true;
        for (int i = 1; i < seeds.size(); i++) {
            consecutive &= seeds.get(i) == seeds.get(i - 1) + 1;
        }
        return consecutive && seeds.size() > 2 ? seeds.getFirst() + ".." + seeds.getLast()
                : String.join(", ", seeds.stream().map(String::valueOf).toList());
    }

    private void summary() {
        out.append("<section class=\"rec\"><h2>In brief</h2>\n<ul>\n");
        out.append("<li>survivable-pause edge: model ").append(Html.esc(c.modelEdge().words())).append("; real ")
                .append(Html.esc(c.realEdge().words())).append(c.edgesAgree()
                        ? " — <span class=\"ok\">they agree</span> on which pauses cost the lease"
                        : " — <span class=\"bad\">they differ</span> on which pauses cost the lease").append("</li>\n");
        for (Calibration.Figure f : c.figures()) {
            Optional<String> why = f.differs();
            out.append("<li>").append(Html.esc(f.title())).append(": ").append(why.isPresent()
                    ? "<span class=\"bad\">differs</span>: " + Html.esc(why.get()) : "<span class=\"ok\">agrees</span>")
                    .append("</li>\n");
        }
        out.append("</ul>\n<p class=\"note\">Rule: each side's spread is its least to greatest value, widened by the ")
                .append("larger of the figure's tolerance and ").append(Math.round(Calibration.RELATIVE_SLACK * 100))
                .append(" % of its median; a figure differs when the real median is outside the model's spread, ")
                .append("the model's median outside the real spread, or only one side has values.</p>\n</section>\n");
    }

    // ---- figures --------------------------------------------------------------------------------

    private void figures() {
        out.append("<section aria-label=\"Figures\">\n<h2>Both distributions, figure by figure</h2>\n")
                .append("<p class=\"note\">Each dot is one value (one per run, or one per failover or noticed loss, over ")
                .append("every pause length); the black ticks are the median and the 90th percentile, the grey line ")
                .append("the least to greatest.</p>\n<table><tr><th>figure</th><th>model median / p90 (n)</th>")
                .append("<th>real median / p90 (n)</th><th>tolerance</th><th></th></tr>\n");
        for (Calibration.Figure f : c.figures()) {
            Calibration.Spread m = f.modelSpread();
            Calibration.Spread r = f.realSpread();
            out.append("<tr><td>").append(Html.esc(f.title() + " (" + f.unit() + ")")).append("</td><td class=\"num\">")
                    .append(Html.esc(m.brief())).append("</td><td class=\"num\">").append(Html.esc(r.brief()))
                    .append("</td><td class=\"num\">").append(Html.esc(fmt(f.tolerance()))).append("</td><td>")
                    .append(f.differs().isPresent() ? "<span class=\"bad\">differs</span>" : "").append("</td></tr>\n");
        }
        out.append("</table>\n<div class=\"grid\">\n");
        for (Calibration.Figure f : c.figures()) {
            out.append("<figure class=\"panel\"><figcaption>").append(Html.esc(f.title() + " (" + f.unit() + ", one a "
                    + f.per() + ")")).append("</figcaption>\n");
            strip(f);
            f.differs().ifPresent(why -> out.append("<p class=\"sub bad\">differs: ").append(Html.esc(why)).append("</p>"));
            out.append("</figure>\n");
        }
        out.append("</div>\n</section>\n");
    }

    /** One figure: a row of dots per side on a shared axis. */
    private void strip(Calibration.Figure f) {
        int w = 540;
        int h = 130;
        double left = 60;
        double right = 16;
        double lo = 0;
        double hi = 0;
        for (List<Double> side : List.of(f.model(), f.real())) {
            for (double v : side) {
                lo = Math.min(lo, v);
                hi = Math.max(hi, v);
            }
        }
        if (!(hi > lo)) {
            hi = lo + 1;
        }
        double ylo = lo;
        double yhi = hi * 1.05;
        double plotW = w - left - right;
        DoubleUnaryOperator sx = v -> left + (v - ylo) / (yhi - ylo) * plotW;
        out.append("<svg class=\"line\" width=\"").append(w).append("\" height=\"").append(h).append("\" viewBox=\"0 0 ")
                .append(w).append(' ').append(h).append("\" role=\"img\" aria-label=\"")
                .append(Html.esc(f.title() + ": model and real values")).append("\"><g class=\"grid\">");
        for (double t : SweepPage.niceTicks(ylo, yhi)) {
            String x = Html.num(sx.applyAsDouble(t));
            out.append("<line x1=\"").append(x).append("\" x2=\"").append(x).append("\" y1=\"10\" y2=\"92\"/>")
                    .append("<text class=\"tick\" x=\"").append(x).append("\" y=\"106\">").append(Html.esc(fmt(t)))
                    .append("</text>");
        }
        out.append("</g><text class=\"axis\" x=\"").append(Html.num(left + plotW / 2)).append("\" y=\"").append(h - 4)
                .append("\">").append(Html.esc(f.unit())).append("</text>");
        row(f.model(), f.modelSpread(), "model", 32, sx);
        row(f.real(), f.realSpread(), "real", 72, sx);
        out.append("</svg>\n");
    }

    private void row(List<Double> values, Calibration.Spread s, String side, double y, DoubleUnaryOperator sx) {
        out.append("<text class=\"ytick\" x=\"52\" y=\"").append(Html.num(y + 4)).append("\">").append(side)
                .append("</text>");
        if (s.empty()) {
            out.append("<text class=\"label\" x=\"66\" y=\"").append(Html.num(y + 4)).append("\">none</text>");
            return;
        }
        out.append("<line class=\"span\" x1=\"").append(Html.num(sx.applyAsDouble(s.min()))).append("\" x2=\"")
                .append(Html.num(sx.applyAsDouble(s.max()))).append("\" y1=\"").append(Html.num(y)).append("\" y2=\"")
                .append(Html.num(y)).append("\"/>");
        // Dots jittered up and down by their index, so equal values stay countable.
        for (int i = 0; i < values.size(); i++) {
            double dy = ((i % 5) - 2) * 2.5;
            out.append("<circle class=\"").append(side).append("\" cx=\"")
                    .append(Html.num(sx.applyAsDouble(values.get(i)))).append("\" cy=\"").append(Html.num(y + dy))
                    .append("\" r=\"4\"><title>").append(Html.esc(side + ": " + fmt(values.get(i))))
                    .append("</title></circle>");
        }
        for (double q : new double[] {s.median(), s.p90()}) {
            String x = Html.num(sx.applyAsDouble(q));
            out.append("<line class=\"q\" x1=\"").append(x).append("\" x2=\"").append(x).append("\" y1=\"")
                    .append(Html.num(y - 11)).append("\" y2=\"").append(Html.num(y + 11)).append("\"><title>")
                    .append(Html.esc(side + (q == s.median() ? " median " : " p90 ") + fmt(q))).append("</title></line>");
        }
    }

    // ---- pauses ---------------------------------------------------------------------------------

    private void pauses() {
        out.append("<section aria-label=\"Pauses\">\n<h2>Lease losses by pause length</h2>\n")
                .append("<p class=\"note\">").append(Html.esc(c.pauseAt())).append(", of each length. A run counts ")
                .append("as lost when any holder lost a lease it still believed it held. The edge is the longest pause ")
                .append("that never lost one, all shorter ones never losing either (red dashes: model left, real right).")
                .append("</p>\n");
        chart();
        out.append("<table><tr><th>pause</th><th>model: runs that lost a lease</th><th>real: runs that lost a lease</th>")
                .append("<th></th></tr>\n");
        for (Calibration.PauseRow p : c.pauses()) {
            out.append("<tr><td class=\"num\">").append(Html.esc(fmt(p.pauseSeconds()))).append(" s</td><td class=\"num\">")
                    .append(p.modelLost()).append(" of ").append(p.modelRuns()).append("</td><td class=\"num\">")
                    .append(p.realLost()).append(" of ").append(p.realRuns()).append("</td><td>")
                    .append(p.agrees() ? "" : "<span class=\"bad\">differs</span>").append("</td></tr>\n");
        }
        out.append("</table>\n<p>Edge: model ").append(Html.esc(c.modelEdge().words())).append("; real ")
                .append(Html.esc(c.realEdge().words())).append(".</p>\n</section>\n");
    }

    /** The share of runs that lost a lease, by pause length: a line per side, the pause lengths evenly spaced. */
    private void chart() {
        List<Calibration.PauseRow> rows = c.pauses();
        int n = rows.size();
        int w = 540;
        int h = 210;
        double left = 56;
        double right = 16;
        double top = 12;
        double plotW = w - left - right;
        double plotH = h - top - 44;
        DoubleUnaryOperator sy = v -> top + plotH - v * plotH;
        java.util.function.IntToDoubleFunction sx = i -> left + (n == 1 ? plotW / 2 : plotW * i / (n - 1.0));
        out.append("<svg class=\"line\" width=\"").append(w).append("\" height=\"").append(h).append("\" viewBox=\"0 0 ")
                .append(w).append(' ').append(h).append("\" role=\"img\" aria-label=\"share of runs that lost a lease by ")
                .append("pause length\"><g class=\"grid\">");
        for (double t : new double[] {0, 0.25, 0.5, 0.75, 1}) {
            String y = Html.num(sy.applyAsDouble(t));
            out.append("<line x1=\"").append(Html.num(left)).append("\" x2=\"").append(Html.num(w - right))
                    .append("\" y1=\"").append(y).append("\" y2=\"").append(y).append("\"/><text class=\"ytick\" x=\"")
                    .append(Html.num(left - 6)).append("\" y=\"").append(Html.num(sy.applyAsDouble(t) + 4)).append("\">")
                    .append(Math.round(t * 100)).append(" %</text>");
        }
        out.append("</g>");
        for (int i = 0; i < n; i++) {
            out.append("<text class=\"tick\" x=\"").append(Html.num(sx.applyAsDouble(i))).append("\" y=\"")
                    .append(Html.num(h - 28)).append("\">").append(Html.esc(fmt(rows.get(i).pauseSeconds()))).append(" s</text>");
        }
        out.append("<text class=\"axis\" x=\"").append(Html.num(left + plotW / 2)).append("\" y=\"").append(h - 6)
                .append("\">pause length</text>");
        edgeMark(c.modelEdge(), sx, top, plotH, -3);
        edgeMark(c.realEdge(), sx, top, plotH, 3);
        for (boolean real : new boolean[] {false, true}) {
            StringBuilder path = new StringBuilder();
            for (int i = 0; i < n; i++) {
                Calibration.PauseRow p = rows.get(i);
                int runs = real ? p.realRuns() : p.modelRuns();
                if (runs == 0) {
                    continue;
                }
                double share = (real ? p.realLost() : p.modelLost()) / (double) runs;
                double x = sx.applyAsDouble(i);
                double y = sy.applyAsDouble(share);
                path.append(path.isEmpty() ? "M" : " L").append(Html.num(x)).append(' ').append(Html.num(y));
                out.append("<circle class=\"").append(real ? "real" : "model").append("\" cx=\"").append(Html.num(x))
                        .append("\" cy=\"").append(Html.num(y)).append("\" r=\"5\"><title>")
                        .append(Html.esc(String.format(Locale.ROOT, "%s, %s s: %d of %d runs lost a lease",
                                real ? "real" : "model", fmt(p.pauseSeconds()), real ? p.realLost() : p.modelLost(), runs)))
                        .append("</title></circle>");
            }
            out.append("<path class=\"").append(real ? "lreal" : "lmodel").append("\" d=\"").append(path).append("\"/>");
        }
        out.append("</svg>\n<p class=\"sub\"><span class=\"swatch\" style=\"background:").append(MODEL)
                .append("\"></span>model, solid <span class=\"swatch\" style=\"background:").append(REAL)
                .append("\"></span>real, dashed</p>\n");
    }

    /** A dashed line between the longest survived pause and the shortest lost one. */
    private void edgeMark(Calibration.Edge edge, java.util.function.IntToDoubleFunction sx, double top, double plotH,
                          double shift) {
        if (!edge.found()) {
            return;
        }
        int lost = indexOf(edge.lost().get());
        double x = (sx.applyAsDouble(lost - 1) + sx.applyAsDouble(lost)) / 2 + shift;
        out.append("<line class=\"edge\" x1=\"").append(Html.num(x)).append("\" x2=\"").append(Html.num(x))
                .append("\" y1=\"").append(Html.num(top)).append("\" y2=\"").append(Html.num(top + plotH))
                .append("\"><title>").append(Html.esc("edge: " + edge.words())).append("</title></line>");
    }

    private int indexOf(double pause) {
        for (int i = 0; i < c.pauses().size(); i++) {
            if (c.pauses().get(i).pauseSeconds() == pause) {
                return i;
            }
        }
        return 0;
    }
}
