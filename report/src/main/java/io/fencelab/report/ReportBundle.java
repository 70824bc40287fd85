package io.fencelab.report;

import io.fencelab.engine.check.JudgementJson;
import io.fencelab.engine.files.FileProblem;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.List;

/**
 * A run's report directory: report.html, metrics.csv, summary.json, the event log as events.jsonl
 * and the checker's judgement of it as judgement.json, so the directory stands alone (the page
 * refers to the log beside it). Written whole or not at all, through a {@link StagedDirectory}.
 */
public final class ReportBundle {

    public static final String HTML = "report.html";
    public static final String CSV = "metrics.csv";
    public static final String SUMMARY = "summary.json";
    public static final String EVENTS = "events.jsonl";
    public static final String JUDGEMENT = "judgement.json";

    /** Every file of a bundle, in the order they move in: the page that makes it look complete last. */
    public static final List<String> FILES = List.of(EVENTS, JUDGEMENT, CSV, SUMMARY, HTML);

    /** Where each file of a written bundle is. */
    public record Written(Path html, Path metricsCsv, Path summaryJson, Path events, Path judgement) {}

    private ReportBundle() {
    }

    /** Stages a bundle for {@code dir}: a run may record its log into {@link StagedDirectory#staged staged(EVENTS)}. */
    public static StagedDirectory stage(Path dir) throws IOException {
        return StagedDirectory.open(dir, FILES);
    }

    /**
     * Writes the bundle into {@code dir} (created if needed), replacing every file of an earlier
     * bundle there; on a failure {@code dir} is left as it was.
     *
     * @throws IOException if a file cannot be written or the run's event log cannot be read
     */
    public static Written write(Path dir, ReportInput input) throws IOException {
        try (StagedDirectory staged = stage(dir)) {
            return write(staged, input);
        }
    }

    /**
     * Writes the bundle into {@code staged} and commits it. The event log is copied from the run's log
     * unless the run recorded it there already. On a failure only that log is left in the staging
     * directory (the destination is untouched), and the failure is thrown, worded in one line
     * ({@link FileProblem}).
     */
    public static Written write(StagedDirectory staged, ReportInput input) throws IOException {
        try {
            Path events = staged.staged(EVENTS);
            HtmlReport.write(staged.staged(HTML), input);
            JudgementJson.write(staged.staged(JUDGEMENT), input.result().judgement());
            MetricsCsv.write(staged.staged(CSV), input);
            SummaryJson.write(staged.staged(SUMMARY), input);
            Path log = input.result().eventLog();
            if (!(Files.exists(events) && Files.isSameFile(log, events))) {
                Files.copy(log, events, StandardCopyOption.REPLACE_EXISTING);
            }
            staged.commit();
        } catch (IOException e) {
            // Worded before the partial files go: a disk's free space is told as it was when full.
            IOException worded = new IOException(FileProblem.of(staged.staging(), e), e);
            staged.discardAllBut(EVENTS);
            throw worded;
        } catch (RuntimeException e) {
            staged.discardAllBut(EVENTS);
            throw e;
        }
        Path dir = staged.dir();
        return new Written(dir.resolve(HTML), dir.resolve(CSV), dir.resolve(SUMMARY), dir.resolve(EVENTS),
                dir.resolve(JUDGEMENT));
    }
}
