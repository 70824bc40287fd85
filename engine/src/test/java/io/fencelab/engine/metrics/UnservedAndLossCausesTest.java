package io.fencelab.engine.metrics;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import io.fencelab.engine.check.Judgement;
import io.fencelab.engine.event.Event.BeliefEnded.Cause;
import io.fencelab.engine.metrics.TuningMetrics.Unavailable;
import io.fencelab.testing.LogBuilder;
import org.junit.jupiter.api.Test;

/**
 * Unavailability by cause and lease losses by kind, on hand-built logs of 20 s with one scope, each
 * against the answer worked out by hand (one loss in 20 s is 180 an hour).
 */
class UnservedAndLossCausesTest {

    private static final double EXACT = 1e-9;

    private static TuningMetrics metrics(LogBuilder log) {
        return TuningMetrics.of(log.events(), Judgement.EMPTY);
    }

    @Test
    void aLeaderFrozenPastItsLeaseIsUnservedWhileFrozenAndLosesItToThePause() {
        // Frozen from 4 s, holding until 10 s: lost while paused and still believing; heard of at 16 s.
        TuningMetrics m = metrics(LeaseStories.frozenLeader());

        assertThat(m.unavailableBy()).as("6 s frozen (4-10), 2 s acquiring (10-12), of 20 s")
                .isEqualTo(new Unavailable(0.3, 0, 0.1, 0));
        assertThat(m.unavailability()).isCloseTo(0.4, within(EXACT));
        assertThat(m.pauseLossesPerHour()).as("the pause lost it: one in 20 s").isCloseTo(180, within(EXACT));
        assertThat(m.renewalLossesPerHour()).isZero();
        assertThat(m.leaseLossesPerHour()).as("every loss counts, the pause's too").isCloseTo(180, within(EXACT));
    }

    @Test
    void aKubernetesLeaderSteppingDownWithItsLeaseStillValidLeavesCandidatesWaitingForTheExpiry() {
        LogBuilder log = LeaseStories.aHoldsAndBWaits("leader", 15);
        log.renewed(2, "A", "leader", 1, 17);         // its later renewals are lost
        log.beliefEnded(12, "A", "leader", 1, Cause.RENEW_DEADLINE, "renew deadline: no renewal succeeded for 10s");
        log.busy(14, "B", "leader", "A", 1);          // refused: the service still has A's lease until 17 s
        log.expired(17, "A", "leader", 1);            // the same loss: not counted again
        log.acquired(18, "B", "leader", 2, 33);
        log.beliefStarted(18, "B", "leader", 2);
        log.runEnded(20);

        TuningMetrics m = metrics(log);

        assertThat(m.unavailableBy()).as("5 s awaiting the expiry (12-17), 1 s acquiring (17-18), of 20 s")
                .isEqualTo(new Unavailable(0, 0.25, 0.05, 0));
        assertThat(m.renewalLossesPerHour()).as("the step-down, once").isCloseTo(180, within(EXACT));
        assertThat(m.pauseLossesPerHour()).isZero();
        assertThat(m.leaseLossesPerHour()).isCloseTo(180, within(EXACT));
    }

    @Test
    void aCrashedLeadersScopeAwaitsItsLeasesExpiryThenACandidateAndLosesNoLease() {
        TuningMetrics m = metrics(LeaseStories.crashedLeader());

        assertThat(m.unavailableBy()).as("6 s awaiting a dead holder's lease (4-10), 1 s acquiring (10-11)")
                .isEqualTo(new Unavailable(0, 0.3, 0.05, 0));
        assertThat(m.leaseLossesPerHour()).as("a crash is no lease loss").isZero();
        assertThat(m.failovers()).isEqualTo(1);
        assertThat(m.failoverP99Micros()).as("crash at 4 s, granted at 11 s").isEqualTo(7_000_000);
        assertThat(m.p99IsMax()).as("one failover: its p99 is its maximum").isTrue();
    }

