package io.fencelab.app.console;

import static io.fencelab.app.console.ConsoleFx.fx;
import static io.fencelab.app.console.ConsoleFx.fxRun;
import static io.fencelab.app.console.ConsoleFx.waitUntil;
import static org.assertj.core.api.Assertions.assertThat;

import io.fencelab.app.console.model.Parameters;
import io.fencelab.engine.check.WriteClass;
import io.fencelab.engine.event.EventLogReader;
import io.fencelab.engine.fence.FencingMode;
import io.fencelab.engine.run.Run;
import io.fencelab.engine.run.RunResult;
import io.fencelab.engine.run.RunSpec;
import io.fencelab.report.HolderLane;
import io.fencelab.report.Mark;
import io.fencelab.report.ReportBundle;
import io.fencelab.report.ReportInput;
import io.fencelab.report.Timeline;
import io.fencelab.scenarios.Catalog;
import io.fencelab.scenarios.Scenario;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ConsoleRunTest extends ConsoleTestBase {

    @Test
    void pausedHolderRunToTheEndShowsAsStaleWriteRejectedAndASafeVerdict() {
        waitForDatabase();
        fxRun(() -> {
            console.scenarios().select("paused-holder");
            console.runs().setFastest(true);
            console.runs().play();
        });
        waitUntil("the run has ended", 60, () -> console.sessions().allOver());
        waitUntil("the timeline shows the whole run", 30, () -> {
            Timeline t = main().timeline();
            return t != null && t.holder("A").map(l -> !l.writes().isEmpty()).orElse(false);
        });

        Timeline timeline = fx(() -> main().timeline());
        HolderLane a = timeline.holder("A").orElseThrow();
        assertThat(a.writes()).as("A's writes on the timeline")
                .anySatisfy(w -> {
                    assertThat(w.token()).isEqualTo(41);
                    assertThat(w.kind()).isEqualTo(WriteClass.REJECTED_STALE);
                });
        assertThat(a.gaps()).as("A believed it held 41 after its lease expired").isNotEmpty();
        String verdict = labelText("#verdict-label");
        assertThat(verdict).isEqualTo("SAFE");
        ConsoleFx.frames();
        screenshot("paused-holder-fenced");
    }

    @Test
    void theJsonPrecisionLessonDrawsItsWitnessWriteAsAStaleWriteAcceptedOverNewerWork() {
        waitForDatabase();
        fxRun(() -> {
            console.scenarios().select("json-precision");
            console.runs().setFastest(true);
            console.runs().play();
        });
        waitUntil("the run has ended", 60, () -> console.sessions().allOver());
        waitUntil("the timeline is drawn with the final judgement", 30, () -> {
            Timeline t = main().timeline();
            return t != null && t.holders().stream().anyMatch(l -> l.writes().stream()
                    .anyMatch(w -> w.kind() == WriteClass.STALE_OVERWRITE));
        });

        var judgement = fx(() -> main().judgement());
        long staleSeq = judgement.writes().all().stream().filter(w -> w.isStaleOverwrite()).findFirst().orElseThrow().seq();
        Timeline timeline = fx(() -> main().timeline());
        assertThat(timeline.holders().stream().flatMap(l -> l.writes().stream()).filter(w -> w.seq() == staleSeq))
                .as("the canvas draws the checker's stale write as one accepted over newer work, not an ordinary write")
                .isNotEmpty().allSatisfy(w -> assertThat(w.kind()).isEqualTo(WriteClass.STALE_OVERWRITE));
        assertThat(labelText("#verdict-label")).isEqualTo("VIOLATED");
        ConsoleFx.frames();
        screenshot("json-precision");
    }

    @Test
    void theConsoleExportsTheCommandLinesEventsAndJudgementByteForByte(@TempDir Path dir) throws Exception {
        waitForDatabase();
        fxRun(() -> {
            console.scenarios().select("paused-holder-unfenced");
            console.runs().setFastest(true);
            console.runs().play();
        });
        waitUntil("the run has ended", 60, () -> console.sessions().allOver());
        Path exported = dir.resolve("console");
        java.util.concurrent.CompletableFuture<String> written = new java.util.concurrent.CompletableFuture<>();
        fxRun(() -> console.export().exportReport(exported, written::complete));
        assertThat(written.get(30, java.util.concurrent.TimeUnit.SECONDS)).startsWith("Report written");

        Scenario scenario = Catalog.shipped().load("paused-holder-unfenced");
        Path cli = dir.resolve("cli");
        RunResult result;
        try (Run run = Run.prepare(db, scenario.spec(), java.nio.file.Files.createDirectories(cli).resolve("events.jsonl"))) {
            result = run.runToEnd();
        }
        ReportBundle.write(cli, ReportInput.of(scenario, scenario.spec(), result, EventLogReader.read(result.eventLog()),
                java.util.Map.of()));

        assertThat(java.nio.file.Files.mismatch(exported.resolve("events.jsonl"), cli.resolve("events.jsonl")))
                .as("the same history, byte for byte").isEqualTo(-1L);
        assertThat(java.nio.file.Files.mismatch(exported.resolve("judgement.json"), cli.resolve("judgement.json")))
                .as("the same judgement, byte for byte").isEqualTo(-1L);
        assertThat(java.nio.file.Files.readString(cli.resolve("judgement.json"))).contains("\"STALE_OVERWRITE\"");
    }

    @Test
    void pausedHolderWithoutFencingIsViolatedAndTheWitnessIsHighlighted() {
        waitForDatabase();
        fxRun(() -> {
            console.scenarios().select("paused-holder");
            Parameters p = console.model().parametersProperty().get();
            console.runs().applyParameters(new Parameters(p.leaseTtlSeconds(), p.renewEverySeconds(),
                    p.workers(), p.pauses(), p.pauseSeconds(), p.networkDelayMillis(), FencingMode.UNFENCED,
                    p.tokenScheme(), p.executor()));
            console.runs().setFastest(true);
            console.runs().play();
        });
        waitUntil("the run has ended", 60, () -> console.sessions().allOver());
        waitUntil("the timeline highlights a witness", 30, () -> {
            Timeline t = main().timeline();
            return t != null && !t.highlights().isEmpty();
        });

        Timeline timeline = fx(() -> main().timeline());
        Mark.Write stale = timeline.holder("A").orElseThrow().writes().stream()
                .filter(w -> w.token() == 41).findFirst().orElseThrow();
        assertThat(stale.kind()).as("A's write with 41 landed over B's 42").isEqualTo(WriteClass.STALE_OVERWRITE);
        assertThat(timeline.highlights().contains(stale.seq())).as("the stale write is part of a witness").isTrue();
        assertThat(labelText("#verdict-label")).isEqualTo("VIOLATED");

        fxRun(() -> console.navigation().focusWitness(main(), 1));
        ConsoleFx.frames();
        assertThat(fx(() -> main().pinnedSeqProperty().get()))
                .as("focusing the witness pins its last event").isEqualTo(stale.seq());
        screenshot("paused-holder-unfenced-witness");
    }
}
