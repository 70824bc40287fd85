package io.fencelab.engine.metrics;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import io.fencelab.engine.check.Judgement;
import io.fencelab.engine.event.Event;
import io.fencelab.engine.event.Event.BeliefEnded.Cause;
import io.fencelab.testing.LogBuilder;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.SplittableRandom;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;

/**
 * On random schedules of leases, beliefs, pauses, crashes and lease-service outages (every time on a
 * 10 ms grid), the collector's unavailability equals the unserved time read back slot by slot, 10 ms
 * at a time, straight from the definition in docs/TUNING.md; its lease losses equal the losses
 * counted on the same replay, and its failovers (count, percentiles, and each one listed) the
 * failovers read the same way. The reading here is deliberately simple and slow: it is not the collector.
 */
class ServedTimeProperties {

    private static final long SLOT = 10_000;
    private static final String[] HOLDERS = {"A", "B", "C"};
    private static final String[] SCOPES = {"s", "t"};
    private static final Cause[] CAUSES = Cause.values();

    @Property(tries = 150)
    void unavailabilityAndLossesEqualASlotBySlotReading(@ForAll long seed,
                                                        @ForAll @IntRange(min = 1, max = 200) int length) {
        List<Event> log = schedule(seed, length);

        TuningMetrics m = TuningMetrics.of(log, Judgement.EMPTY);
        Reading r = new Reading(log);

        assertThat(m.unavailability()).as("seed %d: unavailability", seed).isCloseTo(r.unavailability(), within(1e-9));
        assertThat(m.leaseLossesPerHour() * m.runMicros() / 3.6e9).as("seed %d: lease losses", seed)
                .isCloseTo(r.losses, within(1e-6));
    }

    @Property(tries = 150)
    void lossesAndFailoversListedAreThoseOfASeparateReading(@ForAll long seed,
                                                            @ForAll @IntRange(min = 1, max = 200) int length) {
        List<Event> log = schedule(seed, length);

        TuningFigures figures = TuningFigures.of(log, Judgement.EMPTY);
        TuningMetrics m = figures.totals();
        TuningEpisodes episodes = figures.episodes();
        Reading r = new Reading(log);

        assertThat(episodes.leaseLosses()).as("seed %d: one listed loss per loss counted", seed).hasSize((int) r.losses);
        assertThat(episodes.leaseLosses().stream().filter(l -> l.kind() == LeaseLoss.Kind.PAUSE).count())
                .as("seed %d: pause losses", seed).isEqualTo(r.pauseLosses);
        assertThat(m.pauseLossesPerHour() * m.runMicros() / 3.6e9).as("seed %d: pause losses per hour", seed)
                .isCloseTo(r.pauseLosses, within(1e-6));
        assertThat(episodes.failovers().stream().map(f -> new Stretch(f.scope(), f.fromMicros(), f.toMicros(), f.cause())))
                .as("seed %d: every failover, when it began and ended, and why", seed)
                .containsExactlyInAnyOrderElementsOf(r.failovers);
        List<Long> finished = r.failovers.stream().filter(f -> f.to() != null).map(f -> f.to() - f.from()).sorted().toList();
        assertThat(m.failovers()).as("seed %d: failovers finished within the run", seed).isEqualTo(finished.size());
        if (!finished.isEmpty()) {
            assertThat(m.failoverMaxMicros()).as("seed %d: the longest failover", seed).isEqualTo(finished.getLast());
            assertThat(m.failoverP50Micros()).as("seed %d: the median by nearest rank", seed)
                    .isEqualTo(finished.get((finished.size() + 1) / 2 - 1));
        }
    }

    /** A failover as the reading sees it. */
    record Stretch(String scope, long from, Long to, Failover.Cause cause) {}