    @Test
    void aRefusedRenewalIsARenewalLossAndTheLeaseLeftBehindServesNobody() {
        // The renewal refused at 6 s, before the expiry, is not yet a loss by itself; giving up on it is.
        TuningMetrics m = metrics(LeaseStories.refusedRenewal());

        assertThat(m.renewalLossesPerHour()).as("A gave up a lease the service still had for it").isCloseTo(180, within(EXACT));
        assertThat(m.pauseLossesPerHour()).isZero();
        assertThat(m.unavailableBy()).as("7 s awaiting the expiry (6-13)").isEqualTo(new Unavailable(0, 0.35, 0, 0));
    }

    @Test
    void threeReplicasDownAtOnceWaitForTheLeaseAndThenForTheFirstToComeBack() {
        LogBuilder log = LeaseStories.aHoldsAndBWaits("leader", 10);
        log.busy(1, "C", "leader", "A", 1);
        log.crashed(4, "A", 8);
        log.crashed(4, "B", 8);
        log.crashed(4, "C", 8);
        log.beliefEnded(4, "A", "leader", 1, Cause.CRASHED, "crashed");
        log.expired(10, "A", "leader", 1);
        log.faultHealed(12, "CRASH", "A");
        log.faultHealed(12, "CRASH", "B");
        log.faultHealed(12, "CRASH", "C");
        log.acquired(13, "B", "leader", 2, 23);
        log.beliefStarted(13, "B", "leader", 2);
        log.busy(13, "A", "leader", "B", 2);
        log.runEnded(20);

        TuningMetrics m = metrics(log);

        assertThat(m.unavailableBy()).as("6 s awaiting the dead lease (4-10), 3 s with nobody to acquire (10-13)")
                .isEqualTo(new Unavailable(0, 0.3, 0.15, 0));
        assertThat(m.failovers()).isEqualTo(1);
        assertThat(m.failoverMaxMicros()).as("crash at 4 s, the first replica back granted at 13 s").isEqualTo(9_000_000);
        assertThat(m.leaseLossesPerHour()).isZero();
    }

    @Test
    void aScopeWithNoValidLeaseWhileTheLeaseServiceRestartsIsUnreachable() {
        LogBuilder log = new LogBuilder();
        log.runStarted();
        log.acquired(0, "A", "s", 1, 10);
        log.beliefStarted(0, "A", "s", 1);
        log.busy(2, "B", "s", "A", 1);
        log.faultInjected(5, "DATABASE_RESTART", null);
        log.operationFailed(6, "A", "renew", "connection refused");
        log.beliefEnded(9.5, "A", "s", 1, Cause.OWN_CLOCK, "its own clock says the lease expired");
        log.faultHealed(14, "DATABASE_RESTART", null);
        log.acquired(15, "B", "s", 2, 25);            // the service's first answer after the restart
        log.beliefStarted(15, "B", "s", 2);
        log.runEnded(20);

        TuningMetrics m = metrics(log);

        assertThat(m.unavailableBy()).as("0.5 s awaiting the expiry (9.5-10), 5 s unreachable (10-15: a renewal "
                + "failed and no request has been answered since)").isEqualTo(new Unavailable(0, 0.025, 0, 0.25));
        assertThat(m.leaseLossesPerHour()).as("A let it go on its own clock first").isZero();
    }

    @Test
    void theBreakdownSumsToTheUnavailabilityAndTheLossesToTheirKinds() {
        LogBuilder log = LeaseStories.aHoldsAndBWaits("s", 5);
        log.pauseStarted(2, "A", 4);
        log.expired(5, "A", "s", 1);
        log.pauseEnded(6, "A");
        log.acquired(7, "B", "s", 2, 12);
        log.beliefStarted(7, "B", "s", 2);
        log.expired(12, "B", "s", 2);
        log.runEnded(20);

        TuningMetrics m = metrics(log);

        assertThat(m.unavailability()).isCloseTo(m.unavailableBy().total(), within(EXACT));
        assertThat(m.leaseLossesPerHour()).as("A's pause loss and B's renewal loss")
                .isCloseTo(m.pauseLossesPerHour() + m.renewalLossesPerHour(), within(EXACT))
                .isCloseTo(360, within(EXACT));
    }
}
