package io.fencelab.engine.probe;

import static org.assertj.core.api.Assertions.assertThat;

import io.fencelab.engine.db.Database;
import io.fencelab.engine.fence.EqualToken;
import io.fencelab.engine.fence.FirstWritePolicy;
import io.fencelab.engine.fence.SqlFence;
import io.fencelab.engine.fence.SqlText;
import io.fencelab.engine.probe.ItemVerdict.Status;
import io.fencelab.engine.probe.ItemVerdict.WitnessStep;
import io.fencelab.testing.EmbeddedDatabase;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
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

    private ProbeReport probe(Database db, SqlFence fence) {
        ProbeOptions options = new ProbeOptions(out, 7, 2, Duration.ofSeconds(2), false);
        return new Probe(db, ProbeFences.spec(fence), options).run(v -> { });
    }

    @Test
    void theDesignNotesFenceKeepsEveryRaceSafe(Database db) {
        ProbeReport report = probe(db, ProbeFences.correct("report"));

        ItemVerdict races = ProbeTest.verdict(report, "report", ChecklistItem.RACES);
        assertThat(races.status()).as(races.summary() + " " + races.witness()).isEqualTo(Status.HOLDS);
        assertThat(races.summary()).as("two simulated runs and at least one live one")
                .startsWith("3 runs with pauses past the holders' leases (2 simulated of 5 holders, 1 live of 20)")
                .contains("no stale overwrite");
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

    @Test
    void checkThenWriteLosesTheRaceInItsGapWithoutAnyRunThoughEveryOtherItemHolds(Database db) {
        SqlFence base = ProbeFences.correct("report");
        SqlFence checkThenWrite = new SqlFence("report", base.schema(), List.of(), base.setup(), List.of(
                new SqlText("SELECT 1 FROM report_state WHERE scope = :scope AND report_id = :key "
                        + "AND fencing_token <= :token", ProbeFences.FILE, 11, 9),
                new SqlText("UPDATE report_state SET body = :body, fencing_token = :token "
                        + "WHERE scope = :scope AND report_id = :key", ProbeFences.FILE, 13, 9)),
                base.outcome(), base.read(), EqualToken.ACCEPT, FirstWritePolicy.MISSING);
        ProbeOptions noRuns = new ProbeOptions(out, 1, 0, Duration.ZERO, false);

        ProbeReport report = new Probe(db, ProbeFences.spec(checkThenWrite), noRuns).run(v -> { });

        ItemVerdict races = ProbeTest.verdict(report, "report", ChecklistItem.RACES);
        assertThat(races.status()).as("a holder paused between the check and the write: " + races.summary())
                .isEqualTo(Status.FAILS);
        assertThat(races.summary()).contains("between holder A's check and its write").contains("was accepted over it");
        assertThat(races.witness()).extracting(WitnessStep::action)
                .anySatisfy(a -> assertThat(a).contains("as holder B"))
                .anySatisfy(a -> assertThat(a).contains("holder A's write with token"));
        assertThat(report.verdicts()).filteredOn(v -> v.item() != ChecklistItem.RACES)
                .as("one statement after the other, the check and the write look right: " + ProbeTest.failures(report))
                .noneMatch(v -> v.status() == Status.FAILS);
    }
}
