package io.fencelab.engine.metrics;

import io.fencelab.engine.check.Judgement;
import io.fencelab.engine.check.WriteClass;
import io.fencelab.engine.check.WriteJudgement;
import io.fencelab.engine.event.Event;
import io.fencelab.engine.event.SeqOrder;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.TreeMap;

/**
 * Derives the {@link TuningMetrics} of a run from its events, batch by batch while the run goes on
 * or from a whole log ({@link TuningMetrics#of}): the one place the tuning figures are defined
 * ({@code docs/TUNING.md}, ## Metrics, says the same in words). Each event costs a few map look-ups
 * (an event that changes every scope at once, a pause or a fault, one step per scope), so a console
 * can feed it every new batch; {@link #metrics} and {@link #series} do not change what was accepted
 * and may be asked for at any time. Not thread-safe: one consumer feeds and asks.
 *
 * <p>Per scope it follows the lease service's view (the latest grant, valid until it is released
 * or its expiry passes, renewals moving the expiry) against who wants the lease and who acts on it.
 * A scope is <em>served</em> while the holder of its valid lease believes it holds it and is neither
 * paused nor crashed; it is <em>wanted</em> while a worker refused with {@code LeaseBusy} waits for
 * it (until it is granted the scope, crashes, or the counter is exhausted), a holder believes it
 * holds it, or a crashed holder's scope waits for its next grant.
 */
public final class TuningCollector {

    /** The fault a crash is published as ({@code FaultInjected.fault}). */
    public static final String CRASH = "CRASH";
    /** The fault that takes the lease service away while it lasts. */
    private static final String DATABASE_RESTART = "DATABASE_RESTART";
    private static final double MICROS_PER_HOUR = 3_600_000_000.0;
    private static final int EXPIRES = 0;
    private static final int RENEWED = 1;
    private static final long MICROS_PER_SECOND = 1_000_000L;

    /** Why a wanted scope is not served, indexes of {@link Scope#unavailableMicros}. */
    private static final int FROZEN = 0;
    private static final int AWAITING_EXPIRY = 1;
    private static final int ACQUIRING = 2;
    private static final int UNREACHABLE = 3;
    private static final int SERVED = -1;

    private final Map<String, Scope> scopes = new TreeMap<>();
    private final Map<String, Integer> openPauses = new HashMap<>();
    private final Map<String, Long> lastPauseEnd = new HashMap<>();
    private final Set<String> crashed = new HashSet<>();
    private final ExactDistribution failoverTimes = new ExactDistribution();
    private final PerSecond perSecond = new PerSecond();
    private int restartsUnderWay;
    private boolean leaseRequestsFailing;
    private long transitions;
    private long pauseLosses;
    private long renewalLosses;
    private long staleRejections;
    private long wastedJobs;
    private long leaseRequests;
    private long lastSeq;
    private long lastMicros;
    private long endedMicros = -1;

    /**
     * Takes the next events of the log. The batch may be in any order; it must come after every
     * event already accepted.
     *
     * @throws IllegalArgumentException if an event's seq is not after the last one accepted
     */
    public void accept(List<? extends Event> batch) {
        for (Event event : SeqOrder.after(lastSeq, batch, "the tuning metrics")) {
            take(event);
            lastSeq = event.seq();
            lastMicros = Math.max(lastMicros, event.atMicros());
        }
    }

    /** The run's length so far: {@code RunEnded.atMicros} once it has come, else the latest event time. */
    public long runMicros() {
        return endedMicros >= 0 ? endedMicros : lastMicros;
    }

