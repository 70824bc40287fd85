package io.fencelab.engine.check;

import io.fencelab.engine.clock.RunTimes;
import io.fencelab.engine.event.Event.LeaseAcquired;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.ToLongFunction;

/**
 * Invariant 1: per scope, each grant's token must be above every earlier grant's. Each grant is
 * compared with the highest earlier one (not merely the previous), because a token below any earlier
 * grant lets that older holder outrank the newer one, and an equal token is a reuse.
 *
 * <p>Grants are taken in the order they are logged, which is the order they were made wherever the
 * token comes with the grant. Where it comes in a later step ({@code LeaseAcquired.grantedAtMicros}:
 * Redis's lock, then {@code INCR}), a holder paused between the two logs its grant late, with a token
 * larger than a grant made after its own: that pair is out of order too, although the log shows it in
 * order.
 */
final class GrantOrder {

    private final Map<String, LeaseAcquired> highestFencing = new HashMap<>();
    private final Map<String, LeaseAcquired> highestCounter = new HashMap<>();
    /** Per scope, the grant logged last. */
    private final Map<String, LeaseAcquired> latest = new HashMap<>();

    List<Witness> accept(LeaseAcquired grant) {
        List<Witness> found = new ArrayList<>(2);
        LeaseAcquired last = latest.put(grant.scope(), grant);
        if (last != null && grant.grantedAtMicros() != null && !last.holder().equals(grant.holder())
                && grantedAt(last) > grant.grantedAtMicros()) {
            madeBefore(grant, last, LeaseAcquired::fencingToken, Invariant.NON_MONOTONIC_GRANT, "fencing token", found);
            madeBefore(grant, last, LeaseAcquired::token, Invariant.NON_MONOTONIC_COUNTER, "service counter", found);
        }
        check(grant, highestFencing, LeaseAcquired::fencingToken, Invariant.NON_MONOTONIC_GRANT, "fencing token", found);
        check(grant, highestCounter, LeaseAcquired::token, Invariant.NON_MONOTONIC_COUNTER, "service counter", found);
        return found;
    }

    private static long grantedAt(LeaseAcquired grant) {
        return grant.grantedAtMicros() == null ? grant.atMicros() : grant.grantedAtMicros();
    }

    /** {@code grant} was made before {@code later} (logged before it) yet carries a larger token. */
    private static void madeBefore(LeaseAcquired grant, LeaseAcquired later, ToLongFunction<LeaseAcquired> token,
                                   Invariant invariant, String what, List<Witness> found) {
        long t = token.applyAsLong(grant);
        long l = token.applyAsLong(later);
        if (t <= l) {
            return;
        }
        found.add(new Witness(invariant,
                ("%s was granted scope %s at %s but took its %s %d only at %s, after %s's later grant of %d (%s): "
                        + "the earlier grant carries the larger token, so a resource prefers %s to %s, the holder now")
                        .formatted(grant.holder(), grant.scope(), RunTimes.seconds(grant.grantedAtMicros()), what, t,
                                RunTimes.seconds(grant.atMicros()), later.holder(), l,
                                RunTimes.seconds(grantedAt(later)), grant.holder(), later.holder()),
                List.of(later.seq(), grant.seq())));
    }

    private static void check(LeaseAcquired grant, Map<String, LeaseAcquired> highest, ToLongFunction<LeaseAcquired> token,
                              Invariant invariant, String what, List<Witness> found) {
        LeaseAcquired top = highest.get(grant.scope());
        if (top == null || token.applyAsLong(grant) > token.applyAsLong(top)) {
            highest.put(grant.scope(), grant);
            return;
        }
        long t = token.applyAsLong(grant);
        long earlier = token.applyAsLong(top);
        String relation = t == earlier ? "reusing" : "below";
        found.add(new Witness(invariant,
                "%s was granted %s %d on scope %s at %s, %s %s's grant of %d (%s): a resource cannot order %s after %s"
                        .formatted(grant.holder(), what, t, grant.scope(), RunTimes.seconds(grant.atMicros()), relation,
                                top.holder(), earlier, RunTimes.seconds(top.atMicros()), grant.holder(), top.holder()),
                List.of(top.seq(), grant.seq())));
    }
}
