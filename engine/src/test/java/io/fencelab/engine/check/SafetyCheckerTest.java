package io.fencelab.engine.check;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.fencelab.engine.event.Event;
import io.fencelab.engine.resource.ResourceId;
import io.fencelab.engine.resource.ResourceState;
import io.fencelab.engine.resource.TargetKind;
import io.fencelab.testing.LogBuilder;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The checker on hand-built logs of the design note's paused-holder story and its broken variants. */
class SafetyCheckerTest {

    private static final String FROM_A = ValueDigest.of("body from A");
    private static final String FROM_B = ValueDigest.of("body from B");

    /** The story's events up to A's late write; seqs 2..9 are named in the tests below. */
    private static LogBuilder pausedHolderStory() {
        LogBuilder log = new LogBuilder();
        log.runStarted();                                                      // 1
        log.acquired(0, "A", "report", 41, 30);                                // 2
        log.pauseStarted(10, "A", 35);                                         // 3
        log.expired(30, "A", "report", 41);                                    // 4
        log.acquired(31, "B", "report", 42, 61);                               // 5
        log.attempted(35, "B", "report", 42, TargetKind.ROW, "report-1");      // 6
        log.accepted(35, "B", "report", 42, TargetKind.ROW, "report-1", FROM_B); // 7
        log.pauseEnded(45, "A");                                               // 8
        log.attempted(45, "A", "report", 41, TargetKind.ROW, "report-1");      // 9
        return log;
    }

    @Test
    void aLogWithoutRunEndedIsJudgedIncompleteAtItsLastEvent() {
        LogBuilder log = pausedHolderStory();
        log.rejectedStale(41.2, "A", "report", 41, TargetKind.ROW, "report-1", 42); // 10

        Judgement judgement = SafetyChecker.judgement(log.events());

        assertThat(judgement.isSafe()).as("what the cut log holds is judged").isTrue();
        assertThat(judgement.incomplete()).as("but it ends without RunEnded").hasValueSatisfying(cut ->
                assertThat(cut.describe()).isEqualTo("ends at seq 10, 41.2s, without RunEnded"));
        assertThat(JudgementJson.render(judgement)).contains("\"complete\" : false")
                .contains("\"summary\" : \"ends at seq 10, 41.2s, without RunEnded\"");
    }

    @Test
    void aLogEndingWithRunEndedIsComplete() {
        LogBuilder log = pausedHolderStory();
        log.runEnded(46);

        Judgement judgement = SafetyChecker.judgement(log.events());

        assertThat(judgement.end()).isEqualTo(new LogEnd.Ended(10, LogBuilder.micros(46), Event.RunEnded.Reason.COMPLETED));
        assertThat(judgement.incomplete()).isEmpty();
        assertThat(JudgementJson.render(judgement)).contains("\"complete\" : true").doesNotContain("incomplete");
    }

    @Test
    void fencedPausedHolderIsSafeBecauseItsWriteWasRejected() {
        LogBuilder log = pausedHolderStory();
        log.rejectedStale(45, "A", "report", 41, TargetKind.ROW, "report-1", 42);
        log.runEnded(46);

        Verdict verdict = SafetyChecker.judge(log.events());

        assertThat(verdict).as("a stale write the resource refused is the fence working").isEqualTo(Verdict.of(List.of()));
        assertThat(verdict.kind()).isEqualTo(Verdict.Kind.SAFE);
    }

    @Test
    void unfencedPausedHolderOverwriteIsWitnessedByTheStoryItself() {
        LogBuilder log = pausedHolderStory();
        log.accepted(45, "A", "report", 41, TargetKind.ROW, "report-1", FROM_A);   // 10
        log.runEnded(46);

        Verdict verdict = SafetyChecker.judge(log.events());

        assertThat(verdict.kind()).as("A's token-41 write accepted over B's 42").isEqualTo(Verdict.Kind.VIOLATED);
        assertThat(verdict.witnesses()).as("exactly one stale overwrite").hasSize(1);
        Witness witness = verdict.witnesses().getFirst();
        assertThat(witness.invariant()).isEqualTo(Invariant.STALE_OVERWRITE);
        assertThat(witness.eventSeqs())
                .as("A's grant, pause start, expiry, B's grant, B's write, pause end, A's stale write; no attempts, no run events")
                .containsExactly(2L, 3L, 4L, 5L, 7L, 8L, 10L);
        assertThat(witness.summary()).as("the plain-language account").isEqualTo(
                "A wrote with token 41 at 45.0s over B's write with token 42 (35.0s) on ROW report/report-1; "
                        + "A's lease expired at 30.0s while A was paused (10.0s–45.0s)");
    }

