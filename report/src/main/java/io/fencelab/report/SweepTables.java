package io.fencelab.report;

import static io.fencelab.report.SweepReport.fmt;
import static io.fencelab.report.SweepReport.title;

import io.fencelab.engine.tune.Axis;
import io.fencelab.engine.tune.Bounds;
import io.fencelab.engine.tune.Point;
import io.fencelab.engine.tune.PointSummary;
import io.fencelab.engine.tune.SweepResults;
import java.util.ArrayList;
import java.util.List;

/** The sweep page's tables: the closed-form bounds beside the measurements, and every setting. */
final class SweepTables {

    private final SweepPage page;
    private final SweepResults r;
    private final List<Axis> axes;
    private final List<Point> points;
    private final StringBuilder out;

    SweepTables(SweepPage page) {
        this.page = page;
        this.r = page.results();
        this.axes = page.axes();
        this.points = page.points();
        this.out = page.out();
    }

    // ---- bounds and points ---------------------------------------------------------------------------

    void bounds() {
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
            out.append("<tr><td>").append(page.link(s.point(), s.point().label(axes))).append("</td><td>")
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

    void pointTable() {
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
                    .append(page.link(p, "seed " + s.worst().seed())).append("</td>");
            for (String m : POINT_COLUMNS) {
                out.append("<td>").append(Html.esc(fmt(s.mean(m)))).append("</td>");
            }
            out.append("</tr>\n");
        }
        out.append("</tbody></table></div>\n</section>\n");
    }
}
