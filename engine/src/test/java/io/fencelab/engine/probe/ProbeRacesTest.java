package io.fencelab.engine.probe;

import static org.assertj.core.api.Assertions.assertThat;

import io.fencelab.engine.db.Database;
import io.fencelab.engine.probe.ItemVerdict.Status;
import io.fencelab.engine.probe.ItemVerdict.WitnessStep;
import io.fencelab.testing.EmbeddedDatabase;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/**
 * The races item: holders with pauses past their leases, simulated on PostgreSQL and live, judged as
 * every run is. The design note's fence keeps them safe; a fence without a token predicate does not,
 * and the failing run's events are kept where the witness says.
 */
@ExtendWith(EmbeddedDatabase.class)
class ProbeRacesTest {

    @TempDir
    Path out;

    private ProbeReport probe(Database db, io.fencelab.engine.fence.SqlFence fence) {
        ProbeOptions options = new ProbeOptions(out, 7, 2, Duration.ofSeconds(2), false);
        return new Probe(db, ProbeFences.spec(fence), options).run(v -> { });
    }

    @Test
    void theDesignNotesFenceKeepsEveryRaceSafe(Database db) {
        ProbeReport report = probe(db, ProbeFences.correct("report"));

        ItemVerdict races = ProbeTest.verdict(report, "report", ChecklistItem.RACES);
        assertThat(races.status()).as(races.summary() + " " + races.witness()).isEqualTo(Status.HOLDS);
        assertThat(races.summary()).startsWith("3 runs with pauses");
        assertThat(report.allHold()).as(ProbeTest.failures(report)).isTrue();
    }

    @Test
    void aFenceWithoutATokenPredicateLosesARaceAndKeepsItsEvents(Database db) throws Exception {
        ProbeReport report = probe(db, ProbeFences.noTokenPredicate("report"));

        ItemVerdict races = ProbeTest.verdict(report, "report", ChecklistItem.RACES);
        assertThat(races.status()).as(races.summary()).isEqualTo(Status.FAILS);
        assertThat(races.summary()).contains("VIOLATED");
        WitnessStep step = races.witness().getFirst();
        assertThat(step.said()).as("the judgement's first witness").isNotBlank();
        assertThat(step.eventsFile()).startsWith("races/report/");
        assertThat(out.resolve(step.eventsFile())).as("the failing run's events, kept").isNotEmptyFile();
        assertThat(Files.readString(out.resolve(step.eventsFile()))).contains("\"SQL\"");
    }
}
