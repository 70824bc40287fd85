package io.fencelab.report;

import static org.assertj.core.api.Assertions.assertThat;

import io.fencelab.engine.db.Database;
import io.fencelab.engine.event.EventLogReader;
import io.fencelab.engine.run.Run;
import io.fencelab.engine.run.RunResult;
import io.fencelab.scenarios.Catalog;
import io.fencelab.scenarios.Scenario;
import io.fencelab.testing.Browser;
import io.fencelab.testing.EmbeddedDatabase;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.jsoup.Jsoup;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.openqa.selenium.chrome.ChromeDriver;

/**
 * Every catalog scenario's report.html printed by a real headless Chromium, as a design review would
 * print it, and read back with PDFBox: its timeline printed whole, legend and both time axes on one
 * page, up to the axis's last tick (a report once printed fence-first-write-only's 60 s timeline
 * cut at 33 s behind a scroll bar). A4 and Letter take turns, so both papers are printed and the
 * test stays short; the PDFs stay in target/printed/reports.
 */
@ExtendWith(EmbeddedDatabase.class)
class PrintedReportTest {

    private static final Path KEPT = Path.of("target", "printed", "reports");

    @Test
    void everyCatalogReportPrintsItsWholeTimelineOnOnePage(Database db) throws Exception {
        Browser.assumeAvailable();
        ChromeDriver browser = Browser.open();
        try {
            int i = 0;
            for (String name : Catalog.shipped().names()) {
                Browser.Paper paper = i++ % 2 == 0 ? Browser.Paper.A4 : Browser.Paper.LETTER;
                Path dir = KEPT.resolve(name);
                Path html = report(db, name, dir);
                Printed printed = Printed.read(Browser.print(browser, html.toUri().toString(), paper, dir.resolve("report-" + paper + ".pdf")));
                var doc = Jsoup.parse(Files.readString(html));
                var ticks = doc.select("section#timeline svg.timeline text.tick");
                assertThat(ticks).as("%s: its timeline's ticks", name).isNotEmpty();
                assertThat(printed.splitFigures(doc)).as("%s on %s: its timeline cut or split across pages", name, paper).isEmpty();
                int page = printed.pageOf(Printed.LEGEND_START, 0);
                assertThat(printed.page(page).count(ticks.last().text())).as("%s on %s: the axis's last tick %s, top and bottom, "
                        + "on the timeline's page", name, paper, ticks.last().text()).isGreaterThanOrEqualTo(2);
            }
        } finally {
            browser.quit();
        }
    }

    /** Runs {@code name} as written and writes its report bundle into {@code dir}, as {@code fencelab run --report} does. */
    private static Path report(Database db, String name, Path dir) throws Exception {
        Scenario scenario = Catalog.shipped().load(name);
        Files.createDirectories(dir);
        RunResult result;
        try (Run run = Run.prepare(db, scenario.spec(), dir.resolve("run.jsonl"))) {
            result = run.runToEnd();
        }
        ReportInput input = ReportInput.of(scenario, scenario.spec(), result, EventLogReader.read(result.eventLog()), Map.of());
        return ReportBundle.write(dir.resolve("report"), input).html();
    }
}
