package io.fencelab.bench;

import io.fencelab.engine.event.Event;
import io.fencelab.engine.resource.TargetKind;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;

/**
 * A made-up but well-formed run for drawing benchmarks: many holders taking turns on a few scopes,
 * writing, renewing, sometimes pausing past their lease and being refused as stale. Deterministic
 * for a seed; no database involved.
 */
final class SyntheticRun {

    private SyntheticRun() {
    }

    /** About {@code count} events (seq 1, 2, …) for {@code holders} holders on {@code holders / 10} scopes. */
    static List<Event> events(int holders, int count, long seed) {
        SplittableRandom random = new SplittableRandom(seed);
        int scopes = Math.max(1, holders / 10);
        long[] tokens = new long[scopes];
        List<Event> out = new ArrayList<>(count + 16);
        long seq = 1;
        long t = 0;
        out.add(new Event.RunStarted(seq++, 0, "synthetic", "simulated", "FENCED", "MONOTONIC", seed, "none"));
        int job = 0;
        while (out.size() < count - 1) {
            String holder = "h" + (job % holders);
            int s = job % scopes;
            String scope = "scope-" + s;
            long token = ++tokens[s];
            long start = t;
            out.add(new Event.LeaseAcquired(seq++, start, holder, scope, token, token, start + 1_000_000));
            out.add(new Event.BeliefStarted(seq++, start, holder, scope, token));
            boolean stale = random.nextInt(20) == 0;
            long write = start + 200_000;
            if (stale) {
                out.add(new Event.PauseStarted(seq++, start + 100_000, holder, 1_500_000, "gc"));
                out.add(new Event.LeaseExpired(seq++, start + 1_000_000, holder, scope, token));
                out.add(new Event.PauseEnded(seq++, start + 1_600_000, holder));
                write = start + 1_600_000;
                out.add(new Event.WriteAttempted(seq++, write, holder, scope, token, TargetKind.ROW, "record", null));
                out.add(new Event.WriteRejectedStale(seq++, write, holder, scope, token, TargetKind.ROW, "record",
                        token + 1));
                out.add(new Event.BeliefEnded(seq++, write, holder, scope, token, Event.BeliefEnded.Cause.STALE_ANSWER, "stale"));
            } else {
                out.add(new Event.WriteAttempted(seq++, write, holder, scope, token, TargetKind.ROW, "record", null));
                out.add(new Event.WriteAccepted(seq++, write + 500, holder, scope, token, TargetKind.ROW, "record",
                        "sha256:00000000"));
                out.add(new Event.LeaseRenewed(seq++, start + 400_000, holder, scope, token, start + 1_400_000));
                out.add(new Event.LeaseReleased(seq++, start + 600_000, holder, scope, token));
                out.add(new Event.BeliefEnded(seq++, start + 600_000, holder, scope, token, Event.BeliefEnded.Cause.RELEASED, "released"));
            }
            job++;
            // Jobs of different scopes overlap; the clock moves on a little with every job.
            t += 1_000_000 / Math.max(1, scopes) + random.nextInt(1_000);
        }
        out.sort(java.util.Comparator.comparingLong(Event::atMicros).thenComparingLong(Event::seq));
        List<Event> renumbered = new ArrayList<>(out.size() + 1);
        long n = 1;
        for (Event e : out) {
            renumbered.add(withSeq(e, n++));
        }
        long end = renumbered.getLast().atMicros();
        renumbered.add(new Event.RunEnded(n, end, Event.RunEnded.Reason.COMPLETED));
        return renumbered;
    }

    /** The same event with another seq (the log must be in seq order and in time order). */
    static Event withSeq(Event e, long seq) {
        return switch (e) {
            case Event.RunStarted x -> new Event.RunStarted(seq, x.atMicros(), x.scenario(), x.executor(), x.fencing(),
                    x.tokenScheme(), x.seed(), x.database());
            case Event.LeaseAcquired x -> new Event.LeaseAcquired(seq, x.atMicros(), x.holder(), x.scope(), x.token(),
                    x.fencingToken(), x.expiresAtMicros());
            case Event.BeliefStarted x -> new Event.BeliefStarted(seq, x.atMicros(), x.holder(), x.scope(), x.token());
            case Event.PauseStarted x -> new Event.PauseStarted(seq, x.atMicros(), x.holder(), x.durationMicros(),
                    x.cause());
            case Event.LeaseExpired x -> new Event.LeaseExpired(seq, x.atMicros(), x.holder(), x.scope(), x.token());
            case Event.PauseEnded x -> new Event.PauseEnded(seq, x.atMicros(), x.holder());
            case Event.WriteAttempted x -> new Event.WriteAttempted(seq, x.atMicros(), x.holder(), x.scope(), x.token(),
                    x.target(), x.key(), x.opSeq());
            case Event.WriteRejectedStale x -> new Event.WriteRejectedStale(seq, x.atMicros(), x.holder(), x.scope(),
                    x.token(), x.target(), x.key(), x.highest());
            case Event.BeliefEnded x -> new Event.BeliefEnded(seq, x.atMicros(), x.holder(), x.scope(), x.token(),
                    x.cause(), x.reason());
            case Event.WriteAccepted x -> new Event.WriteAccepted(seq, x.atMicros(), x.holder(), x.scope(), x.token(),
                    x.target(), x.key(), x.valueDigest(), x.replacedToken());
            case Event.LeaseRenewed x -> new Event.LeaseRenewed(seq, x.atMicros(), x.holder(), x.scope(), x.token(),
                    x.expiresAtMicros());
            case Event.LeaseReleased x -> new Event.LeaseReleased(seq, x.atMicros(), x.holder(), x.scope(), x.token());
            default -> throw new IllegalArgumentException("not generated: " + e.getClass().getSimpleName());
        };
    }
}
