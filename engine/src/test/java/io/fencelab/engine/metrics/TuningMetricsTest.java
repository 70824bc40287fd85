package io.fencelab.engine.metrics;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import io.fencelab.engine.check.Judgement;
import io.fencelab.engine.check.SafetyChecker;
import io.fencelab.engine.event.Event;
import io.fencelab.engine.event.Event.BeliefEnded.Cause;
import io.fencelab.engine.resource.TargetKind;
import io.fencelab.testing.LogBuilder;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The tuning figures of hand-built logs, each against the answer worked out by hand. */
class TuningMetricsTest {

    private static final TargetKind ROW = TargetKind.ROW;
    private static final double EXACT = 1e-9;

    private static TuningMetrics metrics(LogBuilder log) {
        return TuningMetrics.of(log.events(), Judgement.EMPTY);
    }

    // ---- failover ---------------------------------------------------------------------------

    @Test
    void failoverIsTimedFromTheHoldersCrashToTheScopesNextGrant() {
        LogBuilder log = new LogBuilder();
        log.runStarted();
        log.acquired(0, "A", "s", 1, 10);
        log.acquired(0, "C", "u", 1, 22);
        log.acquired(0, "E", "w", 1, 42);
        log.renewed(5, "A", "s", 1, 15);
        log.crashed(7, "A", 0);                       // A holds s until 15
        log.beliefEnded(7, "A", "s", 1, Cause.CRASHED, "crashed");
        log.busy(8, "B", "s", "A", 1);
        log.expired(15, "A", "s", 1);
        log.acquired(16, "B", "s", 2, 26);            // s: 16 - 7 = 9 s
        log.crashed(20, "C", 0);
        log.expired(22, "C", "u", 1);
        log.acquired(23, "D", "u", 2, 33);            // u: 23 - 20 = 3 s
        log.crashed(40, "E", 0);
        log.expired(42, "E", "w", 1);
        log.acquired(45, "F", "w", 2, 55);            // w: 45 - 40 = 5 s
        log.runEnded(60);

        TuningMetrics m = metrics(log);

        assertThat(m.failovers()).as("three holders crashed holding a lease, each scope granted again").isEqualTo(3);
        assertThat(m.failoverP50Micros()).as("3, 5, 9 s: the median by nearest rank").isEqualTo(5_000_000);
        assertThat(m.failoverP99Micros()).as("the 99th percentile of three is the largest").isEqualTo(9_000_000);
        assertThat(m.failoverMaxMicros()).isEqualTo(9_000_000);
        assertThat(m.values()).containsEntry("failoverP50Seconds", 5.0).containsEntry("failoverMaxSeconds", 9.0)
                .containsEntry("failovers", 3.0);
    }

    @Test
    void aCrashAimedAtAWorkerHitsItsNewIncarnation() {
        LogBuilder log = new LogBuilder();
        log.runStarted();
        log.acquired(0, "A", "s", 1, 10);
        log.crashed(5, "A", 1);                       // A restarts at 6 s as A#2
        log.faultHealed(6, "CRASH", "A");
        log.expired(10, "A", "s", 1);
        log.acquired(10, "A#2", "s", 2, 20);          // failover 1: 5 s
        log.crashed(12, "A", 0);                      // the fault names the worker; A#2 is what dies
        log.expired(20, "A#2", "s", 2);
        log.acquired(21, "B", "s", 3, 31);            // failover 2: 9 s
        log.runEnded(30);

        TuningMetrics m = metrics(log);

        assertThat(m.failovers()).isEqualTo(2);
        assertThat(m.failoverMaxMicros()).as("A#2's crash at 12 s, B granted at 21 s").isEqualTo(9_000_000);
    }

    @Test
    void crashOfAHolderThatHeldNoLeaseIsNotAFailover() {
        LogBuilder log = new LogBuilder();
        log.runStarted();
        log.acquired(0, "A", "s", 1, 10);
        log.released(2, "A", "s", 1);
        log.crashed(3, "A", 0);                       // released before: holds nothing
        log.acquired(4, "B", "s", 2, 6);
        log.crashed(8, "B", 0);                       // its lease expired at 6: holds nothing
        log.acquired(9, "C", "s", 3, 19);
        log.crashed(10, "D", 0);                      // never held anything
        log.acquired(11, "E", "t", 1, 21);
        log.runEnded(20);

        TuningMetrics m = metrics(log);

        assertThat(m.failovers()).as("no crash left a lease without its holder").isZero();
        assertThat(m.failoverP50Micros()).isNull();
        assertThat(m.failoverP99Micros()).isNull();
        assertThat(m.failoverMaxMicros()).isNull();
        assertThat(m.values().get("failoverP50Seconds")).as("a missing figure is NaN in values()").isNaN();
        assertThat(m.values().get("failoverP99Seconds")).isNaN();
        assertThat(m.values().get("failoverMaxSeconds")).isNaN();
    }