    /** A random schedule whose lease events follow one lease service's rules; the rest is random. */
    private static List<Event> schedule(long seed, int length) {
        SplittableRandom random = new SplittableRandom(seed);
        LogBuilder log = new LogBuilder();
        log.runStarted();
        Map<String, String> holderOf = new HashMap<>();
        Map<String, Long> tokenOf = new HashMap<>();
        Map<String, Double> expiryOf = new HashMap<>();
        long counter = 0;
        double now = 0;
        for (int i = 0; i < length; i++) {
            now += random.nextInt(0, 300) / 100.0;
            String h = HOLDERS[random.nextInt(HOLDERS.length)];
            String s = SCOPES[random.nextInt(SCOPES.length)];
            boolean valid = holderOf.containsKey(s) && now < expiryOf.get(s);
            double lease = random.nextInt(1, 1000) / 100.0;
            switch (random.nextInt(12)) {
                case 0, 1 -> {
                    if (valid) {
                        log.busy(now, h, s, holderOf.get(s), tokenOf.get(s));
                    } else {
                        counter++;
                        holderOf.put(s, h);
                        tokenOf.put(s, counter);
                        expiryOf.put(s, now + lease);
                        log.acquired(now, h, s, counter, now + lease);
                        if (random.nextInt(4) > 0) {
                            log.beliefStarted(now, h, s, counter);
                        }
                    }
                }
                case 2 -> {
                    if (valid) {
                        expiryOf.put(s, now + lease);
                        log.renewed(now, holderOf.get(s), s, tokenOf.get(s), now + lease);
                    }
                }
                case 3 -> {
                    if (holderOf.containsKey(s)) {
                        log.renewalFailed(now, holderOf.get(s), s, tokenOf.get(s), "not held");
                    }
                }
                case 4 -> {
                    if (holderOf.containsKey(s) && !valid) {
                        log.expired(now, holderOf.remove(s), s, tokenOf.get(s));
                    }
                }
                case 5 -> {
                    if (valid && random.nextBoolean()) {
                        log.released(now, holderOf.remove(s), s, tokenOf.get(s));
                    }
                }
                case 6 -> log.beliefEnded(now, h, s, tokenOf.getOrDefault(s, 0L), CAUSES[random.nextInt(CAUSES.length)],
                        "random");
                case 7 -> log.pauseStarted(now, h, 1);
                case 8 -> log.pauseEnded(now, h);
                case 9 -> {
                    if (random.nextBoolean()) {
                        log.crashed(now, h, 1);
                    } else {
                        log.faultHealed(now, "CRASH", h);
                    }
                }
                case 10 -> {
                    if (random.nextBoolean()) {
                        log.faultInjected(now, "DATABASE_RESTART", null);
                    } else {
                        log.faultHealed(now, "DATABASE_RESTART", null);
                    }
                }
                default -> log.operationFailed(now, h, random.nextBoolean() ? "acquire" : "renew", "down");
            }
        }
        log.runEnded(now + random.nextInt(0, 500) / 100.0);
        return log.events();
    }

    /** Replays the log and, at every 10 ms slot, asks the definition's questions of the state then. */
    private static final class Reading {
        final Map<String, Grant> grants = new HashMap<>();
        final Map<String, Set<String>> believers = new HashMap<>();
        final Map<String, Set<String>> waiters = new HashMap<>();
        final Map<String, Integer> pauses = new HashMap<>();
        final Map<String, Long> pauseEnded = new HashMap<>();
        final Set<String> crashedWorkers = new HashSet<>();
        final Set<String> scopes = new HashSet<>();
        final Set<String> lossReported = new HashSet<>();
        /** Each holder's latest pause (the outer one): {start, end or -1 while it lasts}. */
        final Map<String, long[]> pauseSpan = new HashMap<>();
        final Map<String, Stretch> openFailover = new HashMap<>();
        final java.util.ArrayList<Stretch> failovers = new java.util.ArrayList<>();
        int restarts;
        boolean failing;
        long unservedSlots;
        long runMicros;
        long losses;
        long pauseLosses;