    /**
     * The figures of the events accepted so far. {@code judgement} says which accepted writes were
     * stale overwrites; only its writes up to the last event accepted here are counted.
     */
    public TuningMetrics metrics(Judgement judgement) {
        long run = runMicros();
        DurationSummary failovers = failoverTimes.summary();
        boolean any = failovers.count() > 0;
        long[] unavailable = new long[4];
        for (Scope s : scopes.values()) {
            for (int cause = 0; cause < unavailable.length; cause++) {
                unavailable[cause] += s.unavailableMicros[cause];
            }
            s.tail(run, (cause, from, to) -> unavailable[cause] += to - from);
        }
        double whole = scopes.isEmpty() || run <= 0 ? 0 : (double) run * scopes.size();
        TuningMetrics.Unavailable by = whole == 0 ? TuningMetrics.Unavailable.NONE
                : new TuningMetrics.Unavailable(unavailable[FROZEN] / whole, unavailable[AWAITING_EXPIRY] / whole,
                        unavailable[ACQUIRING] / whole, unavailable[UNREACHABLE] / whole);
        return new TuningMetrics(failovers.count(), any ? failovers.p50Micros() : null,
                any ? failovers.p99Micros() : null, any ? failovers.maxMicros() : null,
                Math.min(1, by.total()), by, perHour(pauseLosses + renewalLosses, run), perHour(pauseLosses, run),
                perHour(renewalLosses, run), perHour(transitions, run),
                perHour(staleRejections + staleOverwrites(judgement), run), wastedJobs,
                run <= 0 ? 0 : leaseRequests * (double) MICROS_PER_SECOND / run, run);
    }

    /** The figures and the per-second series of the events accepted so far, judged by {@code judgement}. */
    public TuningFigures figures(Judgement judgement) {
        return new TuningFigures(metrics(judgement), series(), TuningEpisodes.NONE);   // TODO(episodes helper): fill
    }

    /**
     * One entry per second from second 0 to the run's last, quiet seconds included. A second's
     * unavailable fraction is over the part of it inside the run.
     */
    public List<TuningSecond> series() {
        long run = runMicros();
        if (lastSeq == 0) {
            return List.of();
        }
        int seconds = (int) (Math.max(0, run) / MICROS_PER_SECOND) + 1;
        long[] unavailable = perSecond.unavailableCopy(seconds);
        for (Scope s : scopes.values()) {
            s.tail(run, (cause, from, to) -> PerSecond.spread(unavailable, from, to));
        }
        List<TuningSecond> series = new ArrayList<>(seconds);
        for (int i = 0; i < seconds; i++) {
            long inRun = Math.min(MICROS_PER_SECOND, run - i * MICROS_PER_SECOND);
            double fraction = inRun <= 0 || scopes.isEmpty() ? 0
                    : Math.min(1, unavailable[i] / ((double) inRun * scopes.size()));
            series.add(new TuningSecond(i, perSecond.get(PerSecond.TRANSITIONS, i), perSecond.get(PerSecond.LOSSES, i),
                    perSecond.get(PerSecond.REQUESTS, i), fraction));
        }
        return series;
    }

    private long staleOverwrites(Judgement judgement) {
        long n = 0;
        for (WriteJudgement w : judgement.writes().all()) {
            if (w.seq() > lastSeq) {
                break;
            }
            if (w.kind() == WriteClass.STALE_OVERWRITE) {
                n++;
            }
        }
        return n;
    }

    private static double perHour(long count, long runMicros) {
        return runMicros <= 0 ? 0 : count * MICROS_PER_HOUR / runMicros;
    }