    @Test
    void aCrashWhoseScopeIsNeverGrantedAgainIsNotAFinishedFailover() {
        LogBuilder log = new LogBuilder();
        log.runStarted();
        log.acquired(0, "A", "s", 1, 10);
        log.crashed(5, "A", 0);
        log.expired(10, "A", "s", 1);
        log.runEnded(30);

        assertThat(metrics(log).failovers()).as("nobody took over before the run ended").isZero();
    }

    // ---- unavailability ----------------------------------------------------------------------

    @Test
    void unavailabilityIsTheTimeAWantedLeaseWasHeldByNobodyAveragedOverScopes() {
        LogBuilder log = new LogBuilder();
        log.runStarted();
        log.acquired(0, "A", "s", 41, 10);
        log.beliefStarted(0, "A", "s", 41);
        log.acquired(0, "C", "t", 1, 200);            // scope t: held all along
        log.busy(2, "B", "s", "A", 41);               // B wants s from here
        log.pauseStarted(5, "A", 35);
        log.expired(10, "A", "s", 41);                // s free from 10 ...
        log.acquired(30, "B", "s", 42, 60);           // ... to 30: 20 s unavailable
        log.beliefStarted(30, "B", "s", 42);
        log.pauseEnded(40, "A");
        log.rejectedStale(40, "A", "s", 41, ROW, "k", 42);
        log.beliefEnded(40, "A", "s", 41, Cause.STALE_ANSWER, "stale: token 41 is older than 42");
        log.released(50, "B", "s", 42);               // free from 50, but nobody wants it
        log.beliefEnded(50, "B", "s", 42, Cause.RELEASED, "released");
        log.runEnded(100);

        TuningMetrics m = metrics(log);

        // Changed with issue 19: A paused holding s (5 s to 10 s) no longer counts as serving it.
        assertThat(m.unavailability()).as("5 s frozen and 20 s acquiring of 100 on s, none on t: (0.25 + 0) / 2")
                .isCloseTo(0.125, within(EXACT));
    }

    @Test
    void aPausedHolderStillBelievingItsExpiredLeaseWantsIt() {
        LogBuilder log = new LogBuilder();
        log.runStarted();
        log.acquired(0, "A", "s", 1, 10);
        log.beliefStarted(0, "A", "s", 1);
        log.pauseStarted(5, "A", 20);
        log.expired(10, "A", "s", 1);                 // A still believes: s is wanted and held by nobody
        log.pauseEnded(25, "A");
        log.acquired(25, "A", "s", 2, 35);
        log.released(30, "A", "s", 2);
        log.beliefEnded(30, "A", "s", 2, Cause.RELEASED, "released");
        log.runEnded(40);

        // Changed with issue 19: from the pause at 5 s, not from the expiry at 10 s: a frozen holder serves nobody.
        assertThat(metrics(log).unavailability()).as("5 s to 25 s of 40 s").isCloseTo(20.0 / 40, within(EXACT));
    }

    @Test
    void aCrashedHoldersScopeIsUnavailableFromTheCrashToItsNextGrant() {
        LogBuilder log = new LogBuilder();
        log.runStarted();
        log.acquired(0, "A", "s", 1, 10);
        log.crashed(4, "A", 10);                      // the table says held until 10, but by nobody alive
        log.expired(10, "A", "s", 1);
        log.faultHealed(14, "CRASH", "A");
        log.acquired(16, "A", "s", 2, 26);            // the same identity, back: 4 s to 16 s unavailable
        log.runEnded(20);

        TuningMetrics m = metrics(log);

        assertThat(m.unavailability()).as("12 s of 20: a dead holder's lease serves nobody").isCloseTo(0.6, within(EXACT));
        assertThat(m.failoverMaxMicros()).as("crash at 4 s, granted at 16 s").isEqualTo(12_000_000);
    }

    // ---- renewal losses (spuriousLossesPerHour before) --------------------------------------

