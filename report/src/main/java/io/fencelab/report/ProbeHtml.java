package io.fencelab.report;

import io.fencelab.engine.probe.ChecklistItem;
import io.fencelab.engine.probe.ItemVerdict;
import io.fencelab.engine.probe.ItemVerdict.Status;
import io.fencelab.engine.probe.ItemVerdict.WitnessStep;
import io.fencelab.engine.probe.ProbeReport;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * The report of {@code fencelab probe}, {@code probe.html}: one self-contained page in the run
 * report's style (its style sheet, no script, nothing fetched). The checklist comes first, a row per
 * item and fence with its verdict; below it, each failure's witness as a table of the steps that show
 * it (what was done, the statement, what it said, what the row held after), with a link to the run's
 * {@code events.jsonl} where a step came from a run (the races). Every string is escaped; the same
 * report always gives the same bytes.
 */
public final class ProbeHtml {

    private ProbeHtml() {
    }

    public static void write(Path file, ProbeReport report) throws IOException {
        Files.writeString(file, render(report), StandardCharsets.UTF_8);
    }

    public static String render(ProbeReport report) {
        return new Page(report).render();
    }

    /** The verdict as the page says it: {@code holds}, {@code FAILS}, {@code does not apply}. */
    public static String word(Status status) {
        return switch (status) {
            case HOLDS -> "holds";
            case FAILS -> "FAILS";
            case NOT_APPLICABLE -> "does not apply";
        };
    }

    /** The anchor of a failure's witness on the page: {@code witness-report-races}. */
    static String anchor(ItemVerdict v) {
        return "witness-" + v.fence().replaceAll("[^A-Za-z0-9_-]", "_") + "-"
                + v.item().name().toLowerCase(java.util.Locale.ROOT).replace('_', '-');
    }

    private static final class Page {
        private final ProbeReport report;
        private final List<ItemVerdict> failures;
        private final StringBuilder out = new StringBuilder(1 << 14);

        Page(ProbeReport report) {
            this.report = report;
            this.failures = report.verdicts().stream().filter(v -> v.status() == Status.FAILS).toList();
        }

        String render() {
            String outcome = failures.isEmpty() ? "ALL HOLD" : failures.size() + (failures.size() == 1 ? " ITEM FAILS" : " ITEMS FAIL");
            out.append("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n")
                    .append("<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n")
                    .append("<meta http-equiv=\"Content-Security-Policy\" content=\"default-src 'none'; style-src 'unsafe-inline'\">\n")
                    .append("<title>").append(Html.esc(outcome + " · " + fileName(report.source()) + " · Fencelab probe"))
                    .append("</title>\n<style>").append(HtmlReport.CSS).append(CSS).append("</style>\n</head>\n<body>\n<main>\n");
            header(outcome);
            checklist();
            witnesses();
            out.append("<footer class=\"note\">Written by Fencelab (<code>fencelab probe</code>). Every statement ran in a ")
                    .append("scratch schema made for the probe; nothing outside it was written. The same results are in ")
                    .append("<code>probe.json</code> beside this file.</footer>\n</main>\n</body>\n</html>\n");
            return out.toString();
        }

        private void header(String outcome) {
            out.append("<header>\n<p class=\"eyebrow\">Fencelab probe · file <code>").append(Html.esc(report.source()))
                    .append("</code></p>\n<h1>Your fence against the checklist</h1>\n<div class=\"badges\">")
                    .append(failures.isEmpty() ? "<span class=\"badge safe\">" : "<span class=\"badge violated\">")
                    .append(Html.esc(outcome)).append("</span></div>\n<p class=\"meta\">");
            List<String> meta = new ArrayList<>();
            meta.add((report.fences().size() == 1 ? "fence " : "fences ") + String.join(", ", report.fences()));
            meta.add(count(Status.HOLDS) + " hold");
            meta.add(count(Status.FAILS) + " fail");
            meta.add(count(Status.NOT_APPLICABLE) + " do not apply");
            meta.add(report.database());
            out.append(Html.esc(String.join(" · ", meta))).append("</p>\n</header>\n");
        }

        private long count(Status status) {
            return report.verdicts().stream().filter(v -> v.status() == status).count();
        }

        // ---- the checklist -------------------------------------------------------------------

        private void checklist() {
            out.append("<section aria-label=\"Checklist\">\n<h2>Checklist</h2>\n")
                    .append("<p class=\"note\">Each item was tried on a fresh scratch schema with your statements. ")
                    .append("A failure links to its witness below.</p>\n")
                    .append("<table class=\"checklist\">\n<thead><tr><th scope=\"col\">Item</th><th scope=\"col\">How it is tried</th>")
                    .append("<th scope=\"col\">Fence</th><th scope=\"col\">Verdict</th><th scope=\"col\">What was found</th></tr></thead>\n<tbody>\n");
            for (ChecklistItem item : ChecklistItem.values()) {
                List<ItemVerdict> rows = report.verdicts().stream().filter(v -> v.item() == item).toList();
                for (int i = 0; i < rows.size(); i++) {
                    ItemVerdict v = rows.get(i);
                    out.append("<tr class=\"").append(cssClass(v.status())).append("\">");
                    if (i == 0) {
                        String span = rows.size() > 1 ? " rowspan=\"" + rows.size() + "\"" : "";
                        out.append("<th scope=\"row\"").append(span).append(">").append(Html.esc(item.title()))
                                .append("</th><td class=\"how\"").append(span).append(">").append(Html.esc(item.howTried()))
                                .append("</td>");
                    }
                    out.append("<td><code>").append(Html.esc(v.fence())).append("</code></td><td class=\"status\">");
                    if (v.status() == Status.FAILS && !v.witness().isEmpty()) {
                        out.append("<a href=\"#").append(anchor(v)).append("\">").append(word(v.status())).append("</a>");
                    } else {
                        out.append(word(v.status()));
                    }
                    out.append("</td><td>").append(Html.esc(v.summary())).append("</td></tr>\n");
                }
            }
            out.append("</tbody>\n</table>\n</section>\n");
        }