    @Test
    void witnessLeavesOutOtherHoldersAndPausesThatDidNotSpanTheExpiry() {
        LogBuilder log = new LogBuilder();
        log.runStarted();                                                          // 1
        log.acquired(0, "A", "report", 7, 10);                                     // 2
        log.pauseStarted(1, "A", 0.5);                                             // 3  short GC pause, irrelevant
        log.pauseEnded(1.5, "A");                                                  // 4
        log.renewed(2, "A", "report", 7, 12);                                      // 5
        log.pauseStarted(3, "C", 20);                                              // 6  another holder's pause
        log.pauseStarted(4, "A", 30);                                              // 7  the pause that matters
        log.expired(12, "A", "report", 7);                                         // 8
        log.acquired(13, "B", "report", 8, 23);                                    // 9
        log.accepted(14, "B", "report", 8, TargetKind.POINTER, "current", "v8");   // 10
        log.accepted(15, "B", "report", 8, TargetKind.POINTER, "current", "v8b");  // 11
        log.accepted(15, "B", "report", 8, TargetKind.ROW, "other", "x");          // 12 another resource
        log.pauseEnded(34, "A");                                                   // 13
        log.accepted(34, "A", "report", 7, TargetKind.POINTER, "current", "v7");   // 14

        Witness witness = SafetyChecker.judge(log.events()).witnesses().getFirst();

        assertThat(witness.eventSeqs())
                .as("B's last write under token 8 on the pointer, and only A's pause spanning its expiry at 12 s")
                .containsExactly(2L, 7L, 8L, 9L, 11L, 13L, 14L);
        assertThat(witness.summary()).isEqualTo(
                "A wrote with token 7 at 34.0s over B's write with token 8 (15.0s) on POINTER report/current; "
                        + "A's lease expired at 12.0s while A was paused (4.0s–34.0s)");
    }

    @Test
    void withoutAnExpiryEventTheWitnessUsesTheRenewedDeadline() {
        LogBuilder log = new LogBuilder();
        log.acquired(0, "A", "s", 1, 5);                                       // 1
        log.renewed(4, "A", "s", 1, 9);                                        // 2
        log.pauseStarted(6, "A", 10);                                          // 3
        log.acquired(10, "B", "s", 2, 20);                                     // 4
        log.accepted(11, "B", "s", 2, TargetKind.OBJECT, "o", "b");            // 5
        log.pauseEnded(16, "A");                                               // 6
        log.accepted(16.25, "A", "s", 1, TargetKind.OBJECT, "o", "a");         // 7

        Witness witness = SafetyChecker.judge(log.events()).witnesses().getFirst();

        assertThat(witness.eventSeqs()).as("no renewal in the witness: it only moves the deadline")
                .containsExactly(1L, 3L, 4L, 5L, 6L, 7L);
        assertThat(witness.summary()).isEqualTo(
                "A wrote with token 1 at 16.25s over B's write with token 2 (11.0s) on OBJECT s/o; "
                        + "A's lease was due to expire at 9.0s while A was paused (6.0s–16.0s)");
    }

    @Test
    void equalTokenWritesAndRejectionsAreSafe() {
        LogBuilder log = new LogBuilder();
        log.acquired(0, "A", "s", 1, 30);
        log.accepted(1, "A", "s", 1, TargetKind.ROW, "r", "a1");
        log.accepted(2, "A", "s", 1, TargetKind.ROW, "r", "a2");
        log.acquired(31, "B", "s", 2, 61);
        log.accepted(32, "B", "s", 2, TargetKind.ROW, "r", "b");
        log.outOfOrder(33, "B", "s", 2, TargetKind.ROW, "r", 1, 2);
        log.rejectedStale(34, "A", "s", 1, TargetKind.ROW, "r", 2);
        log.accepted(35, "A", "s", 1, TargetKind.ROW, "elsewhere", "a3");

        assertThat(SafetyChecker.judge(log.events()).kind())
                .as("equal tokens are accepted by design; a stale write on another resource overwrites nothing")
                .isEqualTo(Verdict.Kind.SAFE);
    }

