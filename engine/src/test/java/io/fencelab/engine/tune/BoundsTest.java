package io.fencelab.engine.tune;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import io.fencelab.engine.event.Event;
import io.fencelab.engine.event.Event.BeliefEnded.Cause;
import io.fencelab.engine.lease.LeaseProfile;
import io.fencelab.engine.metrics.Failover;
import io.fencelab.engine.metrics.TuningEpisodes;
import io.fencelab.engine.metrics.TuningFigures;
import io.fencelab.engine.metrics.TuningMetrics;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;

class BoundsTest {

    private static final Duration IDLE = Duration.ofSeconds(1);

    @Nested
    class Formulas {

        @Test
        void genericHoldsThroughPausesShorterThanTtlMinusRenewalAndLosesLongerThanTtl() {
            Bounds b = Bounds.of(new LeaseProfile.Generic(s(10), s(2)), IDLE);

            assertThat(b.survivedPauseSeconds()).as("ttl − renewEvery").isEqualTo(8);
            assertThat(b.lostPauseSeconds()).as("ttl").isEqualTo(10);
            assertThat(b.failoverSeconds()).as("ttl + idleTime").isEqualTo(11);
            assertThat(b.stepDownFailoverSeconds()).as("the lease is left to expire").isEqualTo(11);
        }

        @Test
        void kubernetesLosesLeadershipAtItsRenewDeadlineBeforeItsLeaseExpires() {
            Bounds b = Bounds.of(LeaseProfile.Kubernetes.DEFAULT, IDLE);

            assertThat(b.lostPauseSeconds()).as("min(leaseDuration 15, retryPeriod 2 + renewDeadline 10)")
                    .isEqualTo(12);
            assertThat(b.survivedPauseSeconds()).as("min(leaseDuration − retryPeriod, renewDeadline)").isEqualTo(10);
            assertThat(b.failoverSeconds()).as("leaseDuration + 2.2 × retryPeriod").isCloseTo(19.4, within(1e-9));
            assertThat(b.stepDownFailoverSeconds())
                    .as("the lease has at most leaseDuration − (retryPeriod + renewDeadline) left at the step-down, then a retry")
                    .isCloseTo(15 - 12 + 4.4, within(1e-9));
        }

        @Test
        void kubernetesWithALeaseShorterThanItsDeadlineLosesTheLeaseFirst() {
            Bounds b = Bounds.of(new LeaseProfile.Kubernetes(s(11), s(10), s(2)), IDLE);

            assertThat(b.lostPauseSeconds()).as("the lease (11 s) expires before the deadline (12 s)").isEqualTo(11);
            assertThat(b.survivedPauseSeconds()).isEqualTo(9);
        }

        @Test
        void releaseOnCancelLeavesOnlyTheRetryAfterAStepDown() {
            Bounds b = Bounds.of(new LeaseProfile.Kubernetes(s(15), s(10), s(2), true), IDLE);

            assertThat(b.stepDownFailoverSeconds()).as("2.2 × retryPeriod").isCloseTo(4.4, within(1e-9));
            assertThat(b.failoverSeconds()).as("a crash still waits for the lease").isCloseTo(19.4, within(1e-9));
        }

        @Test
        void etcdKeepsAliveAtItsFirstLookAfterAThirdAndClosesTheSessionAfterTtl() {
            Bounds b = Bounds.of(new LeaseProfile.Etcd(s(60)), IDLE);

            assertThat(b.survivedPauseSeconds()).as("60 s − (20 s + the 500 ms look)").isEqualTo(39.5);
            assertThat(b.lostPauseSeconds()).isEqualTo(60);
        }

        @Test
        void redissonsWatchdogExtendsEveryThirdAndNeverGivesUp() {
            Bounds b = Bounds.of(new LeaseProfile.Redisson(s(30)), IDLE);

            assertThat(b.survivedPauseSeconds()).isEqualTo(20);
            assertThat(b.lostPauseSeconds()).isEqualTo(30);
        }

        @Test
        void consulGivesUpAfterTtlAlthoughItsServersGrantTwiceThatAndWaitsOutTheLockDelay() {
            Bounds b = Bounds.of(new LeaseProfile.Consul(s(15), s(5)), IDLE);

            assertThat(b.lostPauseSeconds()).as("the client gives up after ttl").isEqualTo(15);
            assertThat(b.survivedPauseSeconds()).as("ttl − ttl/2").isEqualTo(7.5);
            assertThat(b.failoverSeconds()).as("2 × ttl + lockDelay + idleTime").isEqualTo(36);
        }

        @Test
        void zookeeperIsSuspendedAtTwoThirdsOfTheSessionTimeout() {
            Bounds b = Bounds.of(new LeaseProfile.ZooKeeper(s(30)), IDLE);

            assertThat(b.lostPauseSeconds()).isEqualTo(20);
            assertThat(b.survivedPauseSeconds()).isEqualTo(10);
            assertThat(b.failoverSeconds()).as("the session timeout + idleTime").isEqualTo(31);
        }

