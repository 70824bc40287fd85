package io.fencelab.engine.run;

import static org.assertj.core.api.Assertions.assertThat;

import io.fencelab.engine.chaos.Distribution;
import io.fencelab.engine.chaos.FaultKind;
import io.fencelab.engine.chaos.FaultOccurrence;
import io.fencelab.engine.chaos.FaultSpec;
import io.fencelab.engine.chaos.FaultStart;
import io.fencelab.engine.event.Event;
import io.fencelab.engine.event.EventSink;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.PriorityQueue;
import org.junit.jupiter.api.Test;

/**
 * The fault timeline both executors share, computed without a database or a clock: a host that runs
 * scheduled actions in run-time order and writes each event and each effect on one line.
 */
class FaultSchedulerTest {

    /** Runs actions in run-time order (ties in scheduling order) and records what happens when. */
    private static final class VirtualHost implements FaultScheduler.Host {
        private record Due(long atMicros, long order, Runnable action) {}

        final List<String> timeline = new ArrayList<>();
        private final PriorityQueue<Due> queue = new PriorityQueue<>((a, b) -> a.atMicros != b.atMicros
                ? Long.compare(a.atMicros, b.atMicros) : Long.compare(a.order, b.order));
        private long order;
        private long now;
        private long seq;

        final EventSink sink = factory -> {
            Event e = factory.apply(++seq);
            note(switch (e) {
                case Event.PauseStarted p -> "PauseStarted " + p.holder() + " for " + seconds(p.durationMicros())
                        + " (" + p.cause() + ")";
                case Event.PauseEnded p -> "PauseEnded " + p.holder();
                case Event.FaultInjected f -> "FaultInjected " + f.fault() + " " + f.appliesTo()
                        + (f.detail() == null ? "" : " (" + f.detail() + ")");
                case Event.FaultHealed f -> "FaultHealed " + f.fault() + " " + f.appliesTo();
                default -> e.getClass().getSimpleName();
            });
            return seq;
        };

        @Override
        public long nowMicros() {
            return now;
        }

        @Override
        public void at(long atMicros, Runnable action) {
            queue.add(new Due(Math.max(atMicros, now), order++, action));
        }

        @Override
        public void killSession(String holder) {
            note("kill session of " + holder);
        }

        @Override
        public void kill(String holder, io.fencelab.engine.store.StoreSession session, boolean afterStatement) {
            note("kill the statement's session");
        }

        @Override
        public void stall(long untilMicros) {
            note("stall until " + seconds(untilMicros));
        }

        @Override
        public void stopDatabase() {
            note("stop database");
        }

        @Override
        public void startDatabase() {
            note("start database");
        }

        @Override
        public void databaseBroken(io.fencelab.engine.db.DatabaseException failure) {
            note("database broken: " + failure.endCause());
        }

        final java.util.Set<String> down = new java.util.HashSet<>();

        @Override
        public boolean running(String holder) {
            return !down.contains(holder);
        }

        @Override
        public void crash(String holder) {
            down.add(holder);
            note("crash " + holder);
        }

        @Override
        public void restart(String holder, boolean newIdentity) {
            down.remove(holder);
            note("restart " + holder + (newIdentity ? " as a new holder" : ""));
        }

        /** Runs every action due up to run time {@code t}, and leaves the clock there. */
        void runUntil(Duration t) {
            long limit = t.toNanos() / 1_000;
            while (!queue.isEmpty() && queue.peek().atMicros() <= limit) {
                Due next = queue.poll();
                now = next.atMicros();
                next.action().run();
            }
            now = limit;
        }

        private void note(String what) {
            timeline.add(seconds(now) + " " + what);
        }

        private static String seconds(long micros) {
            return Distribution.text(Duration.ofNanos(micros * 1_000));
        }
    }

    private final VirtualHost host = new VirtualHost();
    private final FaultScheduler scheduler = new FaultScheduler(host, host.sink);

