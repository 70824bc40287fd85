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
 */
final class GrantOrder {

    private final Map<String, LeaseAcquired> highestFencing = new HashMap<>();
    private final Map<String, LeaseAcquired> highestCounter = new HashMap<>();

    List<Witness> accept(LeaseAcquired grant) {
        List<Witness> found = new ArrayList<>(2);
        check(grant, highestFencing, LeaseAcquired::fencingToken, Invariant.NON_MONOTONIC_GRANT, "fencing token", found);
        check(grant, highestCounter, LeaseAcquired::token, Invariant.NON_MONOTONIC_COUNTER, "service counter", found);
        return found;
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
