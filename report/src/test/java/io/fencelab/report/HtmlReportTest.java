package io.fencelab.report;

import static org.assertj.core.api.Assertions.assertThat;

import io.fencelab.engine.check.Witness;
import io.fencelab.engine.db.Database;
import io.fencelab.engine.event.Event;
import io.fencelab.engine.fence.FencingMode;
import io.fencelab.engine.metrics.TuningMetrics;
import io.fencelab.engine.resource.TargetKind;
import io.fencelab.testing.EmbeddedDatabase;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

@ExtendWith(EmbeddedDatabase.class)
class HtmlReportTest {

    /** Where the reports of the two stories are kept for a person to open. */
    private static final Path SAVED = Path.of("target", "reports");

    @Test
    void theFencedStoryReportsTheRejectionInPlainLanguage(Database db, @TempDir Path dir) throws Exception {
        ReportInput input = Stories.input(Stories.run(db, FencingMode.FENCED, dir), "The paused holder, fenced");

        String html = HtmlReport.render(input);
        save("report-paused-holder.html", html);

        assertWellFormedEnough(html);
        assertThat(html).contains("<h1>The paused holder, fenced</h1>")
                .contains("A's write with token 41 was rejected as stale at 45.0s; ROW report/report-1 holds B's write from token 42.")
                .contains("A went on believing it held token 41 for 15.0s after the lease service stopped counting it as held (30.0s–45.0s).")
                .contains("token 41")
                .contains("badge safe\">SAFE")
                .contains("as expected")
                .contains("PostgreSQL 17")
                .contains("<li>A prepares its update. At 10 s, just before writing, its process freezes (a long GC pause).</li>");
        assertThat(html).as("a safe run has no witness section").doesNotContain("<h2>Witnesses</h2>");
    }

    @Test
    void theTuningTableShowsTheRunsFigures(Database db, @TempDir Path dir) throws Exception {
        ReportInput input = Stories.input(Stories.run(db, FencingMode.FENCED, dir), "The paused holder, fenced");
        TuningMetrics tuning = TuningMetrics.of(input.events(), input.result().judgement());

        String html = HtmlReport.render(input);

        assertThat(html).contains("<h2>Tuning</h2>");
        for (TuningText.Row row : TuningText.rows(tuning)) {
            assertThat(html).as(row.label()).contains("<tr id=\"tuning-" + row.id() + "\"><th scope=\"row\">"
                    + row.label() + "</th><td class=\"num\">" + Html.esc(row.value()) + "</td>");
        }
        assertThat(html).as("A froze at 10 s holding the lease and nobody acted on it until B's grant at 31 s: one failover")
                .contains("<th scope=\"row\">failover time p99 = max of 1</th><td class=\"num\">21.0s</td>")
                .as("A's job was given up after its stale answer")
                .contains("<th scope=\"row\">wasted jobs</th><td class=\"num\">1</td>");
        assertThat(tuning.staleWritesPerHour()).as("one refusal in the run").isPositive();
    }

    @Test
    void theUnfencedStoryShowsTheWitnessUpFrontAndOnTheTimeline(Database db, @TempDir Path dir) throws Exception {
        ReportInput input = Stories.input(Stories.run(db, FencingMode.UNFENCED, dir), "The paused holder, unfenced");

        String html = HtmlReport.render(input);
        save("report-paused-holder-unfenced.html", html);

        assertWellFormedEnough(html);
        assertThat(html).contains("badge violated\">VIOLATED")
                .contains("A's write with token 41 was accepted at 45.0s on ROW report/report-1 although B's write with token 42 was already there (35.0s)")
                .contains("<h2>Witnesses</h2>")
                .contains("class=\"witness\"");
        for (Witness w : input.result().verdict().witnesses()) {
            assertThat(html).as("witness summary in the verdict").contains(Html.esc(w.summary()));
        }
    }