    @Test
    void grantBelowAnEarlierOneIsANonMonotonicGrant() {
        // RANDOM_UUID: the service's counter is fine, but B presents a smaller token than A did.
        LogBuilder log = new LogBuilder();
        Event.LeaseAcquired a = log.acquired(0, "A", "report", 1, 93_000, 30);
        log.acquired(0, "C", "ledger", 1, 5, 30);                              // another scope: not compared
        Event.LeaseAcquired b = log.acquired(31, "B", "report", 2, 17, 61);

        Verdict verdict = SafetyChecker.judge(log.events());

        assertThat(verdict.witnesses()).as("one witness, naming the two grants").singleElement().satisfies(w -> {
            assertThat(w.invariant()).isEqualTo(Invariant.NON_MONOTONIC_GRANT);
            assertThat(w.eventSeqs()).containsExactly(a.seq(), b.seq());
            assertThat(w.summary()).isEqualTo("B was granted fencing token 17 on scope report at 31.0s, below A's grant "
                    + "of 93000 (0.0s): a resource cannot order B after A");
        });
    }

    @Test
    void everyGrantIsComparedWithTheHighestEarlierOneAndReuseIsFlagged() {
        LogBuilder log = new LogBuilder();
        Event.LeaseAcquired first = log.acquired(0, "A", "s", 1, 50, 1);
        Event.LeaseAcquired lower = log.acquired(2, "B", "s", 2, 10, 3);
        Event.LeaseAcquired between = log.acquired(4, "C", "s", 3, 20, 5);
        Event.LeaseAcquired reuse = log.acquired(6, "A", "s", 4, 50, 7);
        Event.LeaseAcquired higher = log.acquired(8, "B", "s", 5, 51, 9);

        List<Witness> witnesses = SafetyChecker.judge(log.events()).witnesses();

        assertThat(witnesses).extracting(Witness::eventSeqs).as("20 is above 10 but still below 50; 51 is fine")
                .containsExactly(List.of(first.seq(), lower.seq()), List.of(first.seq(), between.seq()),
                        List.of(first.seq(), reuse.seq()));
        assertThat(witnesses.get(2).summary()).contains("reusing A's grant of 50");
        assertThat(higher.fencingToken()).isGreaterThan(first.fencingToken());
    }

    @Test
    void serviceCounterGoingBackwardsIsFlaggedSeparately() {
        // WALL_CLOCK with skew hides nothing here: the presented tokens rise, but the service's counter fell.
        LogBuilder log = new LogBuilder();
        Event.LeaseAcquired a = log.acquired(0, "A", "s", 9, 100, 30);
        Event.LeaseAcquired b = log.acquired(31, "B", "s", 4, 200, 61);

        List<Witness> witnesses = SafetyChecker.judge(log.events()).witnesses();

        assertThat(witnesses).as("the counter's own invariant").singleElement().satisfies(w -> {
            assertThat(w.invariant()).isEqualTo(Invariant.NON_MONOTONIC_COUNTER);
            assertThat(w.eventSeqs()).containsExactly(a.seq(), b.seq());
        });
    }

    @Test
    void theJudgementClassifiesEveryWriteOutcomeBySeqAndLeavesTheLogAlone() {
        LogBuilder log = pausedHolderStory();
        Event.WriteAccepted stale = log.accepted(45, "A", "report", 41, TargetKind.ROW, "report-1", FROM_A);
        log.missing(46, "B", "report", 42, TargetKind.ROW, "absent");
        log.runEnded(47);
        List<Event> events = log.events();

        Judgement judgement = SafetyChecker.judgement(events);

        assertThat(judgement.writes().all()).as("one classification per write outcome, in seq order")
                .containsExactly(new WriteJudgement(7, WriteClass.ACCEPTED, null, 0),
                        new WriteJudgement(stale.seq(), WriteClass.STALE_OVERWRITE, 42L, 7),
                        new WriteJudgement(stale.seq() + 1, WriteClass.MISSING, null, 0));
        assertThat(judgement.classOf(2)).as("a grant is not a write outcome").isNull();
        assertThat(judgement.kept()).as("what the row must hold: B's write under the newest grant")
                .containsOnlyKeys(new ResourceId(TargetKind.ROW, "report", "report-1"))
                .extractingByKey(new ResourceId(TargetKind.ROW, "report", "report-1"))
                .extracting(Event::seq).isEqualTo(7L);
        assertThat(log.events()).as("judging adds nothing to the history").isEqualTo(events);
    }

