package io.fencelab.engine.check;

import static org.assertj.core.api.Assertions.assertThat;

import io.fencelab.engine.resource.TargetKind;
import io.fencelab.testing.LogBuilder;
import org.junit.jupiter.api.Test;

/**
 * The checker on logs that contradict themselves: a token no grant issued, and a {@code replacedToken}
 * that the log's own order refutes (the edits an adversarial pass made to paused-holder logs).
 */
class LogConsistencyTest {

    private static final String DIGEST = ValueDigest.of("body");
    private static final TargetKind ROW = TargetKind.ROW;

    /** A holds 41, then B holds 42 and writes report-1 (replacing 40, a row seeded before the run). */
    private static LogBuilder bWroteAfterA() {
        LogBuilder log = new LogBuilder();
        log.runStarted();                                                          // 1
        log.acquired(0, "A", "report", 41, 30);                                    // 2
        log.expired(30, "A", "report", 41);                                        // 3
        log.acquired(31, "B", "report", 42, 61);                                   // 4
        log.attempted(35, "B", "report", 42, ROW, "report-1");                     // 5
        log.accepted(35, "B", "report", 42, ROW, "report-1", DIGEST, 40L);         // 6
        return log;
    }

    @Test
    void aWriteWithATokenNoGrantIssuedIsAWitness() {
        LogBuilder log = bWroteAfterA();
        log.attempted(45, "A", "report", 43, ROW, "report-1");                     // 7
        log.accepted(45, "A", "report", 43, ROW, "report-1", DIGEST, 42L);         // 8
        log.runEnded(46);

        Judgement judgement = SafetyChecker.judgement(log.events());

        assertThat(judgement.verdict().witnesses()).as("token 43 was never granted on scope report: not SAFE")
                .singleElement().satisfies(w -> {
                    assertThat(w.invariant()).isEqualTo(Invariant.UNISSUED_TOKEN);
                    assertThat(w.eventSeqs()).as("the first event presenting it").containsExactly(7L);
                    assertThat(w.summary()).isEqualTo("A presented token 43 on ROW report/report-1 at 45.0s, but no "
                            + "grant on scope report in the log had issued it");
                });
    }

    @Test
    void aTokenPresentedBeforeTheGrantThatIssuesItIsNotIssuedYet() {
        LogBuilder log = new LogBuilder();
        log.runStarted();
        log.attempted(1, "A", "report", 41, ROW, "report-1");
        log.accepted(1, "A", "report", 41, ROW, "report-1", DIGEST, null);
        log.acquired(2, "A", "report", 41, 30);
        log.runEnded(3);

        assertThat(SafetyChecker.judge(log.events()).witnesses()).as("a write moved before its grant")
                .singleElement().satisfies(w -> {
                    assertThat(w.invariant()).isEqualTo(Invariant.UNISSUED_TOKEN);
                    assertThat(w.summary()).isEqualTo("A presented token 41 on ROW report/report-1 at 1.0s, before any "
                            + "grant on scope report (the first is A's at 2.0s)");
                    assertThat(w.eventSeqs()).containsExactly(2L, 4L);
                });
    }

    @Test
    void aTokenThatTwoGrantsShareIsIssuedByEither() {
        // DOUBLE_PRECISION_TRANSPORT: both counters round to the same presented token.
        long rounded = (long) (double) ((1L << 53) + 1);
        LogBuilder log = new LogBuilder();
        log.runStarted();
        log.acquired(0, "A", "report", (1L << 53) + 1, rounded, 30);
        log.expired(30, "A", "report", (1L << 53) + 1);
        log.acquired(31, "B", "report", (1L << 53) + 2, rounded, 61);
        log.attempted(35, "B", "report", rounded, ROW, "report-1");
        log.accepted(35, "B", "report", rounded, ROW, "report-1", DIGEST, null);
        log.runEnded(46);

        assertThat(SafetyChecker.judge(log.events()).witnesses()).as("only the reused grant is a witness")
                .extracting(Witness::invariant).containsExactly(Invariant.NON_MONOTONIC_GRANT);
    }