    @Test
    void aRunningHolderWhoseRenewalsWereLostHasARenewalLoss() {
        LogBuilder log = new LogBuilder();
        log.runStarted();
        log.acquired(0, "A", "s", 1, 10);
        log.beliefStarted(0, "A", "s", 1);
        log.renewalFailed(3, "A", "s", 1, "dropped by a renewal-loss fault; the holder does not know");   // still held
        log.renewalFailed(6, "A", "s", 1, "dropped by a renewal-loss fault; the holder does not know");
        log.expired(10, "A", "s", 1);                 // A believes and runs: a renewal loss
        log.renewalFailed(12, "A", "s", 1);           // the same loss, heard later: not again
        log.beliefEnded(12, "A", "s", 1, Cause.RENEWAL_REFUSED, "renewal failed");
        log.runEnded(360);

        TuningMetrics m = metrics(log);

        assertThat(m.renewalLossesPerHour()).as("one loss in 360 s is 10 an hour").isCloseTo(10, within(EXACT));
    }

    @Test
    void aLossFirstReportedByAFailedRenewalIsCountedOnce() {
        LogBuilder log = new LogBuilder();
        log.runStarted();
        log.acquired(0, "A", "s", 1, 10);
        log.beliefStarted(0, "A", "s", 1);
        log.renewalFailed(11, "A", "s", 1);           // a live run: the service refused before its timer fired
        log.beliefEnded(11, "A", "s", 1, Cause.RENEWAL_REFUSED, "renewal failed");
        log.expired(11.5, "A", "s", 1);
        log.runEnded(360);

        assertThat(metrics(log).renewalLossesPerHour()).isCloseTo(10, within(EXACT));
    }

    @Test
    void aPausedHoldersLeaseLossIsNotARenewalLoss() {
        LogBuilder log = new LogBuilder();
        log.runStarted();
        log.acquired(0, "A", "s", 1, 10);
        log.beliefStarted(0, "A", "s", 1);
        log.pauseStarted(5, "A", 20);
        log.expired(10, "A", "s", 1);                 // paused at the expiry instant
        log.pauseEnded(25, "A");
        log.renewalFailed(25, "A", "s", 1);
        log.beliefEnded(25, "A", "s", 1, Cause.RENEWAL_REFUSED, "renewal failed");
        log.runEnded(360);

        assertThat(metrics(log).renewalLossesPerHour()).as("the pause, not the renewals, lost it").isZero();
    }

    @Test
    void aPauseSinceTheLastRenewalMakesTheLossNotARenewalLossEvenIfItEndedBeforeTheExpiry() {
        LogBuilder log = new LogBuilder();
        log.runStarted();
        log.acquired(0, "A", "s", 1, 10);
        log.beliefStarted(0, "A", "s", 1);
        log.pauseStarted(1, "A", 8.9);
        log.pauseEnded(9.9, "A");                     // its renewal, due at 3 s, leaves at 9.9 s ...
        log.expired(10, "A", "s", 1);                 // ... and lands too late: the pause lost it
        log.renewalFailed(10.1, "A", "s", 1);
        log.beliefEnded(10.1, "A", "s", 1, Cause.RENEWAL_REFUSED, "renewal failed");
        log.runEnded(360);

        assertThat(metrics(log).renewalLossesPerHour()).isZero();
    }

    @Test
    void aLeaderThatStepsDownAtItsRenewDeadlineWhileRunningHasARenewalLoss() {
        LogBuilder log = new LogBuilder();
        log.runStarted();
        log.acquired(0, "A", "leader", 1, 15);
        log.beliefStarted(0, "A", "leader", 1);
        log.renewed(2, "A", "leader", 1, 17);         // renewals after this one are slow
        log.beliefEnded(12, "A", "leader", 1, Cause.RENEW_DEADLINE, "renew deadline: no renewal succeeded for 10s");
        log.expired(17, "A", "leader", 1);            // the same loss: not counted again
        log.acquired(0, "B", "other", 1, 15);
        log.beliefStarted(0, "B", "other", 1);
        log.pauseStarted(3, "B", 11);
        log.pauseEnded(14, "B");
        log.beliefEnded(14, "B", "other", 1, Cause.RENEW_DEADLINE, "renew deadline: no renewal succeeded for 10s");   // the pause did it
        log.runEnded(360);

        assertThat(metrics(log).renewalLossesPerHour()).as("A's step-down only: 10 an hour").isCloseTo(10, within(EXACT));
    }

    @Test
    void aCrashedOrResigningHoldersLeaseLossIsNotARenewalLoss() {
        LogBuilder log = new LogBuilder();
        log.runStarted();
        log.acquired(0, "A", "s", 1, 10);
        log.beliefStarted(0, "A", "s", 1);
        log.acquired(0, "B", "t", 1, 10);
        log.beliefStarted(0, "B", "t", 1);
        log.crashed(5, "A", 0);
        log.beliefEnded(5, "A", "s", 1, Cause.CRASHED, "crashed");
        log.beliefEnded(9, "B", "t", 1, Cause.OWN_CLOCK, "its own clock says the lease expired");
        log.expired(10, "A", "s", 1);
        log.expired(10, "B", "t", 1);
        log.runEnded(360);

        assertThat(metrics(log).renewalLossesPerHour()).as("neither holder still ran believing it held").isZero();
    }

