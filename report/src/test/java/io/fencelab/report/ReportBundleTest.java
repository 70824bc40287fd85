package io.fencelab.report;

import static org.assertj.core.api.Assertions.assertThat;

import io.fencelab.engine.db.Database;
import io.fencelab.engine.fence.FencingMode;
import io.fencelab.testing.EmbeddedDatabase;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

@ExtendWith(EmbeddedDatabase.class)
class ReportBundleTest {

    @Test
    void writesTheFourFilesAndTheSameBytesTwice(Database db, @TempDir Path dir) throws Exception {
        ReportInput input = Stories.input(Stories.run(db, FencingMode.UNFENCED, dir), "The paused holder, unfenced");

        // Kept under target/reports so a person can open the whole bundle.
        ReportBundle.Written first = ReportBundle.write(Path.of("target", "reports", "paused-holder-unfenced"), input);
        ReportBundle.Written second = ReportBundle.write(dir.resolve("two"), input);

        assertThat(first.html()).hasFileName("report.html");
        assertThat(Files.mismatch(first.events(), input.result().eventLog())).as("events.jsonl is the run's log").isEqualTo(-1L);
        assertThat(Files.mismatch(first.html(), second.html())).isEqualTo(-1L);
        assertThat(Files.mismatch(first.metricsCsv(), second.metricsCsv())).isEqualTo(-1L);
        assertThat(Files.mismatch(first.summaryJson(), second.summaryJson())).isEqualTo(-1L);
        assertThat(Files.readAllLines(first.metricsCsv())).hasSize(1 + input.result().metrics().perSecond().size());
    }

    @Test
    void aLogAlreadyInTheDirectoryIsLeftInPlace(Database db, @TempDir Path dir) throws Exception {
        Path bundle = dir.resolve("bundle");
        Files.createDirectories(bundle);
        Stories.Ran ran = Stories.run(db, FencingMode.FENCED, dir);
        Files.copy(ran.result().eventLog(), bundle.resolve("events.jsonl"));
        var result = new io.fencelab.engine.run.RunResult(ran.result().spec(), ran.result().runId(), ran.result().end(),
                ran.result().judgement(), ran.result().metrics(), ran.result().tuning(), bundle.resolve("events.jsonl"),
                ran.result().events(), ran.result().database());
        ReportInput base = Stories.input(ran, "t");
        ReportInput input = new ReportInput(base.scenario(), base.title(), base.summary(), base.story(), result, base.events(),
                base.configuration(), base.expected(), base.expectationMet(), base.mismatches());

        ReportBundle.Written written = ReportBundle.write(bundle, input);

        assertThat(Files.mismatch(written.events(), ran.result().eventLog())).isEqualTo(-1L);
        try (var files = Files.list(bundle)) {
            assertThat(files.map(p -> p.getFileName().toString()).sorted())
                    .containsExactly("events.jsonl", "judgement.json", "metrics.csv", "report.html", "summary.json");
        }
    }
}