    @Test
    void aStaleWriteWhoseTokenCollapsedOntoTheNewerOneIsWitnessedOverTheNewerHoldersWrite() {
        long collapsed = 9_007_199_254_740_992L;
        LogBuilder log = new LogBuilder();
        log.acquired(0, "A", "report", collapsed, collapsed, 30);
        log.acquired(31, "B", "report", collapsed + 1, collapsed, 61);
        Event.WriteAccepted b = log.accepted(35, "B", "report", collapsed, TargetKind.ROW, "report-1", FROM_B);
        Event.WriteAccepted a = log.accepted(45, "A", "report", collapsed, TargetKind.ROW, "report-1", FROM_A,
                collapsed);

        Judgement judgement = SafetyChecker.judgement(log.events());

        assertThat(judgement.writes().of(a.seq())).as("A's write went over B's, though both carry the same number")
                .isEqualTo(new WriteJudgement(a.seq(), WriteClass.STALE_OVERWRITE, collapsed, b.seq()));
        assertThat(judgement.verdict().witnesses()).filteredOn(w -> w.invariant() == Invariant.STALE_OVERWRITE)
                .singleElement().satisfies(w -> {
                    assertThat(w.summary()).as("names the newer holder's write, not A's own")
                            .contains("over B's write");
                    assertThat(w.eventSeqs()).contains(b.seq(), a.seq());
                });
    }

    @Test
    void aRefusedStaleWriteIsClassifiedWithTheTokenThatRefusedIt() {
        LogBuilder log = pausedHolderStory();
        Event.WriteRejectedStale refused = log.rejectedStale(45, "A", "report", 41, TargetKind.ROW, "report-1", 42);

        assertThat(SafetyChecker.judgement(log.events()).writes().of(refused.seq()))
                .isEqualTo(new WriteJudgement(refused.seq(), WriteClass.REJECTED_STALE, 42L, 0));
    }

    /** A's grant 41 at 0 s, expired at 1 s; B's grant 42 at 1 s: two writes to one row follow. */
    private static LogBuilder twoGrants() {
        LogBuilder log = new LogBuilder();
        log.runStarted();                                                      // 1
        log.acquired(0, "A", "s", 41, 1);                                      // 2
        log.expired(1, "A", "s", 41);                                          // 3
        log.acquired(1, "B", "s", 42, 2);                                      // 4
        return log;
    }

    @Test
    void writesReportedInTheOtherOrderThanTheDatabaseAppliedThemAreSafe() {
        LogBuilder log = twoGrants();
        // The database applied A's 41 (creating the row), then B's 42 over it; live threads reported B first.
        log.accepted(1.2, "B", "s", 42, TargetKind.ROW, "k", FROM_B, 41L);     // 5
        log.accepted(1.2, "A", "s", 41, TargetKind.ROW, "k", FROM_A, null);    // 6
        log.accepted(1.3, "A", "s", 41, TargetKind.OBJECT, "k", FROM_A, 40L);  // 7
        log.accepted(1.3, "B", "s", 42, TargetKind.OBJECT, "k", FROM_B, 41L);  // 8

        Verdict verdict = SafetyChecker.judge(log.events(), List.of(
                new ResourceState(TargetKind.ROW, "s", "k", 42, FROM_B),
                new ResourceState(TargetKind.OBJECT, "s", "k", 42, FROM_B)));

        assertThat(verdict.witnesses()).as("each late report says (or is shown by another) it came first").isEmpty();
    }

    @Test
    void aStaleHoldersNextWriteOverItsOwnTokenIsStillAStaleOverwrite() {
        LogBuilder log = twoGrants();
        // No fence: B's 42, then A's stale 41 over it, then A's 41 again, which replaces A's own 41.
        log.accepted(1.2, "B", "s", 42, TargetKind.ROW, "k", FROM_B, null);    // 5
        log.accepted(1.3, "A", "s", 41, TargetKind.ROW, "k", FROM_A, 42L);     // 6
        Event.WriteAccepted again = log.accepted(1.4, "A", "s", 41, TargetKind.ROW, "k", "a2", 41L); // 7

        Judgement judgement = SafetyChecker.judgement(log.events());

        assertThat(judgement.writes().of(again.seq()))
                .as("the soak's audit found these: the resource had accepted 42 before A's second write")
                .isEqualTo(new WriteJudgement(7, WriteClass.STALE_OVERWRITE, 42L, 5));
        assertThat(judgement.verdict().witnesses()).extracting(Witness::invariant)
                .containsExactly(Invariant.STALE_OVERWRITE, Invariant.STALE_OVERWRITE);
    }