    @Test
    void everyNameAndNoteIsEscaped(@TempDir Path dir) {
        String evil = "<script>alert(1)</script>";
        List<Event> events = List.of(
                new Event.RunStarted(1, 0, evil, "simulated", "FENCED", "MONOTONIC", 1, "<b>db</b>"),
                new Event.LeaseAcquired(2, 0, evil, "s\"&", 1, 1, 5_000_000),
                new Event.BeliefStarted(3, 0, evil, "s\"&", 1),
                new Event.PauseStarted(4, 1_000_000, evil, 9_000_000, "<img src=x onerror=alert(2)>"),
                new Event.LeaseExpired(5, 5_000_000, evil, "s\"&", 1),
                new Event.WriteAccepted(6, 9_000_000, evil, "s\"&", 1, TargetKind.ROW, "<k>", "0"),
                new Event.RunEnded(7, 10_000_000, Event.RunEnded.Reason.COMPLETED));
        Map<String, String> config = new LinkedHashMap<>();
        config.put("<th>", "</td><script>alert(3)</script>");
        ReportInput input = new ReportInput(evil, evil, evil, List.of(evil), Inputs.of(events, dir.resolve("e"), "x").result(),
                events, config, evil, false, List.of(evil));

        String html = HtmlReport.render(input);

        assertThat(withoutOwnScript(html)).as("no script but the report's own")
                .doesNotContain("<script").doesNotContain("<img").doesNotContain("<b>db").doesNotContain("<k>")
                .contains("&lt;script&gt;alert(1)&lt;/script&gt;");
        assertWellFormedEnough(html);
    }

    @Test
    void aHundredThousandEventRunGivesASmallPageQuickly(@TempDir Path dir) {
        List<Event> events = SyntheticLog.events(100_000, 200, 42);
        ReportInput input = Inputs.of(events, dir.resolve("events.jsonl"), "A storm of 100,000 events");

        long start = System.nanoTime();
        String html = HtmlReport.render(input);
        long millis = (System.nanoTime() - start) / 1_000_000;
        save("report-synthetic-100k.html", html);

        int bytes = html.getBytes(StandardCharsets.UTF_8).length;
        System.out.printf("100,000 events: report.html %,d bytes in %d ms%n", bytes, millis);
        assertThat(bytes).as("report.html bytes").isLessThan(10_000_000);
        assertThat(millis).as("milliseconds to render (generous: CI machines are shared)").isLessThan(10_000);
        assertWellFormedEnough(html);
        assertThat(html).contains("stacked bars").contains("Not drawn: 100 holders");
    }

    @Test
    void theSameInputGivesTheSameBytes(@TempDir Path dir) {
        List<Event> events = SyntheticLog.events(5_000, 12, 3);

        String first = HtmlReport.render(Inputs.of(events, dir.resolve("e"), "same"));
        String second = HtmlReport.render(Inputs.of(List.copyOf(events), dir.resolve("e"), "same"));

        assertThat(second).isEqualTo(first);
    }

    @Test
    void thePageRunsOnlyItsOwnInlineScriptDeclaredByItsHashAndFetchesNothing(Database db, @TempDir Path dir)
            throws Exception {
        String html = HtmlReport.render(Stories.input(Stories.run(db, FencingMode.FENCED, dir), "The paused holder, fenced"));

        assertThat(count(html, "<script")).as("one script element").isEqualTo(1);
        String script = html.substring(html.indexOf("<script>") + "<script>".length(), html.indexOf("</script>"));
        String hash = "sha256-" + java.util.Base64.getEncoder().encodeToString(
                java.security.MessageDigest.getInstance("SHA-256").digest(script.getBytes(StandardCharsets.UTF_8)));
        Matcher policy = Pattern.compile("<meta http-equiv=\"Content-Security-Policy\" content=\"([^\"]*)\">").matcher(html);
        assertThat(policy.find()).as("the page declares a Content-Security-Policy").isTrue();
        assertThat(policy.start()).as("in the head, before anything it governs").isLessThan(html.indexOf("<style>"));
        assertThat(policy.group(1).replace("&#39;", "'")).as("nothing fetched; only this script, by its hash")
                .startsWith("default-src 'none';").contains("script-src '" + hash + "'")
                .doesNotContain("unsafe-eval").doesNotContain("script-src 'unsafe-inline'").doesNotContain("http");
        assertThat(script).as("the script reaches nothing outside the page")
                .doesNotContain("fetch(").doesNotContain("XMLHttpRequest").doesNotContain("import(").doesNotContain("WebSocket")
                .doesNotContain("sendBeacon").doesNotContain("eval(").doesNotContain("src").doesNotContain("location")
                .doesNotContain("innerHTML");
        assertThat(html).as("the script is at the end of the body, after the timeline it moves")
                .containsSubsequence("<section id=\"timeline\"", "<script>", "</body>");
    }