    private void take(Event event) {
        long t = event.atMicros();
        if (changesEveryScope(event)) {
            for (Scope each : scopes.values()) {
                each.advance(t);
            }
        }
        Scope s = event.scope() == null ? null : scopes.computeIfAbsent(event.scope(), k -> new Scope());
        if (s != null) {
            s.advance(t);
        }
        switch (event) {
            case Event.LeaseAcquired e -> {
                answered(t);
                if (s.failoverSince >= 0) {
                    failoverTimes.add(t - s.failoverSince);
                    s.failoverSince = -1;
                }
                if (s.granted && !Objects.equals(s.holder, e.holder())) {
                    transitions++;
                    perSecond.add(PerSecond.TRANSITIONS, t, 1);
                }
                s.granted = true;
                s.released = false;
                s.holder = e.holder();
                s.token = e.token();
                s.expiresAt = e.expiresAtMicros();
                s.unended.put(e.token(), new long[] {e.expiresAtMicros(), t});
                s.waiting.remove(e.holder());
            }
            case Event.LeaseBusy e -> {
                answered(t);
                if (!crashed.contains(worker(e.holder()))) {
                    s.waiting.add(e.holder());
                }
            }
            case Event.LeaseExhausted e -> {
                answered(t);
                s.waiting.remove(e.holder());
            }
            case Event.LeaseRenewed e -> {
                answered(t);
                long[] lease = s.unended.get(e.token());
                if (lease != null) {
                    lease[EXPIRES] = e.expiresAtMicros();
                    lease[RENEWED] = t;
                }
                if (s.granted && s.token == e.token()) {
                    s.expiresAt = e.expiresAtMicros();
                }
            }
            case Event.LeaseRenewalFailed e -> {
                answered(t);
                long[] lease = s.unended.get(e.token());
                if (lease != null && t >= lease[EXPIRES]) {
                    lost(s, e.holder(), e.token(), t);
                }
            }
            case Event.LeaseExpired e -> {
                if (s.unended.containsKey(e.token())) {
                    lost(s, e.holder(), e.token(), t);
                }
                if (s.granted && s.token == e.token()) {
                    s.released = true;
                }
            }
            case Event.LeaseReleased e -> {
                s.unended.remove(e.token());
                if (s.granted && s.token == e.token()) {
                    s.released = true;
                }
                s.believing.remove(e.holder());
            }
            case Event.BeliefStarted e -> s.believing.add(e.holder());
            case Event.BeliefEnded e -> {
                boolean givenUp = e.cause() == Event.BeliefEnded.Cause.RENEW_DEADLINE
                        || e.cause() == Event.BeliefEnded.Cause.RENEWAL_REFUSED;
                if (givenUp && Objects.equals(e.holder(), s.holder) && s.unended.containsKey(s.token)) {
                    lost(s, e.holder(), s.token, t);   // it gave up a lease the service still had for it
                }
                s.believing.remove(e.holder());
                if (e.cause() == Event.BeliefEnded.Cause.STALE_ANSWER) {
                    wastedJobs++;
                }
            }
            case Event.PauseStarted e -> openPauses.merge(e.holder(), 1, Integer::sum);
            case Event.PauseEnded e -> {
                openPauses.computeIfPresent(e.holder(), (h, n) -> n > 1 ? n - 1 : null);
                lastPauseEnd.put(e.holder(), t);
            }
            case Event.FaultInjected e -> {
                if (CRASH.equals(e.fault()) && e.appliesTo() != null) {
                    crash(e.appliesTo(), t);
                } else if (DATABASE_RESTART.equals(e.fault())) {
                    restartsUnderWay++;
                }
            }
            case Event.FaultHealed e -> {
                if (CRASH.equals(e.fault())) {
                    crashed.remove(e.appliesTo());
                } else if (DATABASE_RESTART.equals(e.fault())) {
                    restartsUnderWay = Math.max(0, restartsUnderWay - 1);
                }
            }
            case Event.WriteRejectedStale e -> staleRejections++;
            case Event.OperationFailed e -> {
                if (isLeaseRequest(e)) {
                    request(t);
                    leaseRequestsFailing = true;
                }
            }
            case Event.RunEnded e -> endedMicros = t;
            case Event.RunStarted ignored -> { }
            case Event.WriteAttempted ignored -> { }
            case Event.WriteAccepted ignored -> { }
            case Event.WriteMissing ignored -> { }
            case Event.WriteOutOfOrder ignored -> { }
            case Event.SettingChanged ignored -> { }
        }
    }