    /** Schedules {@code faults}, runs a minute of run time, and returns what happened. */
    private List<String> timelineOf(PlannedFault... faults) {
        for (PlannedFault f : faults) {
            scheduler.schedule(f);
        }
        host.runUntil(Duration.ofSeconds(60));
        return host.timeline;
    }

    /** Schedules {@code fault}, cancels it at run time {@code at}, runs a minute, and returns what happened. */
    private List<String> timelineCancelledAt(PlannedFault fault, Duration at) {
        scheduler.schedule(fault);
        host.runUntil(at);
        scheduler.cancel(fault, host.nowMicros());
        host.runUntil(Duration.ofSeconds(60));
        return host.timeline;
    }

    private static PlannedFault planned(FaultKind kind, String target, int startSeconds, int lengthSeconds,
                                        Duration amount) {
        FaultOccurrence o = new FaultOccurrence(kind, target, Duration.ofSeconds(startSeconds),
                Duration.ofSeconds(lengthSeconds), amount);
        FaultSpec spec = new FaultSpec(kind, target, new FaultStart.At(o.start()), new Distribution.Fixed(o.length()),
                amount);
        return new PlannedFault(o, spec, false);
    }

    private static PlannedFault byHand(FaultKind kind, String target, int startSeconds, int lengthSeconds,
                                       Duration amount) {
        return new PlannedFault(new FaultOccurrence(kind, target, Duration.ofSeconds(startSeconds),
                Duration.ofSeconds(lengthSeconds), amount), null, true);
    }

    @Test
    void aPauseHoldsItsHolderFromItsStartToItsEndAndSaysSoAtBoth() {
        scheduler.schedule(planned(FaultKind.PAUSE, "A", 10, 35, Duration.ZERO));

        host.runUntil(Duration.ofSeconds(20));
        assertThat(scheduler.resumesAt("A")).as("A is paused until 45 s").isEqualTo(45_000_000);
        assertThat(scheduler.resumesAt("B")).as("B was never paused").isZero();
        host.runUntil(Duration.ofSeconds(60));

        assertThat(host.timeline).containsExactly(
                "10s PauseStarted A for 35s (pause fault)",
                "45s PauseEnded A");
    }

    @Test
    void overlappingPausesHoldTheHolderUntilTheLaterEnd() {
        scheduler.schedule(planned(FaultKind.PAUSE, "A", 10, 20, Duration.ZERO));
        scheduler.schedule(planned(FaultKind.PAUSE, "A", 15, 5, Duration.ZERO));

        host.runUntil(Duration.ofSeconds(16));

        assertThat(scheduler.resumesAt("A")).as("the shorter second pause does not end the first early")
                .isEqualTo(30_000_000);
    }

    @Test
    void aDatabaseRestartAnnouncesItselfBeforeStoppingAndHealsOnlyOnceTheDatabaseIsBack() {
        assertThat(timelineOf(planned(FaultKind.DATABASE_RESTART, FaultSpec.DATABASE, 5, 3, Duration.ZERO)))
                .containsExactly(
                "5s FaultInjected DATABASE_RESTART database",
                "5s stop database",
                "8s start database",
                "8s FaultHealed DATABASE_RESTART database");
    }

    @Test
    void aConnectionKillHitsItsHolderOnceAndHasNoHeal() {
        assertThat(timelineOf(planned(FaultKind.CONNECTION_KILL, "w-1", 2, 0, Duration.ZERO))).containsExactly(
                "2s FaultInjected CONNECTION_KILL w-1",
                "2s kill session of w-1");
    }

    @Test
    void aDelayFaultStartsAndHealsWithItsAmountInTheEvent() {
        assertThat(timelineOf(planned(FaultKind.REQUEST_DELAY, "A", 7, 2, Duration.ofSeconds(10)))).containsExactly(
                "7s FaultInjected REQUEST_DELAY A (amount PT10S)",
                "9s FaultHealed REQUEST_DELAY A");
    }