    @Test
    void everyTimePlacedElementOfTheTimelineIsInAPlotAreaTheZoomCanMove(@TempDir Path dir) throws Exception {
        String html = EpisodeTablesTest.render(dir, io.fencelab.engine.metrics.TuningEpisodes.NONE);
        String svg = html.substring(html.indexOf("<svg class=\"timeline\""), html.indexOf("</svg>", html.indexOf("<svg class=\"timeline\"")) + 6);
        var doc = javax.xml.parsers.DocumentBuilderFactory.newInstance().newDocumentBuilder()
                .parse(new java.io.ByteArrayInputStream(svg.getBytes(StandardCharsets.UTF_8)));
        var root = doc.getDocumentElement();
        long run = Long.parseLong(root.getAttribute("data-run"));
        double left = Double.parseDouble(root.getAttribute("data-left"));
        double plot = Double.parseDouble(root.getAttribute("data-plot"));
        assertThat(run).as("the run's length, for the script").isEqualTo(120_000_000L);

        var all = root.getElementsByTagName("*");
        int inPlot = 0;
        for (int i = 0; i < all.getLength(); i++) {
            var el = (org.w3c.dom.Element) all.item(i);
            boolean plotted = false;
            for (var up = el.getParentNode(); up instanceof org.w3c.dom.Element p; up = p.getParentNode()) {
                plotted |= p.getTagName().equals("g") && p.getAttribute("class").equals("plot");
            }
            String tag = el.getTagName();
            if (!plotted) {
                assertThat(tag).as("%s outside a plot area: only lanes, names, ticks", describe(el)).isNotIn("use", "circle", "path");
                assertThat(el.hasAttribute("data-t")).as("%s outside a plot area", describe(el)).isFalse();
                continue;
            }
            inPlot++;
            assertThat(tag).as("an element the zoom script knows how to move").isIn("rect", "text", "use", "circle", "line",
                    "path", "g", "title");
            if (el.hasAttribute("data-t")) {
                String[] t = el.getAttribute("data-t").split(" ");
                double x = left + Double.parseDouble(t[0]) / run * plot;
                assertThat(Double.parseDouble(el.getAttribute("x"))).as("%s starts at its time", describe(el))
                        .isCloseTo(x, org.assertj.core.data.Offset.offset(0.006));
            }
            if (tag.equals("text")) {
                assertThat(el.hasAttribute("dx")).as("%s keeps its offset apart from its time", describe(el)).isTrue();
            }
        }
        assertThat(inPlot).as("elements in plot areas").isGreaterThan(20);
    }

    private static String describe(org.w3c.dom.Element el) {
        return "<" + el.getTagName() + " x=" + el.getAttribute("x") + " class=" + el.getAttribute("class") + ">";
    }

    /** The page without the report's own zoom script: what a page built from hostile names must not contain. */
    private static String withoutOwnScript(String html) {
        return html.replace(TimelineZoom.scriptElement(), "");
    }

    /** Not a parser: balanced svg elements, nothing fetched, nothing run but the report's own script. */
    static void assertWellFormedEnough(String html) {
        assertThat(html).startsWith("<!DOCTYPE html>").endsWith("</html>\n");
        assertThat(count(html, "<svg")).as("<svg> opened and closed").isEqualTo(count(html, "</svg>")).isPositive();
        assertThat(count(html, "<section")).isEqualTo(count(html, "</section>"));
        assertThat(count(html, "<table")).isEqualTo(count(html, "</table>"));
        assertThat(withoutOwnScript(html)).as("no script but the report's own").doesNotContain("<script");
        assertThat(html).doesNotContain("<script src").doesNotContain("http://").doesNotContain("https://")
                .doesNotContain("@import").doesNotContain("url(http").doesNotContain("<link");
        Matcher urls = Pattern.compile("url\\(([^)]*)\\)").matcher(html);
        while (urls.find()) {
            assertThat(urls.group(1)).as("only references inside the page").startsWith("#");
        }
    }

    private static int count(String s, String needle) {
        int n = 0;
        for (int i = s.indexOf(needle); i >= 0; i = s.indexOf(needle, i + needle.length())) {
            n++;
        }
        return n;
    }

    static void save(String name, String html) {
        try {
            Files.createDirectories(SAVED);
            Files.writeString(SAVED.resolve(name), html, StandardCharsets.UTF_8);
        } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }
}