        record Grant(String holder, long token, long expiresAt, long renewedAt, boolean ended) {}

        Reading(List<Event> log) {
            runMicros = log.getLast().atMicros();
            int next = 0;
            for (long t = 0; t < runMicros; t += SLOT) {
                while (next < log.size() && log.get(next).atMicros() <= t) {
                    apply(log.get(next++));
                }
                for (String s : scopes) {
                    if (wanted(s) && !served(s, t)) {
                        unservedSlots++;
                    }
                }
            }
            while (next < log.size()) {
                apply(log.get(next++));
            }
            failovers.addAll(openFailover.values());   // still under way when the run ended
        }

        double unavailability() {
            return scopes.isEmpty() || runMicros <= 0 ? 0 : (double) unservedSlots * SLOT / ((double) runMicros * scopes.size());
        }

        boolean wanted(String s) {
            return !set(waiters, s).isEmpty() || !set(believers, s).isEmpty() || openFailover.containsKey(s);
        }

        boolean served(String s, long t) {
            Grant g = grants.get(s);
            return g != null && !g.ended() && t < g.expiresAt() && !openFailover.containsKey(s)
                    && set(believers, s).contains(g.holder()) && !pauses.containsKey(g.holder())
                    && !crashedWorkers.contains(worker(g.holder()));
        }

        void apply(Event event) {
            long t = event.atMicros();
            if (event.scope() != null) {
                scopes.add(event.scope());
            }
            switch (event) {
                case Event.LeaseAcquired e -> {
                    failing = false;
                    Stretch open = openFailover.remove(e.scope());
                    if (open != null) {
                        failovers.add(new Stretch(open.scope(), open.from(), t, open.cause()));
                    }
                    grants.put(e.scope(), new Grant(e.holder(), e.token(), e.expiresAtMicros(), t, false));
                    set(waiters, e.scope()).remove(e.holder());
                }
                case Event.LeaseBusy e -> {
                    failing = false;
                    if (!crashedWorkers.contains(worker(e.holder()))) {
                        set(waiters, e.scope()).add(e.holder());
                    }
                }
                case Event.LeaseExhausted e -> {
                    failing = false;
                    set(waiters, e.scope()).remove(e.holder());
                }
                case Event.LeaseRenewed e -> {
                    failing = false;
                    Grant g = grants.get(e.scope());
                    if (g != null && g.token() == e.token()) {
                        grants.put(e.scope(), new Grant(g.holder(), g.token(), e.expiresAtMicros(), t, g.ended()));
                    }
                }
                case Event.LeaseRenewalFailed e -> {
                    failing = false;
                    Grant g = grants.get(e.scope());
                    if (g != null && g.token() == e.token() && t >= g.expiresAt()) {
                        loss(e.scope(), e.holder(), g, t);
                    }
                }
                case Event.LeaseExpired e -> {
                    Grant g = grants.get(e.scope());
                    if (g != null && g.token() == e.token()) {
                        loss(e.scope(), e.holder(), g, t);
                        grants.put(e.scope(), new Grant(g.holder(), g.token(), g.expiresAt(), g.renewedAt(), true));
                    }
                }
                case Event.LeaseReleased e -> {
                    lossReported.add(e.scope() + "/" + e.token());
                    Grant g = grants.get(e.scope());
                    if (g != null && g.token() == e.token()) {
                        grants.put(e.scope(), new Grant(g.holder(), g.token(), g.expiresAt(), g.renewedAt(), true));
                    }
                    set(believers, e.scope()).remove(e.holder());
                }
                case Event.BeliefStarted e -> set(believers, e.scope()).add(e.holder());
                case Event.BeliefEnded e -> {
                    Grant g = grants.get(e.scope());
                    boolean current = g != null && g.holder().equals(e.holder()) && !g.ended()
                            && !lossReported.contains(e.scope() + "/" + g.token());
                    if ((e.cause() == Cause.RENEW_DEADLINE || e.cause() == Cause.RENEWAL_REFUSED) && current) {
                        loss(e.scope(), e.holder(), g, t);
                    } else if ((e.cause() == Cause.STALE_ANSWER || e.cause() == Cause.OWN_CLOCK) && current
                            && set(believers, e.scope()).contains(e.holder())) {
                        failover(e.scope(), Math.min(t, g.expiresAt()), Failover.Cause.STEP_DOWN);
                    }
                    set(believers, e.scope()).remove(e.holder());
                }
                case Event.PauseStarted e -> {
                    if (pauses.merge(e.holder(), 1, Integer::sum) == 1) {
                        pauseSpan.put(e.holder(), new long[] {t, -1});
                    }
                }
                case Event.PauseEnded e -> {
                    if (pauses.computeIfPresent(e.holder(), (h, n) -> n > 1 ? n - 1 : null) == null
                            && pauseSpan.containsKey(e.holder())) {
                        pauseSpan.get(e.holder())[1] = t;
                    }
                    pauseEnded.put(e.holder(), t);
                }
                case Event.FaultInjected e when "CRASH".equals(e.fault()) -> {
                    crashedWorkers.add(e.appliesTo());
                    for (String s : scopes) {
                        set(waiters, s).removeIf(h -> worker(h).equals(e.appliesTo()));
                        set(believers, s).removeIf(h -> worker(h).equals(e.appliesTo()));
                        Grant g = grants.get(s);
                        if (g != null && !g.ended() && t < g.expiresAt() && worker(g.holder()).equals(e.appliesTo())) {
                            failover(s, t, Failover.Cause.CRASH);
                        }
                    }
                }
                case Event.FaultInjected e when "DATABASE_RESTART".equals(e.fault()) -> restarts++;
                case Event.FaultHealed e when "CRASH".equals(e.fault()) -> crashedWorkers.remove(e.appliesTo());
                case Event.FaultHealed e when "DATABASE_RESTART".equals(e.fault()) -> restarts = Math.max(0, restarts - 1);
                case Event.OperationFailed e -> failing |= "acquire".equals(e.operation()) || "renew".equals(e.operation());
                default -> { }
            }
        }