    @Test
    void aCrashAnnouncesItsRestartThenRestartsAfterItsDurationWithTheHealFirst() {
        PlannedFault crash = new PlannedFault(new FaultOccurrence(FaultKind.CRASH, "A", Duration.ofSeconds(5),
                Duration.ofSeconds(10), Duration.ZERO), FaultSpec.crash("A", Duration.ofSeconds(5),
                Duration.ofSeconds(10), FaultSpec.Identity.NEW), false);

        assertThat(timelineOf(crash)).containsExactly(
                "5s FaultInjected CRASH A (restarts after 10s as a new holder)",
                "5s crash A",
                "15s FaultHealed CRASH A",
                "15s restart A as a new holder");
    }

    @Test
    void aCrashWithoutRestartHasNoHealAndACrashOfADeadHolderDoesNothing() {
        assertThat(timelineOf(planned(FaultKind.CRASH, "A", 5, 0, Duration.ZERO),
                planned(FaultKind.CRASH, "A", 9, 3, Duration.ZERO))).containsExactly(
                "5s FaultInjected CRASH A (never restarts)",
                "5s crash A");
    }

    @Test
    void aCrashUnderWayIsNotUndoneWhenItsSpecIsRemoved() {
        PlannedFault crash = planned(FaultKind.CRASH, "A", 5, 10, Duration.ZERO);

        assertThat(timelineCancelledAt(crash, Duration.ofSeconds(7))).as("the process still restarts at 15 s")
                .containsExactly(
                "5s FaultInjected CRASH A (restarts after 10s as the same holder)",
                "5s crash A",
                "15s FaultHealed CRASH A",
                "15s restart A");
    }

    @Test
    void aFaultInjectedByHandSaysSoInItsEvents() {
        assertThat(timelineOf(byHand(FaultKind.PAUSE, "A", 2, 40, Duration.ZERO),
                byHand(FaultKind.REPLY_DELAY, "B", 3, 1, Duration.ofMillis(50)),
                byHand(FaultKind.RENEWAL_LOSS, "B", 6, 1, Duration.ZERO))).containsExactly(
                "2s PauseStarted A for 40s (pause by hand)",
                "3s FaultInjected REPLY_DELAY B (by hand, amount PT0.05S)",
                "4s FaultHealed REPLY_DELAY B",
                "6s FaultInjected RENEWAL_LOSS B (by hand)",
                "7s FaultHealed RENEWAL_LOSS B",
                "42s PauseEnded A");
    }

    @Test
    void aFaultCancelledBeforeItStartsNeverHappens() {
        PlannedFault restart = planned(FaultKind.DATABASE_RESTART, FaultSpec.DATABASE, 10, 5, Duration.ZERO);

        assertThat(timelineCancelledAt(restart, Duration.ofSeconds(4))).as("nothing of a cancelled fault happens")
                .isEmpty();
        assertThat(restart.activeAt(12_000_000)).as("workers see it inactive at its old time").isFalse();
    }

    @Test
    void aFaultRemovedWhileActiveHealsNowAndNotAgainAtItsEnd() {
        PlannedFault restart = planned(FaultKind.DATABASE_RESTART, FaultSpec.DATABASE, 2, 10, Duration.ZERO);

        assertThat(timelineCancelledAt(restart, Duration.ofSeconds(5))).containsExactly(
                "2s FaultInjected DATABASE_RESTART database",
                "2s stop database",
                "5s start database",
                "5s FaultHealed DATABASE_RESTART database");
        assertThat(restart.activeAt(6_000_000)).as("workers see it healed").isFalse();
    }

    @Test
    void aPauseThatHasBegunRunsItsCourseWhenItsFaultIsRemoved() {
        PlannedFault pause = planned(FaultKind.PAUSE, "A", 2, 10, Duration.ZERO);

        assertThat(timelineCancelledAt(pause, Duration.ofSeconds(5))).containsExactly(
                "2s PauseStarted A for 10s (pause fault)",
                "12s PauseEnded A");
    }
}
