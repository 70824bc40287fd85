package io.fencelab.engine.probe;

import static org.assertj.core.api.Assertions.assertThat;

import io.fencelab.engine.db.Database;
import io.fencelab.engine.probe.ItemVerdict.Status;
import io.fencelab.engine.probe.ItemVerdict.WitnessStep;
import io.fencelab.testing.EmbeddedDatabase;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/**
 * The probe's directed items against real statements on the embedded PostgreSQL: the design note's
 * fence holds every item that applies, and each broken fence fails the items its flaw breaks, with a
 * witness that shows the hole. Races have a test of their own ({@code ProbeRacesTest}).
 */
@ExtendWith(EmbeddedDatabase.class)
class ProbeTest {

    @TempDir
    Path out;

    private ProbeOptions noRaces() {
        return new ProbeOptions(out, 1, 0, Duration.ZERO, false);
    }

    @Test
    void theDesignNotesFenceHoldsEveryItemThatApplies(Database db) {
        List<ItemVerdict> heard = new ArrayList<>();
        ProbeReport report = new Probe(db, ProbeFences.spec(ProbeFences.correct("report")), noRaces()).run(heard::add);

        assertThat(heard).as("every verdict is heard as it is found, in checklist order")
                .extracting(ItemVerdict::item).containsExactly(ChecklistItem.values());
        assertThat(report.verdicts()).isEqualTo(heard);
        assertThat(report.allHold()).as(failures(report)).isTrue();
        Map<ChecklistItem, Status> status = statusByItem(report, "report");
        assertThat(status).as(failures(report)).containsEntry(ChecklistItem.STALE_HOLDER_REJECTED, Status.HOLDS)
                .containsEntry(ChecklistItem.NUMERIC_COMPARISON, Status.HOLDS)
                .containsEntry(ChecklistItem.LARGE_TOKENS, Status.HOLDS)
                .containsEntry(ChecklistItem.EQUAL_TOKEN, Status.HOLDS)
                .containsEntry(ChecklistItem.FIRST_WRITE_AND_MISSING, Status.HOLDS)
                .containsEntry(ChecklistItem.ROLLBACK, Status.HOLDS)
                .containsEntry(ChecklistItem.SCOPES_APART, Status.HOLDS)
                .containsEntry(ChecklistItem.STALE_TOKEN_FINAL, Status.HOLDS);
        assertThat(status.get(ChecklistItem.EVERY_TARGET_FENCED)).as("one fence: no multi-target job")
                .isEqualTo(Status.NOT_APPLICABLE);
        assertThat(report.fences()).containsExactly("report");
        assertThat(report.source()).isEqualTo(ProbeFences.FILE);
        assertThat(report.database()).startsWith("embedded PostgreSQL ");
    }

    @Test
    void aTextTokenColumnFailsNumericComparison(Database db) {
        ProbeReport report = new Probe(db, ProbeFences.spec(ProbeFences.textToken("report")), noRaces()).run(v -> { });

        ItemVerdict numeric = verdict(report, "report", ChecklistItem.NUMERIC_COMPARISON);
        assertThat(numeric.status()).as(numeric.summary()).isEqualTo(Status.FAILS);
        assertThat(numeric.summary()).contains("token 10 after 9");
        WitnessStep last = numeric.witness().getLast();
        assertThat(last.action()).as("the witness ends with the write of 10 that a text comparison refuses")
                .contains("write token 10");
        assertThat(last.statement()).isEqualTo(ProbeFences.FILE + ":11");
        assertThat(last.heldToken()).as("the row still holds 9, as text").isEqualTo("9");
        assertThat(last.heldBody()).startsWith("A token 9 ");
        assertThat(statusByItem(report, "report")).as("a text column's other items: " + failures(report))
                .containsEntry(ChecklistItem.STALE_HOLDER_REJECTED, Status.HOLDS)
                .containsEntry(ChecklistItem.STALE_TOKEN_FINAL, Status.HOLDS);
    }

    @Test
    void aFenceWithoutATokenPredicateLetsTheStaleHolderOverwrite(Database db) {
        ProbeReport report = new Probe(db, ProbeFences.spec(ProbeFences.noTokenPredicate("report")), noRaces())
                .run(v -> { });

        ItemVerdict stale = verdict(report, "report", ChecklistItem.STALE_HOLDER_REJECTED);
        assertThat(stale.status()).as(stale.summary()).isEqualTo(Status.FAILS);
        assertThat(stale.witness()).extracting(WitnessStep::action).as("the nine steps, as they happened")
                .anyMatch(a -> a.startsWith("A acquires token 41"))
                .anyMatch(a -> a.startsWith("B acquires token 42"))
                .anyMatch(a -> a.startsWith("write token 42") && a.endsWith("as holder B"));
        WitnessStep late = stale.witness().getLast();
        assertThat(late.action()).startsWith("write token 41").endsWith("as holder A");
        assertThat(late.said()).isEqualTo("accepted");
        assertThat(late.heldToken()).as("the newer token is gone").isEqualTo("41");
        assertThat(late.heldBody()).startsWith("A token 41 ");

        ItemVerdict again = verdict(report, "report", ChecklistItem.STALE_TOKEN_FINAL);
        assertThat(again.status()).as(again.summary()).isEqualTo(Status.FAILS);
        assertThat(again.witness().getLast().said()).isEqualTo("accepted");
        assertThat(report.allHold()).isFalse();
    }

    @Test
    void aJobWithOneUnfencedTargetFailsEveryTargetFencedAtThatTarget(Database db) {
        ProbeReport report = new Probe(db, ProbeFences.spec(ProbeFences.correct("report"),
                ProbeFences.noTokenPredicate("latest")), noRaces()).run(v -> { });

        ItemVerdict open = verdict(report, "latest", ChecklistItem.EVERY_TARGET_FENCED);
        assertThat(open.status()).as(open.summary()).isEqualTo(Status.FAILS);
        assertThat(open.summary()).contains("the stale holder's write to latest (target 2 of 2 of the job) under 41 "
                + "was accepted after B wrote 42");
        assertThat(open.witness()).extracting(WitnessStep::action)
                .anyMatch(a -> a.startsWith("write token 41 to report key 17"))
                .anyMatch(a -> a.startsWith("write token 41 to latest key 17"));
        ItemVerdict fenced = verdict(report, "report", ChecklistItem.EVERY_TARGET_FENCED);
        assertThat(fenced.status()).as("the first target refuses the stale write: " + fenced.summary())
                .isEqualTo(Status.HOLDS);
    }

    static ItemVerdict verdict(ProbeReport report, String fence, ChecklistItem item) {
        return report.of(fence).stream().filter(v -> v.item() == item).findFirst().orElseThrow();
    }

    static Map<ChecklistItem, Status> statusByItem(ProbeReport report, String fence) {
        return report.of(fence).stream().collect(Collectors.toMap(ItemVerdict::item, ItemVerdict::status));
    }

    /** The failures in words, for assertion messages. */
    static String failures(ProbeReport report) {
        return report.verdicts().stream().filter(v -> v.status() == Status.FAILS)
                .map(v -> v.fence() + " " + v.item() + ": " + v.summary() + " " + v.witness())
                .collect(Collectors.joining("\n"));
    }
}
