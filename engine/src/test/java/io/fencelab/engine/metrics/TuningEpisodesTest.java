package io.fencelab.engine.metrics;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import io.fencelab.engine.check.Judgement;
import io.fencelab.engine.event.Event.BeliefEnded.Cause;
import io.fencelab.engine.metrics.TuningMetrics.Unavailable;
import io.fencelab.testing.LogBuilder;
import org.junit.jupiter.api.Test;

/**
 * The failovers and lease losses a run lists, on hand-built logs of one scope with the answer worked
 * out by hand: where each failover starts for each cause, where it ends, and what was behind it.
 */
class TuningEpisodesTest {

    private static final long S = 1_000_000;

    private static TuningFigures figures(LogBuilder log) {
        return TuningFigures.of(log.events(), Judgement.EMPTY);
    }

    @Test
    void aLeaderFrozenPastItsLeaseFailsOverFromThePauseStartAndLosesTheLeaseToThePause() {
        TuningEpisodes e = figures(LeaseStories.frozenLeader()).episodes();

        assertThat(e.failovers()).as("nobody acted on the scope from the pause start until B's grant").containsExactly(
                new Failover("leader", 4 * S, 12 * S, "A", "B", Failover.Cause.LEASE_LOST, "pause of 12.0s (gc)"));
        assertThat(e.leaseLosses()).as("one loss, to the pause, reported at the expiry; B granted 2 s later")
                .containsExactly(new LeaseLoss(10 * S, "leader", "A", 1, LeaseLoss.Kind.PAUSE, LeaseLoss.Reason.EXPIRED,
                        12 * S, 2 * S));
    }

    @Test
    void aLeaderSteppingDownAwakeFailsOverFromItsStepDown() {
        LogBuilder log = LeaseStories.aHoldsAndBWaits("leader", 15);
        log.renewed(2, "A", "leader", 1, 17);
        log.beliefEnded(14, "A", "leader", 1, Cause.RENEW_DEADLINE, "renew deadline: no renewal succeeded for 12s");
        log.expired(17, "A", "leader", 1);
        log.acquired(18, "B", "leader", 2, 33);
        log.beliefStarted(18, "B", "leader", 2);
        log.runEnded(20);

        assertThat(figures(log).episodes().failovers()).as("awake until it stepped down at 14 s: from there to 18 s")
                .extracting(Failover::fromMicros, Failover::toMicros, Failover::cause)
                .containsExactly(org.assertj.core.groups.Tuple.tuple(14 * S, 18 * S, Failover.Cause.STEP_DOWN));
    }

    @Test
    void aKubernetesLeaderWakingPastItsRenewDeadlineFailsOverFromThePauseItWokeFromUntilTheCandidatesGrant() {
        LogBuilder log = LeaseStories.aHoldsAndBWaits("leader", 15);
        log.renewed(2, "A", "leader", 1, 17);
        log.pauseStarted(4, "A", 8);                  // wakes at 12 s, past its 10 s renew deadline
        log.pauseEnded(12, "A");
        log.beliefEnded(12, "A", "leader", 1, Cause.RENEW_DEADLINE, "renew deadline: no renewal succeeded for 10s");
        log.busy(14, "B", "leader", "A", 1);          // refused: the service still has A's lease until 17 s
        log.expired(17, "A", "leader", 1);
        log.acquired(18, "B", "leader", 2, 33);
        log.beliefStarted(18, "B", "leader", 2);
        log.runEnded(20);

        TuningFigures f = figures(log);

        assertThat(f.episodes().failovers())
                .as("a step-down on waking, the lease still valid: from the freeze at 4 s (A acted no more) to B's grant at 18 s")
                .containsExactly(new Failover("leader", 4 * S, 18 * S, "A", "B", Failover.Cause.STEP_DOWN,
                        "pause of 8.0s (gc)"));
        assertThat(f.episodes().leaseLosses()).as("the step-down is the loss; the expiry at 17 s is the same one")
                .containsExactly(new LeaseLoss(12 * S, "leader", "A", 1, LeaseLoss.Kind.PAUSE,
                        LeaseLoss.Reason.RENEW_DEADLINE, 8 * S, 6 * S));
        assertThat(f.totals().unavailableBy()).as("8 s frozen (4-12), 5 s awaiting the expiry (12-17), 1 s acquiring")
                .isEqualTo(new Unavailable(0.4, 0.25, 0.05, 0));
        assertThat(f.totals().failoverMaxMicros()).isEqualTo(14 * S);
    }

    @Test
    void aCrashFailsOverFromTheCrashAndItsLeasesExpiryIsNoSecondFailoverNorALoss() {
        TuningEpisodes e = figures(LeaseStories.crashedLeader()).episodes();

        assertThat(e.failovers()).as("one leaderless stretch, from the crash to B's grant").containsExactly(
                new Failover("leader", 4 * S, 11 * S, "A", "B", Failover.Cause.CRASH, "fault CRASH on A"));
        assertThat(e.leaseLosses()).as("a crash loses no lease a living holder believed in").isEmpty();
    }

    @Test
    void aRefusedRenewalIsARenewalLossAndAStepDownWhileTheLeaseIsStillValid() {
        TuningEpisodes e = figures(LeaseStories.refusedRenewal()).episodes();

        assertThat(e.leaseLosses()).as("no pause, no fault: a renewal loss with nothing known behind it")
                .containsExactly(new LeaseLoss(6 * S, "s", "A", 1, LeaseLoss.Kind.RENEWAL,
                        LeaseLoss.Reason.RENEWAL_REFUSED, null, 7 * S));
        assertThat(e.failovers()).containsExactly(
                new Failover("s", 6 * S, 13 * S, "A", "B", Failover.Cause.STEP_DOWN, null));
    }

