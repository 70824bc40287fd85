package io.fencelab.app.process;

import static org.assertj.core.api.Assertions.assertThat;

import io.fencelab.engine.check.Judgement;
import io.fencelab.engine.db.Database;
import io.fencelab.engine.event.Event;
import io.fencelab.engine.event.EventLogReader;
import io.fencelab.engine.run.ExecutorKind;
import io.fencelab.engine.run.Run;
import io.fencelab.engine.run.RunResult;
import io.fencelab.engine.run.RunSpec;
import io.fencelab.scenarios.Catalog;
import io.fencelab.testing.EmbeddedDatabase;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.junit.jupiter.api.io.TempDir;

/**
 * Process runs against their simulated twins: every worker its own JVM, pauses as SIGSTOP, the same
 * verdicts and the same write classes.
 */
class ProcessRunTest {

    /** Each write's outcome as the checker classed it: holder, token, outcome, class; in log order per holder. */
    static List<String> outcomes(RunResult result) throws Exception {
        List<Event> events = EventLogReader.read(result.eventLog());
        Judgement j = result.judgement();
        List<String> out = new ArrayList<>();
        for (Event e : events) {
            switch (e) {
                case Event.WriteAccepted w -> out.add(w.holder() + " " + w.token() + " accepted "
                        + j.writes().classOf(w.seq()));
                case Event.WriteRejectedStale w -> out.add(w.holder() + " " + w.token() + " rejected stale");
                case Event.WriteMissing w -> out.add(w.holder() + " " + w.token() + " missing");
                case Event.WriteOutOfOrder w -> out.add(w.holder() + " " + w.token() + " out of order");
                default -> { }
            }
        }
        out.sort(null);
        return out;
    }

    static RunResult run(Database db, RunSpec spec, Path log) throws Exception {
        try (Run run = Run.prepare(db, spec, log)) {
            return run.runToEnd();
        }
    }

    @Test
    void thePausedHolderStoryAsProcessesFreezesARealJvmAndEndsAsTheSimulatedRunDoes(@TempDir Path dir)
            throws Exception {
        Database db = EmbeddedDatabase.startThrowaway(16);
        try (db) {
            RunSpec story = Catalog.shipped().load("paused-holder").spec();
            RunResult simulated = run(db, story, dir.resolve("simulated.jsonl"));
            RunSpec asProcesses = story.toBuilder().executor(ExecutorKind.PROCESS).timeScale(0.2).build();
            RunResult processes = run(db, asProcesses, dir.resolve("process.jsonl"));

            assertThat(processes.endReason()).isEqualTo("completed");
            assertThat(processes.verdict().kind()).isEqualTo(simulated.verdict().kind());
            assertThat(outcomes(processes)).isEqualTo(outcomes(simulated));
            List<Event> events = EventLogReader.read(processes.eventLog());
            assertThat(events).filteredOn(e -> e instanceof Event.AgentReport r
                    && r.kind() == Event.AgentReport.Kind.STARTED).hasSize(story.workers().size());
            assertThat(events).filteredOn(e -> e instanceof Event.PauseStarted).singleElement()
                    .satisfies(e -> assertThat(((Event.PauseStarted) e).cause()).contains("SIGSTOP to process")
                            .contains("stopped (state T)"));
        }
    }
}
