package io.fencelab.report;

import io.fencelab.engine.check.JudgementJson;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;

/**
 * A run's report directory: report.html, metrics.csv, summary.json, the event log as events.jsonl
 * and the checker's judgement of it as judgement.json, so the directory stands alone (the page
 * refers to the log beside it).
 */
public final class ReportBundle {

    public static final String HTML = "report.html";
    public static final String CSV = "metrics.csv";
    public static final String SUMMARY = "summary.json";
    public static final String EVENTS = "events.jsonl";
    public static final String JUDGEMENT = "judgement.json";

    /** Where each file of a written bundle is. */
    public record Written(Path html, Path metricsCsv, Path summaryJson, Path events, Path judgement) {}

    private ReportBundle() {
    }

    /**
     * Writes the bundle into {@code dir} (created if needed; files of an earlier bundle are replaced).
     * The event log is copied from the run's log unless it already is {@code dir/events.jsonl}.
     *
     * @throws IOException if a file cannot be written or the run's event log cannot be read
     */
    public static Written write(Path dir, ReportInput input) throws IOException {
        Files.createDirectories(dir);
        Path html = dir.resolve(HTML);
        Path csv = dir.resolve(CSV);
        Path summary = dir.resolve(SUMMARY);
        Path events = dir.resolve(EVENTS);
        Path judgement = dir.resolve(JUDGEMENT);
        HtmlReport.write(html, input);
        JudgementJson.write(judgement, input.result().judgement());
        MetricsCsv.write(csv, input);
        SummaryJson.write(summary, input);
        Path log = input.result().eventLog();
        if (!(Files.exists(events) && Files.isSameFile(log, events))) {
            Files.copy(log, events, StandardCopyOption.REPLACE_EXISTING);
        }
        return new Written(html, csv, summary, events, judgement);
    }
}
