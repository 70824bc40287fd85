package io.fencelab.engine.metrics;

import io.fencelab.engine.chaos.FaultKind;
import io.fencelab.engine.check.Judgement;
import io.fencelab.engine.check.WriteClass;
import io.fencelab.engine.check.WriteJudgement;
import io.fencelab.engine.event.Event;
import io.fencelab.engine.event.SeqOrder;
import java.util.ArrayList;
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
 * holds it, or a failover is under way: its serving holder crashed, stepped down or lost the lease,
 * and the scope has not been granted since. Each failover and lease loss is listed
 * ({@link TuningEpisodes}) in the same step that counts it.
 */
public final class TuningCollector {

    /** The fault a crash is published as ({@code FaultInjected.fault}: the kind's name). */
    public static final String CRASH = FaultKind.CRASH.name();
    /** The fault that takes the lease service away while it lasts. */
    private static final String DATABASE_RESTART = FaultKind.DATABASE_RESTART.name();
    private static final double MICROS_PER_HOUR = 3_600_000_000.0;
    private static final long MICROS_PER_SECOND = 1_000_000L;

    /** Why a wanted scope is not served, indexes of {@link Scope#unavailableMicros}. */
    private static final int FROZEN = 0;
    private static final int AWAITING_EXPIRY = 1;
    private static final int ACQUIRING = 2;
    private static final int UNREACHABLE = 3;
    private static final int SERVED = -1;