        @Test
        void shedLockWithoutKeepAliveHasNoPauseItAlwaysSurvives() {
            assertThat(Bounds.of(new LeaseProfile.ShedLock(s(60), false), IDLE).survivedPauseSeconds()).isNaN();
            Bounds keptAlive = Bounds.of(new LeaseProfile.ShedLock(s(60), true), IDLE);
            assertThat(keptAlive.survivedPauseSeconds()).as("extended every half").isEqualTo(30);
            assertThat(keptAlive.lostPauseSeconds()).isEqualTo(60);
        }
    }

    @Nested
    class Measuring {

        @Test
        void aLeaderSteppingDownAsItWakesLostItsLeaseToThePause() {
            Log log = new Log();
            log.acquired(0, "B", "s");
            log.add(seq -> new Event.PauseStarted(seq, micros(100), "B", micros(15.19), "pause fault"));
            log.add(seq -> new Event.PauseEnded(seq, micros(115.19), "B"));
            log.add(seq -> new Event.BeliefEnded(seq, micros(115.19), "B", "s", 1, Cause.RENEW_DEADLINE,
                    "renew deadline"));

            assertThat(Bounds.measure(log.events)).as("the 15.19 s pause cost the lease although it never expired")
                    .containsEntry("shortestLostPauseSeconds", 15.19)
                    .containsEntry("longestSurvivedPauseSeconds", Double.NaN);
        }

        @Test
        void aLeaderRenewingAfterItWakesSurvivedThePause() {
            Log log = new Log();
            log.acquired(0, "B", "s");
            log.add(seq -> new Event.PauseStarted(seq, micros(100), "B", micros(9), "pause fault"));
            log.add(seq -> new Event.PauseEnded(seq, micros(109), "B"));
            log.add(seq -> new Event.LeaseRenewed(seq, micros(109), "B", "s", 1, micros(124)));
            log.add(seq -> new Event.BeliefEnded(seq, micros(200), "B", "s", 1, Cause.RENEW_DEADLINE,
                    "renew deadline"));

            assertThat(Bounds.measure(log.events)).containsEntry("longestSurvivedPauseSeconds", 9.0)
                    .containsEntry("shortestLostPauseSeconds", Double.NaN);
        }

        @Test
        void aSurvivedPauseLongerThanTheBoundIsPastItAndSaysWhy() {
            Log log = new Log();
            log.acquired(0, "B", "s");
            log.add(seq -> new Event.FaultInjected(seq, micros(90), "REQUEST_DELAY", "B", micros(30), null));
            log.add(seq -> new Event.PauseStarted(seq, micros(100), "B", micros(13), "pause fault"));
            log.add(seq -> new Event.PauseEnded(seq, micros(113), "B"));
            log.add(seq -> new Event.FaultHealed(seq, micros(120), "REQUEST_DELAY", "B"));
            Bounds bounds = Bounds.of(LeaseProfile.Kubernetes.DEFAULT, IDLE);

            List<Bounds.PastBound> past = bounds.check(log.events, TuningFigures.NONE);

            assertThat(past).as("13 s kept past the 12 s bound").singleElement().satisfies(p -> {
                assertThat(p.bound()).isEqualTo(Bounds.Bound.LOST_PAUSE);
                assertThat(p.modelled()).as("a request delay is not in the bound").isFalse();
                assertThat(p.why()).contains("B kept its lease through a pause of 13.0 s (pause fault) at 100.0 s")
                        .contains("requests of B were delayed from 100.0 s to 113.0 s");
            });
        }
    }

    @Nested
    class Explaining {

        @Test
        void allReplicasDownAtOnceIsNamedWithItsWindow() {
            Log log = allDownOnce();

            Bounds.Explanation why = Bounds.explain(log.events, "s", micros(580), micros(601));

            assertThat(why.modelled()).as("the bound assumes a candidate alive").isFalse();
            assertThat(why.words()).contains("all 3 replicas down from 593.8 s to 599.7 s");
        }

        @Test
        void anOutageOfTheLeaseServiceIsNamedWithItsWindow() {
            Log log = threeReplicas();
            log.crash(100, "A");
            log.add(seq -> new Event.FaultInjected(seq, micros(102), "DATABASE_RESTART", "database", micros(20), null));
            log.add(seq -> new Event.FaultHealed(seq, micros(122), "DATABASE_RESTART", "database"));
            log.acquired(123, "B", "s");

            Bounds.Explanation why = Bounds.explain(log.events, "s", micros(100), micros(123));

            assertThat(why.modelled()).isFalse();
            assertThat(why.words()).contains("the lease service was unreachable (database restart) from 102.0 s to 122.0 s");
        }

        @Test
        void failedLeaseRequestsReadAsAnUnreachableService() {
            Log log = threeReplicas();
            log.crash(100, "A");
            log.add(seq -> new Event.OperationFailed(seq, micros(104), "B", "acquire", "connection refused"));
            log.add(seq -> new Event.OperationFailed(seq, micros(110), "C", "acquire", "connection refused"));
            log.acquired(118, "B", "s");

            Bounds.Explanation why = Bounds.explain(log.events, "s", micros(100), micros(118));

            assertThat(why.words()).contains("the lease service was unreachable from 104.0 s to 118.0 s (connection refused)");
        }