    @Test
    void aReplacedTokenBelowAWriteAlreadyAcceptedIsAContradiction() {
        LogBuilder log = bWroteAfterA();
        log.attempted(45, "A", "report", 41, ROW, "report-1");                     // 7
        log.accepted(45, "A", "report", 41, ROW, "report-1", DIGEST, 40L);         // 8: the database said 42
        log.runEnded(46);

        Judgement judgement = SafetyChecker.judgement(log.events());

        assertThat(judgement.verdict().witnesses()).as("A's stale write edited to look as if it came first")
                .singleElement().satisfies(w -> {
                    assertThat(w.invariant()).isEqualTo(Invariant.CONTRADICTORY_REPLACED_TOKEN);
                    assertThat(w.eventSeqs()).containsExactly(6L, 8L);
                    assertThat(w.summary()).isEqualTo("A's write with token 41 at 45.0s on ROW report/report-1 says it "
                            + "replaced token 40, but B's write with token 42 (35.0s) was already accepted there and no "
                            + "replaced token in the log puts A's write before it");
                });
    }

    @Test
    void aContradictionIsJudgedOnceTheLogIsWhole() {
        LogBuilder log = bWroteAfterA();
        log.accepted(45, "A", "report", 41, ROW, "report-1", DIGEST, 40L);

        assertThat(SafetyChecker.judge(log.events()).isSafe())
                .as("without RunEnded, a later line could still put A's write first").isTrue();
    }

    @Test
    void aWriteReportedLateThatTheNextWriteReplacedIsNoContradiction() {
        // A live run: A's 41 was applied first, B's 42 replaced it, B's thread reported first.
        LogBuilder log = new LogBuilder();
        log.runStarted();
        log.acquired(0, "A", "report", 41, 30);
        log.acquired(31, "B", "report", 42, 61);
        log.accepted(35, "B", "report", 42, ROW, "report-1", DIGEST, 41L);
        log.accepted(35, "A", "report", 41, ROW, "report-1", DIGEST, 40L);
        log.runEnded(46);

        assertThat(SafetyChecker.judge(log.events()).isSafe()).as("the database's chain puts A's write first").isTrue();
    }

    @Test
    void aWriteReportedAfterTwoLaterOnesIsNoContradictionWhenTheLinkComesLast() {
        // Applied A 41, B 42, C 43; reported C, A, B: the link from 41 to 43 (B's write) is reported last.
        LogBuilder log = new LogBuilder();
        log.runStarted();
        log.acquired(0, "A", "report", 41, 30);
        log.acquired(31, "B", "report", 42, 61);
        log.acquired(62, "C", "report", 43, 92);
        log.accepted(63, "C", "report", 43, ROW, "report-1", DIGEST, 42L);
        log.accepted(63, "A", "report", 41, ROW, "report-1", DIGEST, 40L);
        log.accepted(63, "B", "report", 42, ROW, "report-1", DIGEST, 41L);
        log.runEnded(64);

        assertThat(SafetyChecker.judge(log.events()).isSafe()).isTrue();
    }

    @Test
    void aWriteSentAndNeverAnsweredMayBeTheLinkTheLogLacks() {
        // Unfenced: B's 42, then A's second write under 41 was applied but its connection was killed
        // before the answer; the database then took A's third write over its own 41.
        LogBuilder log = bWroteAfterA();
        log.attempted(45, "A", "report", 41, ROW, "report-1");
        log.operationFailed(45, "A", "write", "connection killed");
        log.attempted(46, "A", "report", 41, ROW, "report-1");
        log.accepted(46, "A", "report", 41, ROW, "report-1", DIGEST, 41L);
        log.runEnded(47);

        assertThat(SafetyChecker.judge(log.events()).witnesses()).as("no contradiction claimed where the log is silent")
                .extracting(Witness::invariant).doesNotContain(Invariant.CONTRADICTORY_REPLACED_TOKEN);
    }
}