    private final Map<String, Scope> scopes = new TreeMap<>();
    /** The holders' pauses and the faults on them: what lay behind a loss. */
    private final HolderHistory history = new HolderHistory();
    private final Set<String> crashed = new HashSet<>();
    private final ExactDistribution failoverTimes = new ExactDistribution();
    private final EpisodeRecorder episodes = new EpisodeRecorder();
    private final TuningSeconds perSecond = new TuningSeconds();
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
        return new TuningFigures(metrics(judgement), series(), episodes.episodes());
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
            s.tail(run, (cause, from, to) -> TuningSeconds.spread(unavailable, from, to));
        }
        List<TuningSecond> series = new ArrayList<>(seconds);
        for (int i = 0; i < seconds; i++) {
            long inRun = Math.min(MICROS_PER_SECOND, run - i * MICROS_PER_SECOND);
            double fraction = inRun <= 0 || scopes.isEmpty() ? 0
                    : Math.min(1, unavailable[i] / ((double) inRun * scopes.size()));
            series.add(new TuningSecond(i, perSecond.get(TuningSeconds.TRANSITIONS, i), perSecond.get(TuningSeconds.LOSSES, i),
                    perSecond.get(TuningSeconds.REQUESTS, i), fraction));
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
        Scope s = event.scope() == null ? null : scopes.computeIfAbsent(event.scope(), Scope::new);
        if (s != null) {
            s.advance(t);
        }
        switch (event) {
            case Event.LeaseAcquired e -> acquired(s, e, t);
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
                HeldLease lease = s.unended.get(e.token());
                if (lease != null) {
                    lease.renewed(e.expiresAtMicros(), t);
                }
                if (s.granted && s.token == e.token()) {
                    s.expiresAt = e.expiresAtMicros();
                }
            }
            case Event.LeaseRenewalFailed e -> {
                answered(t);
                HeldLease lease = s.unended.get(e.token());
                if (lease != null && t >= lease.expires) {
                    lost(s, e.holder(), e.token(), t, LeaseLoss.Reason.EXPIRED);
                }
            }
            case Event.LeaseExpired e -> {
                if (s.unended.containsKey(e.token())) {
                    lost(s, e.holder(), e.token(), t, LeaseLoss.Reason.EXPIRED);
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
            case Event.BeliefEnded e -> beliefEnded(s, e, t);
            case Event.PauseStarted e -> paused(e, t);
            case Event.PauseEnded e -> history.pauseEnded(e, t);
            case Event.FaultInjected e -> faultInjected(e, t);
            case Event.FaultHealed e -> faultHealed(e, t);
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
            case Event.WriteContradicted ignored -> { }
            case Event.SettingChanged ignored -> { }
            case Event.AgentReport ignored -> { }
        }
    }

    /** The service granted {@code s} to {@code e.holder()}: a failover under way ends, a new holder is a transition. */
    private void acquired(Scope s, Event.LeaseAcquired e, long t) {
        answered(t);
        if (s.failingOver) {
            endFailover(s, t, e.holder(), e.token());
        }
        s.nextGrant(t);
        if (s.granted && !Objects.equals(s.holder, e.holder())) {
            transitions++;
            perSecond.add(TuningSeconds.TRANSITIONS, t, 1);
        }
        s.granted = true;
        s.released = false;
        s.holder = e.holder();
        s.token = e.token();
        s.expiresAt = e.expiresAtMicros();
        s.grantedAt = t;
        s.unended.put(e.token(), new HeldLease(e.holder(), e.expiresAtMicros(), t));
        s.waiting.remove(e.holder());
    }

    /** A holder stopped believing: a lease it gave up is lost, one it let go starts a failover. */
    private void beliefEnded(Scope s, Event.BeliefEnded e, long t) {
        boolean givenUp = e.cause() == Event.BeliefEnded.Cause.RENEW_DEADLINE
                || e.cause() == Event.BeliefEnded.Cause.RENEWAL_REFUSED;
        boolean itsCurrentLease = Objects.equals(e.holder(), s.holder) && s.unended.containsKey(s.token);
        if (givenUp && itsCurrentLease) {
            // It gave up a lease the service still had for it.
            lost(s, e.holder(), s.token, t, e.cause() == Event.BeliefEnded.Cause.RENEW_DEADLINE
                    ? LeaseLoss.Reason.RENEW_DEADLINE : LeaseLoss.Reason.RENEWAL_REFUSED);
        } else if (letGoOnItsOwn(e.cause()) && itsCurrentLease && s.believing.contains(e.holder())) {
            // Not a loss (it let the lease go on its own judgement), but candidates now wait for the expiry.
            startFailover(s, Math.min(t, s.expiresAt), e.holder(),
                    Failover.Cause.STEP_DOWN, history.behindStepDown(e.holder(), s.unended.get(s.token)));
        }
        s.believing.remove(e.holder());
        if (e.cause() == Event.BeliefEnded.Cause.STALE_ANSWER) {
            wastedJobs++;
        }
    }

    private void faultInjected(Event.FaultInjected e, long t) {
        history.faultInjected(e);
        if (CRASH.equals(e.fault()) && e.appliesTo() != null) {
            crash(e.appliesTo(), t);
        } else if (DATABASE_RESTART.equals(e.fault())) {
            restartsUnderWay++;
        }
    }

    private void faultHealed(Event.FaultHealed e, long t) {
        history.faultHealed(e, t);
        if (CRASH.equals(e.fault())) {
            crashed.remove(e.appliesTo());
        } else if (DATABASE_RESTART.equals(e.fault())) {
            restartsUnderWay = Math.max(0, restartsUnderWay - 1);
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
        perSecond.add(TuningSeconds.REQUESTS, t, 1);
    }

    private boolean unreachable() {
        return restartsUnderWay > 0 || leaseRequestsFailing;
    }

    /**
     * Lease {@code token} of {@code holder} on {@code s} ended without a release, first reported at
     * {@code t}. A lease loss when the holder still believed it held it and had not crashed; a pause
     * loss when the holder was paused at any moment since the lease's last grant or renewal (the
     * pause, not the renewals, lost it), else a renewal loss. Each loss is also a failover of the
     * scope: a step-down when the lease was still valid, else the lease lost (dated back to the
     * start of the pause it expired in).
     */
    private void lost(Scope s, String holder, long token, long t, LeaseLoss.Reason reason) {
        HeldLease lease = s.unended.remove(token);
        if (!s.believing.contains(holder) || crashed.contains(worker(holder))) {
            return;
        }
        HolderHistory.PauseBehind pause = history.sinceRenewal(holder, lease);
        boolean pausedSinceRenewal = pause != null;
        if (pausedSinceRenewal) {
            pauseLosses++;
        } else {
            renewalLosses++;
        }
        perSecond.add(TuningSeconds.LOSSES, t, 1);
        EpisodeRecorder.OpenLoss loss = episodes.loss(t, s.name, holder, token,
                pausedSinceRenewal ? LeaseLoss.Kind.PAUSE : LeaseLoss.Kind.RENEWAL, reason,
                pausedSinceRenewal ? pause.micros() : null);
        String behind = history.behind(holder, lease, pause);
        boolean current = s.granted && s.token == token;
        if (current) {
            if (loss != null) {
                s.awaitingGrant.add(loss);
            }
            if (s.heldAt(t)) {
                startFailover(s, history.wokeAt(holder, t), holder, Failover.Cause.STEP_DOWN, behind);
            } else {
                startFailover(s, Math.min(t, history.pauseStartAround(holder, lease.expires)), holder,
                        Failover.Cause.LEASE_LOST, behind);
            }
        } else {
            // The service granted the scope again before the expiry was reported (a late expiry timer).
            if (loss != null) {
                loss.nextGrant(s.grantedAt);
            }
            if (s.closedBy != s.token && !s.failingOver) {
                startFailover(s, Math.min(s.grantedAt, history.pauseStartAround(holder, lease.expires)), holder,
                        Failover.Cause.LEASE_LOST, behind);
                endFailover(s, s.grantedAt, s.holder, s.token);
            }
        }
    }

    /** Whether a holder ending its belief for {@code cause} let its lease go on its own judgement, losing nothing. */
    private static boolean letGoOnItsOwn(Event.BeliefEnded.Cause cause) {
        return cause == Event.BeliefEnded.Cause.STALE_ANSWER || cause == Event.BeliefEnded.Cause.OWN_CLOCK;
    }

    /**
     * Scope {@code s} lost its serving holder at {@code from}: a failover is under way until its next
     * grant, unless one already is (a crash followed by its lease's expiry is one leaderless stretch).
     */
    private void startFailover(Scope s, long from, String lostBy, Failover.Cause cause, String behind) {
        if (s.failingOver) {
            return;
        }
        s.failingOver = true;
        s.failoverFrom = from;
        s.failover = episodes.failover(s.name, from, lostBy, cause, behind);
    }

    /** The failover under way on {@code s} ended with the grant of {@code token} to {@code holder} at {@code t}. */
    private void endFailover(Scope s, long t, String holder, long token) {
        failoverTimes.add(t - s.failoverFrom);
        if (s.failover != null) {
            s.failover.end(t, holder);
        }
        s.failingOver = false;
        s.failover = null;
        s.closedBy = token;
    }

    private void paused(Event.PauseStarted e, long t) {
        history.pauseStarted(e, t);
        for (Scope each : scopes.values()) {
            for (HeldLease lease : each.unended.values()) {
                if (lease.holder.equals(e.holder()) && e.durationMicros() > lease.longestPauseMicros) {
                    lease.longestPauseMicros = e.durationMicros();
                    lease.longestPauseCause = e.cause();
                }
            }
        }
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
            if (s.holder != null && worker.equals(worker(s.holder)) && s.heldAt(t)) {
                startFailover(s, t, s.holder, Failover.Cause.CRASH, "fault " + CRASH + " on " + worker);
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
        final String name;
        boolean granted;
        boolean released;
        String holder;
        long token;
        long expiresAt;
        long grantedAt;
        /** Leases granted whose end (release, expiry) has not been reported yet, by service token. */
        final Map<Long, HeldLease> unended = new HashMap<>();
        final Set<String> waiting = new HashSet<>();
        final Set<String> believing = new HashSet<>();
        /** Whether the scope lost its serving holder and has not been granted since. */
        boolean failingOver;
        /** When the failover under way began. */
        long failoverFrom;
        /** The failover under way as listed, or null (none, or left out of the list). */
        EpisodeRecorder.OpenFailover failover;
        /** The token of the grant that ended the scope's last failover; -1 before any. */
        long closedBy = -1;
        /** Listed lease losses of this scope waiting for its next grant. */
        final List<EpisodeRecorder.OpenLoss> awaitingGrant = new ArrayList<>();
        long advancedTo;
        /** Unavailable microseconds so far, by cause. */
        final long[] unavailableMicros = new long[4];

        Scope(String name) {
            this.name = name;
        }

        /** The scope was granted at {@code t}: the losses waiting for a next holder have one. */
        void nextGrant(long t) {
            for (EpisodeRecorder.OpenLoss loss : awaitingGrant) {
                loss.nextGrant(t);
            }
            awaitingGrant.clear();
        }

        boolean heldAt(long t) {
            return granted && !released && t < expiresAt;
        }

        /**
         * Why the scope is not served at an instant when its lease is ({@code held}) or is not valid,
         * or {@link #SERVED} when it is served or wanted by nobody. Nothing else changes between events.
         */
        private int cause(boolean held) {
            if (waiting.isEmpty() && believing.isEmpty() && !failingOver) {
                return SERVED;   // wanted by nobody
            }
            if (!held) {
                return unreachable() ? UNREACHABLE : ACQUIRING;
            }
            if (failingOver || crashed.contains(worker(holder)) || !believing.contains(holder)) {
                return AWAITING_EXPIRY;   // a dead or stepped-down holder's lease serves nobody
            }
            return history.paused(holder) ? FROZEN : SERVED;
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



}