        @Test
        void aWindowWithNothingTheBoundLeavesOutIsABugToReport() {
            Log log = threeReplicas();
            log.crash(100, "A");
            log.acquired(140, "B", "s");

            Bounds.Explanation why = Bounds.explain(log.events, "s", micros(100), micros(140));

            assertThat(why.modelled()).isTrue();
            assertThat(why.words()).contains("please report it");
        }

        @Test
        void aFailoverEpisodePastTheBoundCarriesTheExplanation() {
            Log log = allDownOnce();
            Failover f = new Failover("s", micros(580), micros(601), "A", "C", Failover.Cause.CRASH, null);
            TuningFigures figures = new TuningFigures(TuningMetrics.NONE, List.of(),
                    new TuningEpisodes(List.of(f), List.of()));

            List<Bounds.PastBound> past = Bounds.of(LeaseProfile.Kubernetes.DEFAULT, IDLE).check(log.events, figures);

            assertThat(past).singleElement().satisfies(p -> {
                assertThat(p.bound()).isEqualTo(Bounds.Bound.FAILOVER);
                assertThat(p.modelled()).isFalse();
                assertThat(p.why()).startsWith("a failover of 21.0 s after A crashed at 580.0 s: all 3 replicas down");
            });
        }

        @Test
        void aStepDownOnWakingIsCountedFromThePauseAndHeldToTheCrashBound() {
            Log log = new Log();
            log.acquired(0, "A", "s");
            log.add(seq -> new Event.PauseStarted(seq, micros(100), "A", micros(13), "pause fault"));
            log.add(seq -> new Event.PauseEnded(seq, micros(113), "A"));
            log.add(seq -> new Event.BeliefEnded(seq, micros(113), "A", "s", 1, Cause.RENEW_DEADLINE,
                    "renew deadline"));
            Failover f = new Failover("s", micros(100), micros(116), "A", "B", Failover.Cause.STEP_DOWN,
                    "pause of 13.0s (pause fault)");
            TuningFigures figures = new TuningFigures(TuningMetrics.NONE, List.of(),
                    new TuningEpisodes(List.of(f), List.of()));
            Bounds bounds = Bounds.of(LeaseProfile.Kubernetes.DEFAULT, IDLE);

            assertThat(f.micros() / 1e6).as("longer than a step-down's own bound").isGreaterThan(
                    bounds.stepDownFailoverSeconds());
            assertThat(bounds.check(log.events, figures)).as("16 s from the freeze is within the crash bound %.1f s",
                    bounds.failoverSeconds()).isEmpty();
        }

        @Test
        void pastBoundsSurviveTheResultsFileCell() {
            List<Bounds.PastBound> past = List.of(
                    new Bounds.PastBound(Bounds.Bound.FAILOVER, false, "all 3 replicas down, from 1 s | to 2 s"),
                    new Bounds.PastBound(Bounds.Bound.LOST_PAUSE, true, "nothing"));

            String cell = Bounds.PastBound.cell(past);

            assertThat(cell).as("a CSV cell").doesNotContain(",");
            assertThat(Bounds.PastBound.parse(cell)).containsExactly(
                    new Bounds.PastBound(Bounds.Bound.FAILOVER, false, "all 3 replicas down; from 1 s / to 2 s"),
                    past.get(1));
            assertThat(Bounds.PastBound.parse("")).isEmpty();
        }

        /** A crashes at 580 s, B at 590 s, C at 593.8 s; C is back at 599.7 s and takes the lease at 601 s. */
        private Log allDownOnce() {
            Log log = threeReplicas();
            log.crash(580, "A");
            log.crash(590, "B");
            log.crash(593.8, "C");
            log.restart(599.7, "C");
            log.acquired(601, "C", "s");
            return log;
        }

        private Log threeReplicas() {
            Log log = new Log();
            log.acquired(0, "A", "s");
            log.add(seq -> new Event.LeaseBusy(seq, micros(1), "B", "s", "A", 1));
            log.add(seq -> new Event.LeaseBusy(seq, micros(1), "C", "s", "A", 1));
            return log;
        }
    }

    /** A hand-built log, seq in order. */
    private static final class Log {
        final List<Event> events = new ArrayList<>();

        void add(java.util.function.LongFunction<Event> e) {
            events.add(e.apply(events.size() + 1));
        }

        void acquired(double at, String holder, String scope) {
            add(seq -> new Event.LeaseAcquired(seq, micros(at), holder, scope, 1, 1, micros(at + 15)));
            add(seq -> new Event.BeliefStarted(seq, micros(at), holder, scope, 1));
        }

        void crash(double at, String worker) {
            add(seq -> new Event.FaultInjected(seq, micros(at), "CRASH", worker, micros(6), "restarts after 6s"));
        }

        void restart(double at, String worker) {
            add(seq -> new Event.FaultHealed(seq, micros(at), "CRASH", worker));
        }
    }

    private static long micros(double seconds) {
        return Math.round(seconds * 1e6);
    }

    private static Duration s(double seconds) {
        return Duration.ofMillis(Math.round(seconds * 1000));
    }
}
