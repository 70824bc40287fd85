package io.fencelab.testing;

import io.fencelab.engine.event.Event;
import io.fencelab.engine.resource.TargetKind;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;

/**
 * A plausible but misbehaving run log from a seed, for property tests: a few holders, scopes and
 * keys; grants whose tokens sometimes go backwards; writes that are sometimes stale and still
 * accepted; pauses, expiries, renewals and every other event kind mixed in. Tokens come from small
 * ranges so resources collide and invariants break often.
 */
public final class RandomLog {

    private static final String[] HOLDERS = {"A", "B", "C"};
    private static final String[] SCOPES = {"report", "ledger"};
    private static final String[] KEYS = {"k1", "k2"};

    private RandomLog() {
    }

    /** Splits {@code events} into consecutive batches of random sizes (some empty). */
    public static List<List<Event>> batches(List<Event> events, SplittableRandom random) {
        List<List<Event>> batches = new ArrayList<>();
        int from = 0;
        while (from < events.size()) {
            int to = Math.min(events.size(), from + random.nextInt(0, 12));
            batches.add(events.subList(from, to));
            from = to;
        }
        return batches;
    }

    public static List<Event> generate(long seed, int length) {
        SplittableRandom random = new SplittableRandom(seed);
        List<Event> log = new ArrayList<>();
        Map<String, Long> counter = new HashMap<>();
        Map<String, Long> heldToken = new HashMap<>();   // holder + scope -> fencing token it presents
        long now = 0;
        long seq = 1;
        log.add(new Event.RunStarted(seq++, now, "random", "simulated", "UNFENCED", "RANDOM", seed, "none"));
        while (log.size() < length) {
            now += random.nextLong(0, 1_500_000);
            String holder = HOLDERS[random.nextInt(HOLDERS.length)];
            String scope = SCOPES[random.nextInt(SCOPES.length)];
            String key = KEYS[random.nextInt(KEYS.length)];
            TargetKind target = TargetKind.BUILT_IN.get(random.nextInt(TargetKind.BUILT_IN.size()));
            long token = heldToken.getOrDefault(holder + scope, 1L);
            long opSeq = random.nextLong(1, 4);
            Event event = switch (random.nextInt(16)) {
                case 0, 1 -> {
                    long next = counter.merge(scope, random.nextInt(10) == 0 ? -2L : 1L, Long::sum);
                    long fencing = random.nextInt(5) == 0 ? random.nextLong(1, 12) : next;
                    heldToken.put(holder + scope, fencing);
                    yield new Event.LeaseAcquired(seq, now, holder, scope, next, fencing, now + 3_000_000);
                }
                case 2 -> new Event.LeaseRenewed(seq, now, holder, scope, token, now + 3_000_000);
                case 3 -> new Event.LeaseRenewalFailed(seq, now, holder, scope, token, "not held");
                case 4 -> new Event.LeaseExpired(seq, now, holder, scope, token);
                case 5 -> new Event.PauseStarted(seq, now, holder, random.nextLong(1, 5_000_000), "gc");
                case 6 -> new Event.PauseEnded(seq, now, holder);
                case 7, 8 -> new Event.WriteAttempted(seq, now, holder, scope, token, target, key, opSeq);
                case 9, 10, 11 -> new Event.WriteAccepted(seq, now, holder, scope, token, target, key,
                        "d" + random.nextInt(3));
                case 12 -> new Event.WriteRejectedStale(seq, now, holder, scope, token, target, key, token + 1);
                case 13 -> new Event.WriteOutOfOrder(seq, now, holder, scope, token, target, key, opSeq, opSeq + 1);
                case 14 -> new Event.WriteMissing(seq, now, holder, scope, token, target, key);
                default -> switch (random.nextInt(6)) {
                    case 0 -> new Event.LeaseBusy(seq, now, holder, scope, "C", token);
                    case 1 -> new Event.LeaseReleased(seq, now, holder, scope, token);
                    case 2 -> new Event.FaultInjected(seq, now, "pause", holder, 1_000_000, "");
                    case 3 -> new Event.BeliefStarted(seq, now, holder, scope, token);
                    case 4 -> new Event.OperationFailed(seq, now, holder, "write", "connection killed");
                    default -> new Event.LeaseRenewalFailed(seq, now, holder, scope, token, "arrived too late");
                };
            };
            log.add(event);
            seq++;
        }
        return log;
    }
}
