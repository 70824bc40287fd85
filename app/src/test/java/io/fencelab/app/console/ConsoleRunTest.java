package io.fencelab.app.console;

import static io.fencelab.app.console.ConsoleFx.fx;
import static io.fencelab.app.console.ConsoleFx.fxRun;
import static io.fencelab.app.console.ConsoleFx.waitUntil;
import static org.assertj.core.api.Assertions.assertThat;

import io.fencelab.app.console.model.Parameters;
import io.fencelab.engine.fence.FencingMode;
import io.fencelab.report.HolderLane;
import io.fencelab.report.Mark;
import io.fencelab.report.Timeline;
import io.fencelab.report.WriteKind;
import io.fencelab.engine.event.EventLogReader;
import io.fencelab.engine.run.Run;
import io.fencelab.engine.run.RunSpec;
import io.fencelab.scenarios.Catalog;
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
                    assertThat(w.kind()).isEqualTo(WriteKind.REJECTED_STALE);
                });
        assertThat(a.gaps()).as("A believed it held 41 after its lease expired").isNotEmpty();
        String verdict = labelText("#verdict-label");
        assertThat(verdict).isEqualTo("SAFE");
        ConsoleFx.frames();
        screenshot("paused-holder-fenced");
    }

    @Test
    void theConsoleShowsTheSameEventsAsTheCommandLineForTheSameScenarioAndSeed(@TempDir Path dir) throws Exception {
        waitForDatabase();
        fxRun(() -> {
            console.scenarios().select("paused-holder-unfenced");
            console.runs().setFastest(true);
            console.runs().play();
        });
        waitUntil("the run has ended", 60, () -> console.sessions().allOver());
        List<String> shown = fx(() -> main().events().toList().stream().map(Object::toString).toList());

        RunSpec spec = Catalog.shipped().load("paused-holder-unfenced").spec();
        List<String> logged;
        try (Run run = Run.prepare(db, spec, dir.resolve("cli.jsonl"))) {
            logged = EventLogReader.read(run.runToEnd().eventLog()).stream().map(Object::toString).toList();
        }
        assertThat(shown).as("every event, the checker's Violation included, at the same seq").isEqualTo(logged)
                .anySatisfy(e -> assertThat(e).startsWith("Violation["));
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
        assertThat(stale.kind()).as("A's write with 41 landed over B's 42").isEqualTo(WriteKind.OVERWROTE_NEWER);
        assertThat(timeline.highlights().contains(stale.seq())).as("the stale write is part of a witness").isTrue();
        assertThat(labelText("#verdict-label")).isEqualTo("VIOLATED");

        fxRun(() -> console.navigation().focusWitness(main(), 1));
        ConsoleFx.frames();
        assertThat(fx(() -> main().pinnedSeqProperty().get()))
                .as("focusing the witness pins its last event").isEqualTo(stale.seq());
        screenshot("paused-holder-unfenced-witness");
    }
}