    @Test
    void aStaleOverwriteIsWitnessedEvenWhenReportedBeforeTheWriteItReplaced() {
        LogBuilder log = twoGrants();
        // The database applied B's 42, then A's stale 41 over it (no fence); A's report came first.
        log.accepted(1.2, "A", "s", 41, TargetKind.ROW, "k", FROM_A, 42L);     // 5
        log.accepted(1.2, "B", "s", 42, TargetKind.ROW, "k", FROM_B, null);    // 6

        Verdict verdict = SafetyChecker.judge(log.events());

        assertThat(verdict.witnesses()).singleElement().satisfies(w -> {
            assertThat(w.invariant()).isEqualTo(Invariant.STALE_OVERWRITE);
            assertThat(w.eventSeqs()).as("both grants, A's expiry and both writes").containsExactly(2L, 3L, 4L, 5L, 6L);
        });
    }

    @Test
    void finalStateMustBeTheLastWriteUnderTheHighestToken() {
        LogBuilder log = pausedHolderStory();
        log.accepted(45, "A", "report", 41, TargetKind.ROW, "report-1", FROM_A);   // 10

        Verdict withA = SafetyChecker.judge(log.events(),
                List.of(new ResourceState(TargetKind.ROW, "report", "report-1", 41, FROM_A)));
        Verdict withB = SafetyChecker.judge(log.events(),
                List.of(new ResourceState(TargetKind.ROW, "report", "report-1", 42, FROM_B)));

        assertThat(withA.witnesses()).extracting(Witness::invariant).as("log witness first, then the final state")
                .containsExactly(Invariant.STALE_OVERWRITE, Invariant.FINAL_STATE_MISMATCH);
        Witness mismatch = withA.witnesses().get(1);
        assertThat(mismatch.eventSeqs()).as("B's write that should be there, A's that is").containsExactly(7L, 10L);
        assertThat(mismatch.summary()).isEqualTo(("ROW report/report-1 ends with token 41 (value %s), not B's write "
                + "with token 42 at 35.0s (value %s), the last accepted under the highest token; it holds A's later "
                + "write with token 41 at 45.0s").formatted(FROM_A, FROM_B));
        assertThat(withB.witnesses()).extracting(Witness::invariant)
                .as("B's state intact: only the log's stale overwrite remains").containsExactly(Invariant.STALE_OVERWRITE);
    }

    @Test
    void finalStateWithAWrongDigestOrAMissingResourceIsAMismatch() {
        LogBuilder log = new LogBuilder();
        log.acquired(0, "A", "s", 1, 30);
        Event.WriteAccepted row = log.accepted(1, "A", "s", 1, TargetKind.ROW, "r", FROM_A);
        Event.WriteAccepted object = log.accepted(2, "A", "s", 1, TargetKind.OBJECT, "o", FROM_A);

        Verdict verdict = SafetyChecker.judge(log.events(), List.of(
                new ResourceState(TargetKind.ROW, "s", "r", 1, FROM_B),
                new ResourceState(TargetKind.POINTER, "s", "seeded", 0, "whatever")));

        assertThat(verdict.witnesses()).as("a seeded resource without writes in the log is not judged")
                .extracting(Witness::eventSeqs)
                .containsExactly(List.of(row.seq()), List.of(object.seq()));
        assertThat(verdict.witnesses().get(1).summary()).startsWith("OBJECT s/o is missing from the final state");
    }

    @Test
    void onlineCheckerReportsEachWitnessOnceWhenItsEventArrives() {
        List<Event> events = pausedHolderStory().events();
        OnlineChecker checker = new OnlineChecker();

        List<Witness> early = checker.accept(events);
        LogBuilder tail = pausedHolderStory();
        tail.accepted(45, "A", "report", 41, TargetKind.ROW, "report-1", FROM_A);
        List<Witness> late = checker.accept(tail.events().subList(events.size(), tail.events().size()));

        assertThat(early).as("nothing is wrong before A's write lands").isEmpty();
        assertThat(late).as("the stale write reveals one witness").hasSize(1);
        assertThat(checker.verdict()).isEqualTo(SafetyChecker.judge(tail.events()));
        assertThat(checker.lastSeq()).isEqualTo(10);
    }

    @Test
    void onlineCheckerRefusesEventsItHasAlreadySeen() {
        List<Event> events = pausedHolderStory().events();
        OnlineChecker checker = new OnlineChecker();
        checker.accept(events);

        assertThatThrownBy(() -> checker.accept(events.subList(3, 4)))
                .as("a replayed event would be judged twice")
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("seq 4 is not after seq 9");
    }
}
