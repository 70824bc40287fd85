package io.fencelab.report;

import static org.assertj.core.api.Assertions.assertThat;

import io.fencelab.engine.probe.ChecklistItem;
import io.fencelab.engine.probe.ItemVerdict;
import io.fencelab.engine.probe.ItemVerdict.Status;
import io.fencelab.engine.probe.ItemVerdict.WitnessStep;
import io.fencelab.engine.probe.ProbeReport;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class ProbeHtmlTest {

    /** Where the page is kept for a person to open. */
    private static final Path SAVED = Path.of("target", "reports");

    private static final String STATEMENT = "fences.yaml:14";
    private static final String HOSTILE_BODY = "<script>alert(\"x\")</script> & 'A'";

    @Test
    void aFailureIsListedInTheChecklistAndToldStepByStepInItsWitness() throws Exception {
        ProbeReport report = report(List.of(
                failure(ChecklistItem.STALE_HOLDER_REJECTED, "A's write with token 41 was accepted after B wrote 42",
                        List.of(new WitnessStep("A pauses at 10 s", null, null, null, null, null),
                                new WitnessStep("write token 5 to key 99 as holder C", STATEMENT, "refused", null, null, null),
                                new WitnessStep("write token 42 to key 17 as holder B", STATEMENT, "accepted", "42",
                                        "report by B, token 42, op 1", null),
                                new WitnessStep("write token 41 to key 17 as holder A", STATEMENT, "accepted", "41",
                                        HOSTILE_BODY, null))),
                failure(ChecklistItem.RACES, "a stale overwrite in simulated schedule 3",
                        List.of(new WitnessStep("simulated run, seed 3", STATEMENT, "accepted", "7", "report by w-2",
                                "races/sim-3/events.jsonl")))));

        String html = ProbeHtml.render(report);
        save("probe-failing.html", html);

        assertThat(html.indexOf("<h2>Checklist</h2>")).as("the checklist comes first")
                .isPositive().isLessThan(html.indexOf("<h2>Witnesses</h2>"));
        for (ChecklistItem item : ChecklistItem.values()) {
            assertThat(html).as("every item has its row: " + item).contains(Html.esc(item.title()));
        }
        assertThat(html).contains("<span class=\"badge violated\">2 ITEMS FAIL</span>")
                .contains("<a href=\"#witness-report-stale-holder-rejected\">FAILS</a>")
                .contains("<div class=\"witness-card\" id=\"witness-report-stale-holder-rejected\">")
                .contains("<td>write token 41 to key 17 as holder A</td><td><code>fences.yaml:14</code></td>"
                        + "<td>accepted</td><td class=\"num\">41</td>")
                .contains("<a href=\"races/sim-3/events.jsonl\">events</a>")
                .as("a step that sent nothing shows no row state; a write that found no row says so")
                .contains("<td>A pauses at 10 s</td><td></td><td></td><td class=\"num\"></td>")
                .contains("<td>refused</td><td class=\"num\"><span class=\"note\">no row</span></td>");
        assertThat(html).as("the user's text is escaped, never markup")
                .doesNotContain("<script>")
                .contains("&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt; &amp; 'A'");
        assertThat(html).as("no script and nothing fetched").doesNotContain("<script").doesNotContain("src=\"http");
    }

    @Test
    void aProbeWhereEveryItemHoldsHasNoWitnessSection() {
        ProbeReport report = report(List.of());

        String html = ProbeHtml.render(report);
        save("probe-holding.html", html);

        assertThat(html).contains("<span class=\"badge safe\">ALL HOLD</span>")
                .contains("does not apply")
                .doesNotContain("<h2>Witnesses</h2>");
    }

    @Test
    void aFailureRowLinksOnlyWhenThereIsAWitnessToShow() {
        ProbeReport report = report(List.of(failure(ChecklistItem.LARGE_TOKENS, "22003: integer out of range", List.of())));

        String html = ProbeHtml.render(report);

        assertThat(html).contains("<td class=\"status\">FAILS</td>").doesNotContain("href=\"#witness-report-large-tokens\"");
    }

    @Test
    void anEventsFileThatIsNotPlainlyRelativeIsShownNotLinked() {
        ProbeReport report = report(List.of(failure(ChecklistItem.RACES, "stale overwrite",
                List.of(new WitnessStep("live run", STATEMENT, "accepted", "9", "b", "javascript:alert(1)")))));

        String html = ProbeHtml.render(report);

        assertThat(html).doesNotContain("href=\"javascript").contains("<code>javascript:alert(1)</code>");
    }

    @Test
    void theSameReportGivesTheSameBytes() {
        ProbeReport report = report(List.of(failure(ChecklistItem.EQUAL_TOKEN, "the second write under 42 was refused",
                List.of(new WitnessStep("write token 42 again", STATEMENT, "stale", "42", "first", null)))));

        assertThat(ProbeHtml.render(report)).isEqualTo(ProbeHtml.render(report));
    }

    /** Two fences; every item holds (scopes do not apply to {@code latest}) except the given failures of {@code report}. */
    private static ProbeReport report(List<ItemVerdict> failures) {
        List<ItemVerdict> verdicts = new ArrayList<>();
        for (String fence : List.of("report", "latest")) {
            for (ChecklistItem item : ChecklistItem.values()) {
                ItemVerdict failed = fence.equals("report")
                        ? failures.stream().filter(f -> f.item() == item).findFirst().orElse(null) : null;
                if (failed != null) {
                    verdicts.add(failed);
                } else if (fence.equals("latest") && item == ChecklistItem.SCOPES_APART) {
                    verdicts.add(new ItemVerdict(fence, item, Status.NOT_APPLICABLE, "no statement uses :scope", List.of()));
                } else {
                    verdicts.add(new ItemVerdict(fence, item, Status.HOLDS, "as the checklist asks", List.of()));
                }
            }
        }
        return new ProbeReport("gallery/no-token-predicate.yaml", "embedded PostgreSQL 17.6", List.of("report", "latest"),
                verdicts);
    }

    private static ItemVerdict failure(ChecklistItem item, String summary, List<WitnessStep> steps) {
        return new ItemVerdict("report", item, Status.FAILS, summary, steps);
    }

    private static void save(String name, String html) {
        try {
            Files.createDirectories(SAVED);
            Files.writeString(SAVED.resolve(name), html, StandardCharsets.UTF_8);
        } catch (java.io.IOException e) {
            throw new IllegalStateException(e);
        }
    }
}