        private static String cssClass(Status status) {
            return switch (status) {
                case HOLDS -> "holds";
                case FAILS -> "fails";
                case NOT_APPLICABLE -> "na";
            };
        }

        // ---- the witnesses -------------------------------------------------------------------

        private void witnesses() {
            if (failures.isEmpty()) {
                return;
            }
            out.append("<section aria-label=\"Witnesses\">\n<h2>Witnesses</h2>\n")
                    .append("<p class=\"note\">For each failure, the steps that show it: what was done, the statement sent ")
                    .append("(where it is in your file), what the statement said, and what the row held when read back ")
                    .append("right after.</p>\n");
            for (ItemVerdict v : failures) {
                out.append("<div class=\"witness-card\" id=\"").append(anchor(v)).append("\">\n<h3><code>")
                        .append(Html.esc(v.fence())).append("</code> · ").append(Html.esc(v.item().title())).append("</h3>\n<p>")
                        .append(Html.esc(v.summary())).append("</p>\n");
                if (!v.witness().isEmpty()) {
                    steps(v.witness());
                }
                out.append("</div>\n");
            }
            out.append("</section>\n");
        }

        private void steps(List<WitnessStep> steps) {
            boolean events = steps.stream().anyMatch(s -> s.eventsFile() != null);
            out.append("<table class=\"steps\">\n<thead><tr><th scope=\"col\" class=\"num\">#</th><th scope=\"col\">What was done</th>")
                    .append("<th scope=\"col\">Statement</th><th scope=\"col\">It said</th><th scope=\"col\">Row holds: token</th>")
                    .append("<th scope=\"col\">body</th>").append(events ? "<th scope=\"col\">Run</th>" : "")
                    .append("</tr></thead>\n<tbody>\n");
            for (int i = 0; i < steps.size(); i++) {
                WitnessStep s = steps.get(i);
                out.append("<tr><td class=\"num\">").append(i + 1).append("</td><td>").append(Html.esc(s.action()))
                        .append("</td><td>").append(s.statement() == null ? "" : "<code>" + Html.esc(s.statement()) + "</code>")
                        .append("</td><td>")
                        .append(Html.esc(s.said())).append("</td><td class=\"num\">")
                        .append(heldToken(s))
                        .append("</td><td>").append(Html.esc(s.heldBody())).append("</td>");
                if (events) {
                    out.append("<td>").append(eventsLink(s.eventsFile())).append("</td>");
                }
                out.append("</tr>\n");
            }
            out.append("</tbody>\n</table>\n");
        }

        /**
         * The token the row held after the step's statement; "no row" when it read back nothing, and
         * blank for a step that sent no statement (a lease acquired, a pause, a wait).
         */
        private static String heldToken(WitnessStep s) {
            if (s.heldToken() != null) {
                return Html.esc(s.heldToken());
            }
            return s.statement() == null || s.eventsFile() != null ? "" : "<span class=\"note\">no row</span>";
        }

        /** A link to a run's event log beside the page; a path that is not plainly relative is shown, not linked. */
        private static String eventsLink(String file) {
            if (file == null) {
                return "";
            }
            boolean relative = !file.startsWith("/") && !file.startsWith("\\") && !file.contains(":") && !file.contains("..");
            return relative ? "<a href=\"" + Html.esc(file.replace('\\', '/')) + "\">events</a>"
                    : "<code>" + Html.esc(file) + "</code>";
        }
    }

    private static String fileName(String source) {
        if (source == null) {
            return "";
        }
        int slash = Math.max(source.lastIndexOf('/'), source.lastIndexOf('\\'));
        return source.substring(slash + 1);
    }

    /** What the probe's page adds to the run report's style sheet. */
    static final String CSS = """
            table.checklist{width:100%}
            table.checklist td.how{color:#555;font-size:13px;max-width:320px}
            table.checklist td.status{white-space:nowrap}
            table.checklist tr.holds td.status{color:#1b7f3b;font-weight:700}
            table.checklist tr.fails td.status,table.checklist tr.fails td.status a{color:#b3261e;font-weight:700}
            table.checklist tr.fails{background:#fdf2f1}
            table.checklist tr.na td{color:#666}
            table.steps{margin:6px 0 4px}
            table.steps td code{white-space:nowrap}
            """;
}