    // ---- transitions, stale writes, wasted jobs, load ------------------------------------------

    @Test
    void aLeaderTransitionIsAGrantToAHolderOtherThanTheScopesPreviousOne() {
        LogBuilder log = new LogBuilder();
        log.runStarted();
        log.acquired(0, "A", "s", 1, 10);             // the first grant: no transition
        log.acquired(0, "C", "t", 1, 10);             // another scope's first grant
        log.acquired(20, "A", "s", 2, 30);            // the same holder again
        log.acquired(40, "B", "s", 3, 50);            // 1
        log.acquired(60, "A", "s", 4, 70);            // 2
        log.runEnded(1800);

        assertThat(metrics(log).transitionsPerHour()).as("2 in half an hour").isCloseTo(4, within(EXACT));
    }

    @Test
    void staleWritesAreRefusalsPlusStaleWritesTheResourceAccepted() {
        LogBuilder log = new LogBuilder();
        log.runStarted();
        log.acquired(0, "A", "s", 41, 10);
        log.expired(10, "A", "s", 41);
        log.acquired(11, "B", "s", 42, 40);
        log.accepted(12, "B", "s", 42, ROW, "k", "b");
        log.accepted(13, "A", "s", 41, ROW, "k", "a");           // accepted over newer work: a violation
        log.rejectedStale(14, "A", "s", 41, ROW, "j", 43);       // refused by the fence
        log.runEnded(1800);
        List<Event> events = log.events();

        TuningMetrics judged = TuningMetrics.of(events, SafetyChecker.judgement(events));
        TuningMetrics unjudged = TuningMetrics.of(events, Judgement.EMPTY);

        assertThat(judged.staleWritesPerHour()).as("one refused, one accepted stale, in half an hour")
                .isCloseTo(4, within(EXACT));
        assertThat(unjudged.staleWritesPerHour()).as("without a judgement only the refusal is known")
                .isCloseTo(2, within(EXACT));
    }

    @Test
    void wastedJobsAreJobsAbandonedAfterAStaleAnswer() {
        LogBuilder log = new LogBuilder();
        log.runStarted();
        log.beliefEnded(1, "A", "s", 41, Cause.STALE_ANSWER, "stale: token 41 is older than 42");
        log.beliefEnded(2, "B", "s", 42, Cause.STALE_ANSWER, "stale: token 42 is older than 43 (after 3 blind retries)");
        log.beliefEnded(3, "C", "s", 43, Cause.RENEWAL_REFUSED, "renewal failed");
        log.beliefEnded(4, "D", "s", 44, Cause.RELEASED, "released");
        log.beliefEnded(5, "E", "s", 45, Cause.CRASHED, "crashed");
        log.runEnded(10);

        assertThat(metrics(log).wastedJobs()).isEqualTo(2);
    }

    @Test
    void wastedJobsFollowTheCauseNotTheWords() {
        LogBuilder log = new LogBuilder();
        log.runStarted();
        log.beliefEnded(1, "A", "s", 41, Cause.STALE_ANSWER, "gave up: a newer token was presented");
        log.beliefEnded(2, "B", "s", 42, Cause.RELEASED, "stale-looking words, but released");
        log.runEnded(10);

        assertThat(metrics(log).wastedJobs()).as("A's stale answer only, whatever the words say").isEqualTo(1);
    }

    @Test
    void aStepDownAtTheRenewDeadlineIsKnownByItsCauseNotItsWords() {
        LogBuilder log = new LogBuilder();
        log.runStarted();
        log.acquired(0, "A", "leader", 1, 15);
        log.beliefStarted(0, "A", "leader", 1);
        log.beliefEnded(12, "A", "leader", 1, Cause.RENEW_DEADLINE, "stepped down");
        log.acquired(0, "B", "other", 1, 15);
        log.beliefStarted(0, "B", "other", 1);
        log.beliefEnded(12, "B", "other", 1, Cause.OWN_CLOCK, "renew deadline in words only");
        log.runEnded(360);

        assertThat(metrics(log).renewalLossesPerHour()).as("A's step-down only: 10 an hour").isCloseTo(10, within(EXACT));
    }

