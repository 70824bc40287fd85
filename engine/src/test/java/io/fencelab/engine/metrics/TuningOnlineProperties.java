package io.fencelab.engine.metrics;

import static org.assertj.core.api.Assertions.assertThat;

import io.fencelab.engine.check.Judgement;
import io.fencelab.engine.check.SafetyChecker;
import io.fencelab.engine.event.Event;
import io.fencelab.engine.event.Event.BeliefEnded.Cause;
import io.fencelab.engine.resource.TargetKind;
import io.fencelab.testing.LogBuilder;
import io.fencelab.testing.RandomLog;
import java.util.List;
import java.util.SplittableRandom;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;

/**
 * However a log is cut into batches, and however often the console asks, the tuning figures equal
 * the offline ones; and on any log they stay in range.
 */
class TuningOnlineProperties {

    private static final String[] HOLDERS = {"A", "B", "C"};
    private static final String[] SCOPES = {"s", "t"};

    @Property(tries = 200)
    void onlineInRandomBatchesEqualsOffline(@ForAll long seed, @ForAll @IntRange(min = 0, max = 300) int length) {
        List<Event> log = leaseLog(seed, length);
        Judgement judgement = SafetyChecker.judgement(log);
        SplittableRandom random = new SplittableRandom(seed ^ 0x9E3779B97F4A7C15L);

        TuningCollector online = new TuningCollector();
        for (List<Event> batch : RandomLog.batches(log, random)) {
            online.accept(batch);
            if (random.nextBoolean()) {
                online.metrics(judgement);   // as the console does, a few times a second
                online.series();
            }
        }

        TuningCollector offline = new TuningCollector();
        offline.accept(log);
        assertThat(online.metrics(judgement)).as("seed %d", seed).isEqualTo(TuningMetrics.of(log, judgement));
        assertThat(online.series()).as("seed %d", seed).isEqualTo(offline.series());
        assertThat(online.figures(judgement).episodes()).as("seed %d: the failovers and losses listed", seed)
                .isEqualTo(offline.figures(judgement).episodes());
    }

    @Property(tries = 200)
    void theListsHoldWhatTheFiguresCount(@ForAll long seed, @ForAll @IntRange(min = 0, max = 300) int length) {
        List<Event> log = leaseLog(seed, length);
        TuningFigures figures = TuningFigures.of(log, SafetyChecker.judgement(log));
        TuningMetrics m = figures.totals();
        TuningEpisodes episodes = figures.episodes();
        double hours = m.runMicros() / 3.6e9;

        assertThat(episodes.failovers().stream().filter(f -> f.toMicros() != null).count())
                .as("seed %d: one finished failover listed per failover counted", seed).isEqualTo(m.failovers());
        assertThat(episodes.failovers()).as("seed %d: a failover never ends before it starts", seed)
                .allSatisfy(f -> assertThat(f.micros() == null || f.micros() >= 0).isTrue());
        assertThat(episodes.failovers()).as("seed %d: listed in order of their start", seed)
                .isSortedAccordingTo(java.util.Comparator.comparingLong(Failover::fromMicros));
        if (hours > 0) {
            assertThat(episodes.leaseLosses().stream().filter(l -> l.kind() == LeaseLoss.Kind.PAUSE).count())
                    .as("seed %d: pause losses", seed).isEqualTo(Math.round(m.pauseLossesPerHour() * hours));
            assertThat(episodes.leaseLosses().stream().filter(l -> l.kind() == LeaseLoss.Kind.RENEWAL).count())
                    .as("seed %d: renewal losses", seed).isEqualTo(Math.round(m.renewalLossesPerHour() * hours));
        }
        assertThat(episodes.failoversLeftOut() + episodes.leaseLossesLeftOut()).as("seed %d: a short run lists all", seed)
                .isZero();
    }

    @Property(tries = 200)
    void figuresStayInRange(@ForAll long seed, @ForAll @IntRange(min = 0, max = 300) int length) {
        List<Event> log = leaseLog(seed, length);
        TuningCollector c = new TuningCollector();
        c.accept(log);
        TuningMetrics m = c.metrics(SafetyChecker.judgement(log));

        assertThat(m.unavailability()).as("seed %d", seed).isBetween(0.0, 1.0);
        assertThat(c.series()).allSatisfy(s -> assertThat(s.unavailableFraction()).isBetween(0.0, 1.0));
        if (m.failovers() > 0) {
            assertThat(m.failoverP50Micros()).isLessThanOrEqualTo(m.failoverP99Micros());
            assertThat(m.failoverP99Micros()).isLessThanOrEqualTo(m.failoverMaxMicros());
        }
        double seconds = m.runMicros() / 1e6;
        long requests = c.series().stream().mapToLong(TuningSecond::leaseRequests).sum();
        if (seconds > 0) {
            assertThat(m.leaseLoadPerSecond() * seconds).as("per second and per run agree")
                    .isCloseTo(requests, org.assertj.core.api.Assertions.within(1e-6));
        }
    }

    /** A random log of lease traffic with crashes, pauses and beliefs, times never going back. */
    private static List<Event> leaseLog(long seed, int length) {
        SplittableRandom random = new SplittableRandom(seed);
        LogBuilder log = new LogBuilder();
        log.runStarted();
        double now = 0;
        long[] token = {0, 0};
        for (int i = 1; i < length; i++) {
            now += random.nextInt(0, 3000) / 1000.0;
            String h = HOLDERS[random.nextInt(HOLDERS.length)];
            int si = random.nextInt(SCOPES.length);
            String s = SCOPES[si];
            long t = Math.max(1, token[si]);
            switch (random.nextInt(14)) {
                case 0, 1 -> log.acquired(now, h, s, ++token[si], now + random.nextInt(1, 8));
                case 2 -> log.busy(now, h, s, "A", t);
                case 3 -> log.renewed(now, h, s, t, now + random.nextInt(1, 8));
                case 4 -> log.renewalFailed(now, h, s, t);
                case 5 -> log.expired(now, h, s, t);
                case 6 -> log.released(now, h, s, t);
                case 7 -> log.beliefStarted(now, h, s, t);
                case 8 -> {
                    boolean stale = random.nextBoolean();
                    log.beliefEnded(now, h, s, t, stale ? Cause.STALE_ANSWER : Cause.RELEASED,
                            stale ? "stale: token 1 is older than 2" : "released");
                }
                case 9 -> log.pauseStarted(now, h, random.nextInt(1, 5));
                case 10 -> log.pauseEnded(now, h);
                case 11 -> log.crashed(now, h, random.nextInt(0, 5));
                case 12 -> log.faultHealed(now, "CRASH", h);
                default -> {
                    if (random.nextBoolean()) {
                        log.accepted(now, h, s, t, TargetKind.ROW, "k", "v" + i);
                    } else {
                        log.rejectedStale(now, h, s, t, TargetKind.ROW, "k", t + 1);
                    }
                }
            }
        }
        if (random.nextBoolean()) {
            log.runEnded(now + random.nextInt(0, 5));
        }
        return log.events();
    }
}
