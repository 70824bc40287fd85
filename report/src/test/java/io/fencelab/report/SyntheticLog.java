package io.fencelab.report;

import io.fencelab.engine.event.Event;
import io.fencelab.engine.resource.TargetKind;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.function.LongFunction;

/**
 * A large, storm-like log built by hand (no database): many holders on shared scopes writing a row,
 * an object and a pointer each, with renewals, pauses past expiry, stale rejections, the odd stale
 * overwrite and database restarts. Exactly {@code count} events, ending with {@code RunEnded}.
 */
final class SyntheticLog {

    private static final TargetKind[] TARGETS = {TargetKind.ROW, TargetKind.OBJECT, TargetKind.POINTER};
    private static final String[] KEYS = {"record", "blob", "current"};

    private final List<Event> events = new ArrayList<>();
    private final Random random;
    private final Map<String, Long> counters = new HashMap<>();
    private final Map<String, Long> highest = new HashMap<>();
    private long now;

    private SyntheticLog(long seed) {
        this.random = new Random(seed);
    }

    static List<Event> events(int count, int holders, long seed) {
        SyntheticLog log = new SyntheticLog(seed);
        log.add(seq -> new Event.RunStarted(seq, 0, "synthetic-storm", "simulated", "FENCED", "MONOTONIC", seed,
                "PostgreSQL 17.6"));
        int scopes = Math.max(1, holders / 4);
        while (log.events.size() < count - 1) {
            int h = log.random.nextInt(holders);
            String scope = "scope-" + (h % scopes);
            if (log.random.nextInt(10) == 0) {
                log.staleStory("w" + h, "w" + ((h + scopes) % holders), scope);
            } else {
                log.cycle("w" + h, scope);
            }
            if (log.random.nextInt(400) == 0) {
                long at = log.now;
                log.add(seq -> new Event.FaultInjected(seq, at, "DATABASE_RESTART", "database", 2_000_000, null));
                log.tick(2_000_000);
                log.add(seq -> new Event.FaultHealed(seq, log.now, "DATABASE_RESTART", "database"));
            }
        }
        List<Event> out = new ArrayList<>(log.events.subList(0, count - 1));
        long end = out.getLast().atMicros() + 1_000_000;
        out.add(new Event.RunEnded(count, end, Event.RunEnded.Reason.COMPLETED));
        return out;
    }

    /** Acquire, believe, write the three targets (maybe renew), release. */
    private void cycle(String holder, String scope) {
        long token = acquire(holder, scope);
        writeAll(holder, scope, token, false);
        if (random.nextBoolean()) {
            tick(20_000);
            add(seq -> new Event.LeaseRenewed(seq, now, holder, scope, token, now + 1_000_000));
        }
        tick(5_000);
        add(seq -> new Event.LeaseReleased(seq, now, holder, scope, token));
        add(seq -> new Event.BeliefEnded(seq, now, holder, scope, token, Event.BeliefEnded.Cause.RELEASED, "released"));
    }

    /** The paused holder: its lease expires, another holder writes, it resumes and writes with its old token. */
    private void staleStory(String stale, String newer, String scope) {
        long token = acquire(stale, scope);
        add(seq -> new Event.PauseStarted(seq, now, stale, 1_500_000, "gc"));
        tick(1_000_000);
        add(seq -> new Event.LeaseExpired(seq, now, stale, scope, token));
        cycle(newer, scope);
        tick(500_000);
        add(seq -> new Event.PauseEnded(seq, now, stale));
        boolean getsThrough = random.nextInt(20) == 0;
        writeAll(stale, scope, token, getsThrough);
        add(seq -> new Event.BeliefEnded(seq, now, stale, scope, token, Event.BeliefEnded.Cause.STALE_ANSWER, "stale: token " + token + " is older"));
    }

    private long acquire(String holder, String scope) {
        long token = counters.merge(scope, 1L, Long::sum) + 100;
        tick(1 + random.nextInt(30_000));
        add(seq -> new Event.LeaseAcquired(seq, now, holder, scope, token, token, now + 1_000_000));
        add(seq -> new Event.BeliefStarted(seq, now, holder, scope, token));
        return token;
    }

    private void writeAll(String holder, String scope, long token, boolean unfenced) {
        for (int i = 0; i < TARGETS.length; i++) {
            TargetKind target = TARGETS[i];
            String key = KEYS[i];
            String id = target + scope + key;
            tick(1 + random.nextInt(3_000));
            add(seq -> new Event.WriteAttempted(seq, now, holder, scope, token, target, key, null));
            tick(500);
            Long top = highest.get(id);
            if (top != null && top > token && !unfenced) {
                add(seq -> new Event.WriteRejectedStale(seq, now, holder, scope, token, target, key, top));
            } else {
                if (top == null || token > top) {
                    highest.put(id, token);
                }
                add(seq -> new Event.WriteAccepted(seq, now, holder, scope, token, target, key, "0123456789abcdef"));
            }
        }
    }

    private void tick(long micros) {
        now += micros;
    }

    private void add(LongFunction<Event> event) {
        events.add(event.apply(events.size() + 1L));
    }
}
