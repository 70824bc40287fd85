package io.fencelab.report;

import io.fencelab.engine.check.Judgement;
import io.fencelab.engine.check.Verdict;
import io.fencelab.engine.check.Witness;
import io.fencelab.engine.clock.RunTimes;
import io.fencelab.engine.event.Event;
import io.fencelab.engine.metrics.TuningMetrics;
import io.fencelab.engine.run.RunResult;
import io.fencelab.engine.run.RunSpec;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * The report of a run as one self-contained HTML page: inline CSS and SVG, one small inline script
 * (the timeline's zoom, {@link TimelineZoom}), no fonts or anything else fetched (its
 * Content-Security-Policy allows nothing to be), hover details in SVG {@code <title>} tooltips, every
 * string escaped. Without scripts the page is whole but for the zoom. The
 * same input always gives the same bytes. Large runs are drawn aggregated (see
 * {@link Timeline#aggregated}) so the page stays small; the event log keeps the detail.
 */
public final class HtmlReport {

    /** Witnesses told in full; the rest are counted (all are in summary.json). */
    static final int MAX_WITNESSES_SHOWN = 10;
    /** Witnesses summarised in the verdict box at the top. */
    static final int WITNESSES_IN_VERDICT = 5;

    private HtmlReport() {
    }

    public static void write(Path file, ReportInput input) throws IOException {
        Files.writeString(file, render(input), StandardCharsets.UTF_8);
    }

    public static String render(ReportInput input) {
        return new Page(input).render();
    }

    private static final class Page {
        private final ReportInput in;
        private final RunResult result;
        private final Judgement judgement;
        private final Verdict verdict;
        private final Event.RunStarted started;
        private final StringBuilder out = new StringBuilder(1 << 16);

        Page(ReportInput in) {
            this.in = in;
            this.result = in.result();
            this.judgement = in.result().judgement();
            this.verdict = judgement.verdict();
            this.started = in.events().stream().filter(Event.RunStarted.class::isInstance)
                    .map(Event.RunStarted.class::cast).findFirst().orElse(null);
        }

        String render() {
            Timeline full = Timeline.from(in.events(), judgement);

            out.append("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n")
                    .append("<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n")
                    .append("<meta http-equiv=\"Content-Security-Policy\" content=\"")
                    .append(Html.esc(TimelineZoom.contentSecurityPolicy())).append("\">\n")
                    .append("<title>").append(Html.esc((result.failed() ? "FAILED · " : verdict.isSafe() ? "SAFE · "
                            : "VIOLATED · ") + in.title() + " · Fencelab report")).append("</title>\n")
                    .append("<style>").append(CSS).append("</style>\n</head>\n<body>\n")
                    .append(TimelineSvg.defs()).append("\n<main>\n");
            header();
            verdictSection(full);
            storySection();
            timelineSection(full);
            witnessSection();
            ratesSection(full);
            tuningSection();
            EpisodeTables.appendTo(out, result.tuning().episodes(), full.runMicros());
            detailsSection();
            out.append("<footer class=\"note\">Written by Fencelab from the run's events. The full detail is in ")
                    .append("<code>events.jsonl</code> beside this file; the figures are also in <code>summary.json</code> ")
                    .append("and <code>metrics.csv</code>.</footer>\n</main>\n").append(TimelineZoom.scriptElement())
                    .append("</body>\n</html>\n");
            return out.toString();
        }

        // ---- header and verdict -------------------------------------------------------------

        private void header() {
            out.append("<header>\n<p class=\"eyebrow\">Fencelab report · scenario <code>").append(Html.esc(in.scenario()))
                    .append("</code></p>\n<h1>").append(Html.esc((result.failed() ? "Failed: " : "") + in.title()))
                    .append("</h1>\n<div class=\"badges\">");
            // A failed run is never called SAFE: nothing after the failure was tested. Violations before it stand.
            if (result.failed()) {
                out.append("<span class=\"badge failed\">FAILED</span>");
            }
            if (!verdict.isSafe()) {
                out.append("<span class=\"badge violated\">VIOLATED</span>");
            } else if (!result.failed()) {
                out.append("<span class=\"badge safe\">SAFE</span>");
            }
            out.append(in.expectationMet() ? "<span class=\"badge met\">✓ as expected</span>"
                    : "<span class=\"badge unmet\">✗ not as expected</span>");
            out.append("</div>\n<p class=\"meta\">");
            List<String> meta = new ArrayList<>();
            RunSpec spec = result.spec();
            meta.add(started != null ? started.executor() : spec.executor().name().toLowerCase(Locale.ROOT));
            meta.add((started != null ? started.fencing() : spec.fencing().name()) + " fencing");
            meta.add((started != null ? started.tokenScheme() : spec.tokenScheme().name()) + " tokens");
            meta.add("seed " + (started != null ? started.seed() : spec.seed()));
            meta.add(RunTimes.rounded(runMicros()) + " of run time");
            meta.add("ended: " + result.endReason());
            meta.add(in.events().size() + " events");
            meta.add(result.database());
            out.append(Html.esc(String.join(" · ", meta))).append("</p>\n</header>\n");
        }

        private long runMicros() {
            long end = 0;
            for (Event e : in.events()) {
                end = Math.max(end, e.atMicros());
            }
            return end;
        }

        private void verdictSection(Timeline full) {
            String word = verdict.isSafe() ? result.failed() ? "no violation before the failure" : "safe" : "violated";
            out.append("<section class=\"verdict ").append(verdict.isSafe() ? result.failed() ? "failed" : "safe" : "violated")
                    .append("\" aria-label=\"Verdict\">\n<h2>Verdict: ").append(word).append("</h2>\n");
            List<String> sentences = VerdictText.sentences(in.events(), judgement, full);
            for (int i = 0; i < sentences.size(); i++) {
                out.append(i == 0 ? "<p class=\"lead\">" : "<p>").append(Html.esc(sentences.get(i))).append("</p>\n");
            }
            if (!verdict.isSafe()) {
                out.append("<p>What the checker found:</p>\n<ol class=\"witnesses\">");
                List<Witness> ws = verdict.witnesses();
                for (int i = 0; i < Math.min(ws.size(), WITNESSES_IN_VERDICT); i++) {
                    out.append("<li><strong>").append(Html.esc(VerdictText.name(ws.get(i).invariant())))
                            .append(":</strong> ").append(Html.esc(ws.get(i).summary())).append("</li>");
                }
                out.append("</ol>\n");
                if (ws.size() > WITNESSES_IN_VERDICT) {
                    out.append("<p class=\"note\">").append(ws.size() - WITNESSES_IN_VERDICT)
                            .append(" more below, under Witnesses, and all of them in summary.json.</p>\n");
                }
            }
            if (!result.finalStateJudged()) {
                out.append("<p class=\"note\">The database could not be read at the end, so this verdict rests on the events alone.</p>\n");
            }
            out.append("<p class=\"expect\"><strong>Expected:</strong> ").append(Html.esc(in.expected()))
                    .append(in.expectationMet() ? " <span class=\"ok\">— met.</span>" : " <span class=\"bad\">— not met.</span>")
                    .append("</p>\n");
            if (!in.mismatches().isEmpty()) {
                out.append("<ul class=\"mismatches\">");
                for (String m : in.mismatches()) {
                    out.append("<li>").append(Html.esc(m)).append("</li>");
                }
                out.append("</ul>\n");
            }
            out.append("</section>\n");
        }

        private void more(int total, String what) {
            if (total > MAX_WITNESSES_SHOWN) {
                out.append("<p class=\"note\">").append(total - MAX_WITNESSES_SHOWN).append(" more ").append(what)
                        .append("es are listed in summary.json.</p>\n");
            }
        }

        private void storySection() {
            if (in.summary().isBlank() && in.story().isEmpty()) {
                return;
            }
            out.append("<section aria-label=\"Teaching notes\">\n<h2>The story</h2>\n");
            if (!in.summary().isBlank()) {
                out.append("<p>").append(Html.esc(in.summary())).append("</p>\n");
            }
            if (!in.story().isEmpty()) {
                out.append("<ol class=\"story\">");
                for (String step : in.story()) {
                    out.append("<li>").append(Html.esc(step)).append("</li>");
                }
                out.append("</ol>\n");
            }
            out.append("</section>\n");
        }

        // ---- timeline ----------------------------------------------------------------------

        private void timelineSection(Timeline full) {
            out.append("<section id=\"").append(TimelineZoom.ANCHOR).append("\" aria-label=\"Timeline\">\n<h2>Timeline</h2>\n")
                    .append("<p class=\"note\">Each holder's lane compares what the lease service says it holds with what the holder believes. ")
                    .append("Hover over any bar or mark for its details.</p>\n");
            TimelineZoom.bar(out, full.runMicros());
            TimelineFigure.of(full, EpisodeTables.windows(result.tuning().episodes(), full.runMicros())).appendTo(out);
            out.append("</section>\n");
        }

        private void swatch(String svg, String label) {
            TimelineFigure.swatch(out, svg, label);
        }

        // ---- witnesses ---------------------------------------------------------------------

        private void witnessSection() {
            List<Witness> ws = verdict.witnesses();
            if (ws.isEmpty()) {
                return;
            }
            List<Witness> shown = ws.subList(0, Math.min(ws.size(), MAX_WITNESSES_SHOWN));
            Set<Long> wanted = new HashSet<>();
            shown.forEach(w -> wanted.addAll(w.eventSeqs()));
            Map<Long, Event> bySeq = new HashMap<>();
            for (Event e : in.events()) {
                if (wanted.contains(e.seq())) {
                    bySeq.put(e.seq(), e);
                }
            }
            out.append("<section aria-label=\"Witnesses\">\n<h2>Witnesses</h2>\n")
                    .append("<p class=\"note\">The shortest stretch of the log that shows each broken invariant. ")
                    .append("On the timeline, these events are marked in red: a pin at the moment they happened, a dashed ring around writes.</p>\n");
            for (int i = 0; i < shown.size(); i++) {
                Witness w = shown.get(i);
                out.append("<div class=\"witness-card\">\n<h3>Witness ").append(i + 1).append(": ")
                        .append(Html.esc(VerdictText.name(w.invariant()))).append("</h3>\n<p>").append(Html.esc(w.summary()))
                        .append("</p>\n<table><thead><tr><th class=\"num\">seq</th><th class=\"num\">time</th><th>event</th><th>what happened</th></tr></thead><tbody>");
                for (long seq : w.eventSeqs()) {
                    Event e = bySeq.get(seq);
                    out.append("<tr><td class=\"num\">").append(seq).append("</td>");
                    if (e == null) {
                        out.append("<td></td><td></td><td class=\"note\">not in this log</td></tr>");
                    } else {
                        out.append("<td class=\"num\">").append(Html.esc(RunTimes.seconds(e.atMicros()))).append("</td><td><code>")
                                .append(Html.esc(EventText.type(e))).append("</code></td><td>")
                                .append(Html.esc(EventText.sentence(e, judgement.writes().of(e.seq())))).append("</td></tr>");
                    }
                }
                out.append("</tbody></table>\n</div>\n");
            }
            more(ws.size(), "witness");
            out.append("</section>\n");
        }

        // ---- rates -------------------------------------------------------------------------

        private void ratesSection(Timeline full) {
            List<RateChartsSvg.Window> database = new ArrayList<>();
            for (Span.Fault f : full.globalFaults()) {
                database.add(new RateChartsSvg.Window(f.startMicros(), f.endMicros()));
            }
            List<RateChartsSvg.Window> holders = new ArrayList<>();
            for (HolderLane lane : full.holders()) {
                for (Span s : lane.spans()) {
                    if (s.kind() == Span.Kind.PAUSE || s.kind() == Span.Kind.FAULT) {
                        holders.add(new RateChartsSvg.Window(s.startMicros(), s.endMicros()));
                    }
                }
            }
            out.append("<section aria-label=\"Rates per second\">\n<h2>Rates per second</h2>\n<div class=\"chart-figure\">\n<ul class=\"legend\">");
            swatch("<rect x=\"1\" y=\"1\" width=\"28\" height=\"16\" class=\"shade-holder\"/>", "a holder paused or faulted");
            swatch("<rect x=\"1\" y=\"1\" width=\"28\" height=\"16\" class=\"shade-db\"/>", "database fault");
            out.append("</ul>\n<div class=\"figure\">")
                    .append(RateChartsSvg.render(result.metrics().perSecond(), result.metrics().totals(),
                            new TimeAxis(full.runMicros()), RateChartsSvg.merge(database), RateChartsSvg.merge(holders)))
                    .append("</div>\n</div>\n");
            int bin = RateChartsSvg.binSeconds(result.metrics().perSecond().size());
            if (bin > 1) {
                out.append("<p class=\"note\">Each bar is the mean rate over ").append(bin)
                        .append(" seconds; the exact per-second counts are in metrics.csv.</p>\n");
            }
            out.append("</section>\n");
        }

        // ---- tuning ------------------------------------------------------------------------

        /** The figures a lease setting is tuned by (docs/TUNING.md defines them). */
        private void tuningSection() {
            TuningMetrics tuning = in.result().tuning().totals();
            out.append("<section aria-label=\"Tuning\">\n<h2>Tuning</h2>\n<p class=\"note\">What this lease setting cost, ")
                    .append(Html.esc(TuningText.span(tuning)))
                    .append(". Rates are per hour or per second of run time; per-second figures are in metrics.csv, ")
                    .append("and every figure is defined in docs/TUNING.md.</p>\n")
                    .append("<table class=\"tuning\"><thead><tr><th>figure</th><th class=\"num\">value</th><th>what it counts</th></tr></thead><tbody>");
            for (TuningText.Row row : TuningText.rows(tuning)) {
                out.append("<tr id=\"tuning-").append(row.id()).append("\"><th scope=\"row\">").append(Html.esc(row.label()))
                        .append("</th><td class=\"num\">").append(Html.esc(row.value())).append("</td><td class=\"note\">")
                        .append(Html.esc(row.meaning())).append("</td></tr>");
            }
            out.append("</tbody></table>\n</section>\n");
        }

        // ---- details -----------------------------------------------------------------------

        private void detailsSection() {
            out.append("<section aria-label=\"Run details\">\n<h2>Run details</h2>\n<div class=\"details\">\n<div>\n<h3>Configuration</h3>\n");
            if (in.configuration().isEmpty()) {
                out.append("<p class=\"note\">None given.</p>\n");
            } else {
                out.append("<table><tbody>");
                in.configuration().forEach((k, v) -> out.append("<tr><th scope=\"row\">").append(Html.esc(k))
                        .append("</th><td>").append(Html.esc(v)).append("</td></tr>"));
                out.append("</tbody></table>\n");
            }
            changesTable();
            out.append("<h3>Database</h3>\n<p>").append(Html.esc(result.database())).append("</p>\n</div>\n<div>\n")
                    .append("<h3>Events by type</h3>\n<table><thead><tr><th>type</th><th class=\"num\">count</th></tr></thead><tbody>");
            eventCounts().forEach((type, n) -> out.append("<tr><td><code>").append(Html.esc(type)).append("</code></td><td class=\"num\">")
                    .append(n).append("</td></tr>"));
            out.append("<tr><th>all</th><th class=\"num\">").append(in.events().size()).append("</th></tr></tbody></table>\n")
                    .append("</div>\n</div>\n</section>\n");
        }

        /** Settings changed while a live run ran, numbered as on the timeline (Δ1, Δ2, …). */
        private void changesTable() {
            List<Event.SettingChanged> changes = in.events().stream().filter(Event.SettingChanged.class::isInstance)
                    .map(Event.SettingChanged.class::cast).toList();
            if (changes.isEmpty()) {
                return;
            }
            out.append("<h3>Changed during the run</h3>\n<table><thead><tr><th></th><th>at</th><th>change</th></tr></thead><tbody>");
            int n = 0;
            for (Event.SettingChanged c : changes) {
                out.append("<tr><td>\u0394").append(++n).append("</td><td>").append(Html.esc(RunTimes.seconds(c.atMicros())))
                        .append("</td><td>").append(Html.esc(new Timeline.Change(c.atMicros(), c.seq(), c.setting(),
                                c.from(), c.to()).text())).append("</td></tr>");
            }
            out.append("</tbody></table>\n<p class=\"note\">The configuration above is the one the run started with.</p>\n");
        }

        /** Counts per event type, in the order the types are declared; types that never occur are left out. */
        private Map<String, Long> eventCounts() {
            Map<Class<?>, Long> counts = new HashMap<>();
            for (Event e : in.events()) {
                counts.merge(e.getClass(), 1L, Long::sum);
            }
            Map<String, Long> ordered = new LinkedHashMap<>();
            for (Class<?> type : Event.class.getPermittedSubclasses()) {
                Long n = counts.get(type);
                if (n != null) {
                    ordered.put(type.getSimpleName(), n);
                }
            }
            return ordered;
        }
    }

    /**
     * The page's style sheet; the timeline's SVG classes are styled here too (the handout includes it).
     * In print every figure is scaled to the page width and to at most a page's height, kept on one
     * page with its legend, and nothing scrolls; the hatched fills become flat colours, because a
     * browser writes every hatched rectangle into the PDF as a pattern of its own (a crowded run's
     * handout was 30 MB, 300 KB flat).
     */
    static final String CSS = """
            :root{color-scheme:light}
            svg.defs{position:absolute;width:0;height:0;overflow:hidden}
            body{margin:0;background:#fff;color:#1a1a1a;font:15px/1.5 system-ui,-apple-system,"Segoe UI",Roboto,"Helvetica Neue",Arial,sans-serif}
            main{max-width:1176px;margin:0 auto;padding:20px 12px 40px}
            h1{font-size:28px;line-height:1.2;margin:2px 0 8px}
            h2{font-size:19px;margin:26px 0 8px;padding-bottom:4px;border-bottom:1px solid #ddd}
            .verdict h2{border:0;margin-top:4px}
            h3{font-size:16px;margin:14px 0 6px}
            .eyebrow{margin:0;color:#555;font-size:13px;letter-spacing:.04em}
            .badges{display:flex;gap:8px;flex-wrap:wrap;margin:8px 0}
            .badge{display:inline-block;padding:2px 14px;border-radius:999px;font-weight:700;font-size:15px}
            .badge.safe{background:#1b7f3b;color:#fff}
            .badge.violated{background:#b3261e;color:#fff}
            .badge.failed{background:#5f4b00;color:#fff}
            .badge.met{border:2px solid #1b7f3b;color:#1b7f3b}
            .badge.unmet{border:2px solid #b3261e;color:#b3261e}
            .meta{color:#444;font-size:14px;margin:4px 0}
            .verdict{border-left:6px solid;padding:6px 18px 8px;margin-top:16px}
            .verdict.safe{border-color:#1b7f3b;background:#f1f8f3}
            .verdict.violated{border-color:#b3261e;background:#fdf2f1}
            .verdict.failed{border-color:#5f4b00;background:#fbf6e6}
            .verdict p{margin:6px 0}
            .lead{font-size:18px;font-weight:600}
            .ok{color:#1b7f3b;font-weight:700}
            .bad{color:#b3261e;font-weight:700}
            .note{color:#555;font-size:13px}
            .story li{margin:2px 0}
            .figure{overflow-x:auto}
            .legend{display:flex;flex-wrap:wrap;gap:4px 16px;font-size:13px;margin:6px 0 10px;padding:0;list-style:none}
            .legend li{display:flex;align-items:center;gap:5px}
            table{border-collapse:collapse;font-size:14px}
            th,td{border-bottom:1px solid #e4e4e4;padding:3px 10px;text-align:left;vertical-align:top}
            .num{text-align:right;font-variant-numeric:tabular-nums}
            .witness-card{border:1px solid #e6caca;border-left:6px solid #b00020;padding:4px 14px 10px;margin:12px 0;background:#fffafa}
            .details{display:grid;grid-template-columns:1fr 1fr;gap:28px}
            .details td{white-space:pre-line}
            code{font-family:ui-monospace,SFMono-Regular,Menlo,Consolas,monospace;font-size:13px}
            footer{margin-top:28px;border-top:1px solid #ddd;padding-top:8px}
            svg text{font-family:system-ui,-apple-system,"Segoe UI",Roboto,"Helvetica Neue",Arial,sans-serif}
            svg .tick{font-size:11px;fill:#555;text-anchor:middle}
            svg .grid line{stroke:#e2e2e2}
            svg .section{font-size:11px;font-weight:700;fill:#555;letter-spacing:.05em}
            svg .lane{font-size:14px;font-weight:700;fill:#1a1a1a}
            svg .kind{font-size:11px;fill:#555}
            svg .tag{font-size:11px;font-weight:700;fill:#b00020}
            svg .row{font-size:11px;fill:#666;text-anchor:end}
            svg .row-left{font-size:11px;fill:#555}
            svg .lbl{font-size:11px;fill:#1a1a1a}
            svg .on-dark{fill:#fff;font-weight:600}
            svg .on-light{fill:#0b3550;font-weight:600}
            svg .on-gap{fill:#3d2600;font-weight:700}
            svg .muted{fill:#555}
            svg .bad{fill:#d7191c;font-weight:700}
            svg .step{fill:none;stroke:#0072b2;stroke-width:2.5}
            svg .step-lbl{fill:#0072b2;font-weight:700}
            svg .hit{fill:transparent}
            svg .rule{stroke:#d4d4d4}
            svg .base{stroke:#9a9a9a}
            svg .lane-a{fill:#fafafa}
            svg .lane-b{fill:#f0f2f4}
            svg .witness{fill:none;stroke:#b00020;stroke-width:2;stroke-dasharray:4 2}
            svg .pin{fill:#b00020}
            svg .end{text-anchor:end}
            .shade-db{fill:#cc79a7;fill-opacity:.28}
            .shade-holder{fill:#8c8c8c;fill-opacity:.16}
            .zoom{display:flex;flex-wrap:wrap;align-items:center;gap:6px;margin:4px 0 8px;font-size:14px}
            .zoom[hidden]{display:none}
            .zoom button{font:inherit;padding:2px 10px;border:1px solid #9a9a9a;border-radius:4px;background:#f6f6f6;color:#1a1a1a;cursor:pointer}
            .zoom button:hover{background:#e9eef3}
            .zoom-status{color:#1a1a1a;font-weight:600}
            svg.zoomed{cursor:grab;touch-action:none}
            svg .zoom-band{fill:#0072b2;fill-opacity:.08;stroke:#0072b2;stroke-width:1.5;stroke-dasharray:5 3;pointer-events:none}
            table.episodes td.num,table.episodes a{white-space:nowrap}
            @media print{
            main{max-width:none;padding:0}
            .figure{overflow:visible}
            .figure svg{display:block;width:100%;height:auto;max-height:210mm}
            .timeline-figure,.chart-figure,.witness-card,tr{break-inside:avoid}
            h2,h3{break-after:avoid}
            .zoom{display:none}
            rect[fill="url(#p-pause)"]{fill:#D6D6D6}
            rect[fill="url(#p-gap)"]{fill:#F5C453}
            rect[fill="url(#p-fault)"]{fill:#EBC9DC}
            }
            """;
}
