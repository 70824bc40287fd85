package io.fencelab.engine.metrics;

import io.fencelab.engine.clock.RunTimes;
import io.fencelab.engine.event.Event;
import java.util.HashMap;
import java.util.Map;

/**
 * What happened to each holder that can lie behind a lost lease: its pauses (open ones counted, the
 * latest kept) and the latest fault injected on each target. {@link TuningCollector} feeds it and asks
 * it, when a lease is lost or given up, what was behind it and when the holder stopped serving.
 */
final class HolderHistory {

    private final Map<String, Integer> openPauses = new HashMap<>();
    private final Map<String, Long> lastPauseEnd = new HashMap<>();
    /** Each holder's latest pause (the outer one, when pauses overlap), for the failover a pause caused. */
    private final Map<String, PauseSeen> lastPause = new HashMap<>();
    /** The latest fault injected on each target ({@code FaultInjected.appliesTo}), for what was behind a loss. */
    private final Map<String, FaultSeen> lastFault = new HashMap<>();

    void pauseStarted(Event.PauseStarted e, long t) {
        if (openPauses.merge(e.holder(), 1, Integer::sum) == 1) {
            lastPause.put(e.holder(), new PauseSeen(t, e.durationMicros(), e.cause()));
        }
    }

    void pauseEnded(Event.PauseEnded e, long t) {
        Integer left = openPauses.computeIfPresent(e.holder(), (h, n) -> n > 1 ? n - 1 : null);
        lastPauseEnd.put(e.holder(), t);
        PauseSeen p = lastPause.get(e.holder());
        if (left == null && p != null) {
            p.endMicros = t;
        }
    }

    /** Whether {@code holder} is paused now. */
    boolean paused(String holder) {
        return openPauses.containsKey(holder);
    }

    void faultInjected(Event.FaultInjected e) {
        lastFault.put(e.appliesTo(), new FaultSeen(e.fault(), e.appliesTo(), e.seq()));
    }

    void faultHealed(Event.FaultHealed e, long t) {
        FaultSeen f = lastFault.get(e.appliesTo());
        if (f != null && f.fault.equals(e.fault())) {
            f.healedMicros = t;
        }
    }

    /**
     * The longest pause of {@code holder} since {@code lease}'s last grant or renewal (one still open
     * included), or null when it was not paused since: what makes a loss a pause loss.
     */
    PauseBehind sinceRenewal(String holder, HeldLease lease) {
        boolean open = openPauses.containsKey(holder);
        if (!open && lastPauseEnd.getOrDefault(holder, Long.MIN_VALUE) <= lease.renewedAt) {
            return null;
        }
        PauseSeen last = lastPause.get(holder);
        if (last != null && (open || lease.longestPauseMicros == 0) && last.durationMicros > lease.longestPauseMicros) {
            return new PauseBehind(last.durationMicros, last.cause);   // open, or begun before the renewal
        }
        return new PauseBehind(lease.longestPauseMicros, lease.longestPauseCause);
    }

    /**
     * When {@code holder}, stepping down at {@code t}, stopped serving: the start of the pause it woke
     * from at {@code t} (a leader waking past its renew deadline stopped acting when it froze), else {@code t}.
     */
    long wokeAt(String holder, long t) {
        PauseSeen p = lastPause.get(holder);
        return p != null && p.endMicros == t ? p.startMicros : t;
    }

    /** When the pause of {@code holder} that {@code instant} fell in started, or {@code instant} if it was running then. */
    long pauseStartAround(String holder, long instant) {
        PauseSeen p = lastPause.get(holder);
        boolean within = p != null && p.startMicros <= instant && (p.endMicros < 0 || p.endMicros > instant);
        return within ? p.startMicros : instant;
    }

    /** What lay behind {@code holder} giving up {@code lease} on its own judgement (its clock, a stale answer). */
    String behindStepDown(String holder, HeldLease lease) {
        return lease == null ? null : behind(holder, lease, sinceRenewal(holder, lease));
    }

    /**
     * What lay behind {@code holder} losing {@code lease}, in a few words: its pause since the last
     * renewal, if any, else the latest fault on it, on every holder or on the lease service that was
     * still under way at the last renewal; null when none.
     */
    String behind(String holder, HeldLease lease, PauseBehind pause) {
        if (pause != null) {
            return pause.words();
        }
        FaultSeen latest = null;
        for (String target : new String[] {TuningCollector.worker(holder), "all", "database", null}) {
            FaultSeen f = lastFault.get(target);
            if (f != null && f.healedMicros > lease.renewedAt && !TuningCollector.CRASH.equals(f.fault)
                    && (latest == null || f.seq > latest.seq)) {
                latest = f;
            }
        }
        return latest == null ? null : latest.words();
    }

    /** A holder's pause: when it started, how long it was drawn to last, its cause, and when it ended (-1: not yet). */
    static final class PauseSeen {
        final long startMicros;
        final long durationMicros;
        final String cause;
        long endMicros = -1;

        PauseSeen(long startMicros, long durationMicros, String cause) {
            this.startMicros = startMicros;
            this.durationMicros = durationMicros;
            this.cause = cause;
        }
    }

    /** The pause behind a loss: its length as drawn and its cause ({@code PauseStarted.cause}). */
    record PauseBehind(long micros, String cause) {
        String words() {
            return "pause of " + RunTimes.seconds(micros) + (cause == null ? "" : " (" + cause + ")");
        }
    }

    /** A fault injected on a target, and when it healed ({@link Long#MAX_VALUE}: not yet). */
    static final class FaultSeen {
        final String fault;
        final String target;
        final long seq;
        long healedMicros = Long.MAX_VALUE;

        FaultSeen(String fault, String target, long seq) {
            this.fault = fault;
            this.target = target;
            this.seq = seq;
        }

        String words() {
            return "fault " + fault + (target == null ? "" : " on " + target);
        }
    }
}