        /** The first report of a lease's end: a loss if its holder, alive, still believed it held it. */
        void loss(String scope, String holder, Grant g, long t) {
            if (!lossReported.add(scope + "/" + g.token())) {
                return;
            }
            if (set(believers, scope).contains(holder) && !crashedWorkers.contains(worker(holder))) {
                losses++;
                if (pauses.containsKey(holder) || pauseEnded.getOrDefault(holder, Long.MIN_VALUE) > g.renewedAt()) {
                    pauseLosses++;
                }
                long[] p = pauseSpan.get(holder);
                if (!g.ended() && t < g.expiresAt()) {
                    boolean wokeNow = p != null && p[1] == t;   // stepped down as it woke: it stopped acting when it froze
                    failover(scope, wokeNow ? p[0] : t, Failover.Cause.STEP_DOWN);
                } else {
                    boolean expiredInPause = p != null && p[0] <= g.expiresAt() && (p[1] < 0 || p[1] > g.expiresAt());
                    failover(scope, Math.min(t, expiredInPause ? p[0] : g.expiresAt()), Failover.Cause.LEASE_LOST);
                }
            }
        }

        /** The scope lost its serving holder, unless it already had (one leaderless stretch, one failover). */
        void failover(String scope, long from, Failover.Cause cause) {
            openFailover.putIfAbsent(scope, new Stretch(scope, from, null, cause));
        }

        private static Set<String> set(Map<String, Set<String>> byScope, String scope) {
            return byScope.computeIfAbsent(scope, k -> new HashSet<>());
        }

        private static String worker(String holder) {
            int hash = holder.indexOf('#');
            return hash < 0 ? holder : holder.substring(0, hash);
        }
    }
}