    /**
     * Whether the event changes what every scope's time counts as (a holder paused or crashed, the
     * lease service gone or back), so each scope's time must be counted up to it first.
     */
    private boolean changesEveryScope(Event event) {
        return switch (event) {
            case Event.PauseStarted e -> true;
            case Event.PauseEnded e -> true;
            case Event.FaultInjected e -> true;
            case Event.FaultHealed e -> true;
            case Event.OperationFailed e -> isLeaseRequest(e) && !leaseRequestsFailing;
            case Event.LeaseAcquired e -> leaseRequestsFailing;
            case Event.LeaseBusy e -> leaseRequestsFailing;
            case Event.LeaseExhausted e -> leaseRequestsFailing;
            case Event.LeaseRenewed e -> leaseRequestsFailing;
            case Event.LeaseRenewalFailed e -> leaseRequestsFailing;
            default -> false;
        };
    }

    private static boolean isLeaseRequest(Event.OperationFailed e) {
        return "acquire".equals(e.operation()) || "renew".equals(e.operation());
    }

    /** The lease service answered a request at {@code t}: it is reachable again. */
    private void answered(long t) {
        request(t);
        leaseRequestsFailing = false;
    }

    private void request(long t) {
        leaseRequests++;
        perSecond.add(PerSecond.REQUESTS, t, 1);
    }

    private boolean unreachable() {
        return restartsUnderWay > 0 || leaseRequestsFailing;
    }

    /**
     * Lease {@code token} of {@code holder} on {@code s} ended without a release, first reported at
     * {@code t}. A lease loss when the holder still believed it held it and had not crashed; a pause
     * loss when the holder was paused at any moment since the lease's last grant or renewal (the
     * pause, not the renewals, lost it), else a renewal loss.
     */
    private void lost(Scope s, String holder, long token, long t) {
        long[] lease = s.unended.remove(token);
        if (!s.believing.contains(holder) || crashed.contains(worker(holder))) {
            return;
        }
        boolean pausedSinceRenewal = openPauses.containsKey(holder)
                || lease != null && lastPauseEnd.getOrDefault(holder, Long.MIN_VALUE) > lease[RENEWED];
        if (pausedSinceRenewal) {
            pauseLosses++;
        } else {
            renewalLosses++;
        }
        perSecond.add(PerSecond.LOSSES, t, 1);
    }

    /**
     * Worker {@code worker} crashed: it and every incarnation of it ({@code A#2}, … after restarts
     * with a new identity; a crash fault aimed at {@code A} hits whichever is running) stop wanting
     * anything, and a scope one of them held is failing over.
     */
    private void crash(String worker, long t) {
        crashed.add(worker);
        for (Scope s : scopes.values()) {
            s.waiting.removeIf(h -> worker.equals(worker(h)));
            s.believing.removeIf(h -> worker.equals(worker(h)));
            if (s.holder != null && worker.equals(worker(s.holder)) && s.heldAt(t) && s.failoverSince < 0) {
                s.failoverSince = t;
            }
        }
    }

    /** The worker a holder name belongs to: {@code A} for {@code A} and for its incarnations {@code A#2}, {@code A#3}, … */
    static String worker(String holder) {
        int hash = holder == null ? -1 : holder.indexOf('#');
        return hash < 0 ? holder : holder.substring(0, hash);
    }

    /** Receives a stretch {@code [from, to)} of unavailable time and its cause. */
    private interface Stretch {
        void add(int cause, long from, long to);
    }

    /** One scope: the service's latest grant, who wants the lease, and the unavailable time so far. */
    private final class Scope {
        boolean granted;
        boolean released;
        String holder;
        long token;
        long expiresAt;
        /**
         * Leases granted whose end (release, expiry) has not been reported yet: service token to
         * {expiry instant, time of the grant or last renewal}.
         */
        final Map<Long, long[]> unended = new HashMap<>();
        final Set<String> waiting = new HashSet<>();
        final Set<String> believing = new HashSet<>();
        /** When a crash left this scope's lease with no live holder; -1 when no failover is under way. */
        long failoverSince = -1;
        long advancedTo;
        /** Unavailable microseconds so far, by cause. */
        final long[] unavailableMicros = new long[4];