    @Test
    void leaseLoadIsAcquireAndRenewRequestsPerSecond() {
        LogBuilder log = new LogBuilder();
        log.runStarted();
        log.acquired(0, "A", "s", 1, 10);                        // 1
        log.busy(1, "B", "s", "A", 1);                            // 2
        log.renewed(2, "A", "s", 1, 12);                          // 3
        log.renewalFailed(3, "A", "s", 1, "dropped");             // 4
        log.exhausted(4, "C", "u", Long.MAX_VALUE);               // 5
        log.operationFailed(5, "B", "acquire", "database down"); // 6
        log.operationFailed(6, "A", "renew", "database down");   // 7
        log.operationFailed(7, "A", "write", "database down");   // not a lease request
        log.released(8, "A", "s", 1);                             // not counted: a release
        log.runEnded(10);

        assertThat(metrics(log).leaseLoadPerSecond()).as("7 requests in 10 s").isCloseTo(0.7, within(EXACT));
    }

    // ---- run length, empty logs, names ----------------------------------------------------------

    @Test
    void theRunLastsUntilRunEndedOrElseTheLastEvent() {
        LogBuilder ended = new LogBuilder();
        ended.runStarted();
        ended.acquired(3, "A", "s", 1, 10);
        ended.runEnded(50);
        LogBuilder cut = new LogBuilder();
        cut.runStarted();
        cut.acquired(3, "A", "s", 1, 10);

        assertThat(metrics(ended).runMicros()).isEqualTo(50_000_000);
        assertThat(metrics(cut).runMicros()).isEqualTo(3_000_000);
    }

    @Test
    void anEmptyLogHasNoFiguresAndValuesKeepTheirNamesAndOrder() {
        TuningMetrics m = TuningMetrics.of(List.of(), Judgement.EMPTY);

        assertThat(m).isEqualTo(TuningMetrics.NONE);
        assertThat(m.values().keySet()).containsExactlyElementsOf(TuningMetrics.NAMES);
        assertThat(m.values().get("failoverP99Seconds")).isNaN();
        assertThat(m.values().get("unavailability")).isZero();
        assertThat(m.values().get("leaseLoadPerSecond")).isZero();
    }

    // ---- per second ------------------------------------------------------------------------------

    @Test
    void perSecondSeriesCountsEachSecondAndSpreadsUnavailableTime() {
        LogBuilder log = new LogBuilder();
        log.runStarted();
        log.acquired(0.2, "A", "s", 1, 10.5);
        log.beliefStarted(0.2, "A", "s", 1);
        log.busy(1.5, "B", "s", "A", 1);
        log.expired(10.5, "A", "s", 1);                           // A still believes, running: a renewal loss
        log.acquired(12, "B", "s", 2, 20);                        // a transition; 10.5 s to 12 s unavailable
        log.beliefStarted(12, "B", "s", 2);                       // B acts on it: served again
        log.runEnded(12.5);

        List<TuningSecond> series = collector(log).series();

        assertThat(series).as("seconds 0..12").hasSize(13);
        assertThat(series.get(0)).isEqualTo(new TuningSecond(0, 0, 0, 1, 0));
        assertThat(series.get(1)).isEqualTo(new TuningSecond(1, 0, 0, 1, 0));
        assertThat(series.get(10)).isEqualTo(new TuningSecond(10, 0, 1, 0, 0.5));
        assertThat(series.get(11)).isEqualTo(new TuningSecond(11, 0, 0, 0, 1.0));
        assertThat(series.get(12)).as("the run's half of its last second, none unavailable")
                .isEqualTo(new TuningSecond(12, 1, 0, 1, 0));
    }

    @Test
    void unavailableTimeStillOpenWhenTheLogStopsCountsToItsEnd() {
        LogBuilder log = new LogBuilder();
        log.runStarted();
        log.acquired(0, "A", "s", 1, 2);
        log.beliefStarted(0, "A", "s", 1);                        // A acts on its lease: s served until 2 s
        log.busy(1, "B", "s", "A", 1);
        log.runEnded(4);                                          // B still waiting, nobody holds s

        TuningCollector c = collector(log);

        assertThat(c.metrics(Judgement.EMPTY).unavailability()).as("2 s to 4 s").isCloseTo(0.5, within(EXACT));
        assertThat(c.series()).extracting(TuningSecond::unavailableFraction).containsExactly(0.0, 0.0, 1.0, 1.0, 0.0);
        assertThat(c.metrics(Judgement.EMPTY)).as("asking does not change the answer").isEqualTo(c.metrics(Judgement.EMPTY));
    }

    private static TuningCollector collector(LogBuilder log) {
        TuningCollector c = new TuningCollector();
        c.accept(log.events());
        return c;
    }
}