    @Test
    void renewalsDroppedByAFaultLoseTheLeaseAtItsExpiryWithTheFaultBehindIt() {
        LogBuilder log = LeaseStories.aHoldsAndBWaits("s", 10);
        log.faultInjected(2, "RENEWAL_LOSS", "A");
        log.expired(10, "A", "s", 1);
        log.acquired(11, "B", "s", 2, 21);
        log.runEnded(20);

        TuningEpisodes e = figures(log).episodes();

        assertThat(e.failovers()).as("lost at the expiry while A ran and believed").containsExactly(
                new Failover("s", 10 * S, 11 * S, "A", "B", Failover.Cause.LEASE_LOST, "fault RENEWAL_LOSS on A"));
        assertThat(e.leaseLosses()).extracting(LeaseLoss::kind, LeaseLoss::reason, LeaseLoss::nextHolderAfterMicros)
                .as("a renewal loss at the expiry, B granted a second later")
                .containsExactly(org.assertj.core.groups.Tuple.tuple(LeaseLoss.Kind.RENEWAL, LeaseLoss.Reason.EXPIRED, S));
    }

    @Test
    void aHolderLettingGoOnItsOwnClockWhileTheLeaseIsValidStepsDownWithoutALoss() {
        LogBuilder log = LeaseStories.aHoldsAndBWaits("s", 10);
        log.beliefEnded(7, "A", "s", 1, Cause.OWN_CLOCK, "its own clock says the lease expired");
        log.expired(10, "A", "s", 1);
        log.acquired(10.5, "B", "s", 2, 20);
        log.runEnded(20);

        TuningEpisodes e = figures(log).episodes();

        assertThat(e.failovers()).as("candidates wait from its step-down at 7 s until the grant at 10.5 s")
                .containsExactly(new Failover("s", 7 * S, 10_500_000L, "A", "B", Failover.Cause.STEP_DOWN, null));
        assertThat(e.leaseLosses()).as("it gave the lease up on its own judgement: nothing lost it believed in").isEmpty();
    }

    @Test
    void threeReplicasDownAtOnceLeaveAFailoverOpenAtTheRunsEndOutOfThePercentiles() {
        LogBuilder log = LeaseStories.aHoldsAndBWaits("leader", 10);
        log.busy(1, "C", "leader", "A", 1);
        log.crashed(4, "A", 30);
        log.crashed(4, "B", 30);
        log.crashed(4, "C", 30);
        log.expired(10, "A", "leader", 1);
        log.runEnded(20);

        TuningFigures f = figures(log);

        assertThat(f.episodes().failovers()).as("still under way when the run ended: no end, no next holder")
                .containsExactly(new Failover("leader", 4 * S, null, "A", null, Failover.Cause.CRASH, "fault CRASH on A"));
        assertThat(f.episodes().failovers().getFirst().micros()).isNull();
        assertThat(f.totals().failovers()).as("only finished failovers are in the percentiles").isZero();
        assertThat(f.totals().failoverMaxMicros()).isNull();
        assertThat(f.totals().unavailability()).as("unserved from the crash to the end: 16 s of 20")
                .isCloseTo(0.8, within(1e-9));
    }

    @Test
    void anExpiryReportedAfterTheNextGrantIsOneFailoverEndingAtThatGrant() {
        LogBuilder log = LeaseStories.aHoldsAndBWaits("s", 10);
        log.pauseStarted(6, "A", 10);
        log.acquired(10.2, "B", "s", 2, 20);          // a live run's expiry timer fired late:
        log.expired(10.2, "A", "s", 1);               // the expiry is reported after B's grant
        log.pauseEnded(16, "A");
        log.runEnded(20);

        TuningFigures f = figures(log);

        assertThat(f.episodes().failovers()).as("from A's pause to B's grant, found when the expiry was reported")
                .containsExactly(new Failover("s", 6 * S, 10_200_000L, "A", "B", Failover.Cause.LEASE_LOST,
                        "pause of 10.0s (gc)"));
        assertThat(f.episodes().leaseLosses()).extracting(LeaseLoss::nextHolderAfterMicros)
                .as("the next holder was already granted when the loss was reported").containsExactly(0L);
        assertThat(f.totals().failovers()).isEqualTo(1);
    }

    @Test
    void aRunListsTheFirstEpisodesOfEachKindAndCountsTheRest() {
        int losses = TuningEpisodes.KEPT_PER_KIND + 5;
        LogBuilder log = new LogBuilder();
        log.runStarted();
        for (int i = 0; i < losses; i++) {
            double t = i * 10;
            log.acquired(t, "A", "s", i + 1, t + 5);
            log.beliefStarted(t, "A", "s", i + 1);
            log.expired(t + 5, "A", "s", i + 1);   // lost while running: a renewal loss, and a failover
        }
        log.runEnded(losses * 10.0);

        TuningFigures f = figures(log);

        assertThat(f.episodes().leaseLosses()).as("the first ones listed").hasSize(TuningEpisodes.KEPT_PER_KIND);
        assertThat(f.episodes().leaseLossesLeftOut()).as("the rest counted").isEqualTo(5);
        assertThat(f.episodes().failovers()).hasSize(TuningEpisodes.KEPT_PER_KIND);
        assertThat(f.episodes().failoversLeftOut()).isEqualTo(5);
        assertThat(f.totals().leaseLossesPerHour() * f.totals().runMicros() / 3.6e9).as("the figures count them all")
                .isCloseTo(losses, within(1e-6));
        assertThat(f.totals().failovers()).as("every failover but the last, which the run ended in")
                .isEqualTo(losses - 1);
    }
}