        boolean heldAt(long t) {
            return granted && !released && t < expiresAt;
        }

        /**
         * Why the scope is not served at an instant when its lease is ({@code held}) or is not valid,
         * or {@link #SERVED} when it is served or wanted by nobody. Nothing else changes between events.
         */
        private int cause(boolean held) {
            if (waiting.isEmpty() && believing.isEmpty() && failoverSince < 0) {
                return SERVED;   // wanted by nobody
            }
            if (!held) {
                return unreachable() ? UNREACHABLE : ACQUIRING;
            }
            if (failoverSince >= 0 || crashed.contains(worker(holder)) || !believing.contains(holder)) {
                return AWAITING_EXPIRY;   // a dead or stepped-down holder's lease serves nobody
            }
            return openPauses.containsKey(holder) ? FROZEN : SERVED;
        }

        /** Hands the unavailable stretches of [from, to) to {@code out}; the lease's expiry may split it. */
        private void unavailable(long from, long to, Stretch out) {
            if (to <= from) {
                return;
            }
            boolean validAtStart = heldAt(from);
            long split = validAtStart ? Math.min(to, expiresAt) : to;
            int first = cause(validAtStart);
            if (first != SERVED) {
                out.add(first, from, split);
            }
            int second = cause(false);
            if (split < to && second != SERVED) {
                out.add(second, split, to);
            }
        }

        void advance(long t) {
            if (t <= advancedTo) {
                return;
            }
            unavailable(advancedTo, t, (cause, from, to) -> {
                unavailableMicros[cause] += to - from;
                perSecond.unavailable(from, to);
            });
            advancedTo = t;
        }

        /** The unavailable stretches from the last event to {@code end}, without counting them. */
        void tail(long end, Stretch out) {
            if (end > advancedTo) {
                unavailable(advancedTo, end, out);
            }
        }
    }

    /** Counts and unavailable microseconds per second of run time, indexed by second. */
    private static final class PerSecond {
        static final int TRANSITIONS = 0;
        static final int LOSSES = 1;
        static final int REQUESTS = 2;
        static final int UNAVAILABLE = 3;
        private long[][] series = new long[4][64];

        void add(int which, long t, long n) {
            int i = index(t);
            grow(i);
            series[which][i] += n;
        }

        long get(int which, int second) {
            long[] a = series[which];
            return second < a.length ? a[second] : 0;
        }

        /** Adds the microseconds of [start, end) to the unavailable time of the seconds they fall in. */
        void unavailable(long start, long end) {
            grow(index(end - 1));
            spread(series[UNAVAILABLE], start, end);
        }

        /** A copy of the unavailable series, at least {@code length} long. */
        long[] unavailableCopy(int length) {
            return Arrays.copyOf(series[UNAVAILABLE], Math.max(length, series[UNAVAILABLE].length));
        }

        private void grow(int i) {
            if (i < series[0].length) {
                return;
            }
            int n = Math.max(i + 1, series[0].length * 2);
            for (int k = 0; k < series.length; k++) {
                series[k] = Arrays.copyOf(series[k], n);
            }
        }

        private static int index(long t) {
            return (int) Math.min(Integer.MAX_VALUE - 8, Math.max(0, t) / MICROS_PER_SECOND);
        }

        /** Adds the microseconds of [start, end) to the seconds of {@code bySecond} they fall in. */
        static void spread(long[] bySecond, long start, long end) {
            long from = Math.max(0, start);
            while (from < end) {
                int i = index(from);
                long to = Math.min(end, (i + 1) * MICROS_PER_SECOND);
                if (i < bySecond.length) {
                    bySecond[i] += to - from;
                }
                from = to;
            }
        }
    }
}
