package io.fencelab.engine.check;

import io.fencelab.engine.clock.RunTimes;
import io.fencelab.engine.event.Event;
import io.fencelab.engine.resource.ResourceId;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Invariant 5: in a scope where the log holds grants, every token a write presents was issued by a
 * grant before it. "Issued" means a {@code LeaseAcquired} in the write's scope whose
 * {@code fencingToken} is that token: every scheme presents exactly its grant's fencing token, so
 * random, wall-clock, rounded and cached tokens are all issued, and a token two grants share (a
 * rounded one) is issued by either. Which holder presents it is not judged: a crashed holder's
 * in-flight write lands under its old name.
 *
 * <p>A scope with no grant in the log at all (a hand-made fragment) has nothing to judge tokens by;
 * writes seen in a scope before its first grant are witnessed when that grant arrives.
 */
final class IssuedTokens {

    private record ScopeToken(String scope, long token) {}

    private record HolderToken(String holder, String scope, long token) {}

    /** A write presenting a token, where the witness names it. */
    private record Presented(Event write, ResourceId resource) {}

    private final Set<ScopeToken> issued = new HashSet<>();
    private final Set<String> grantedScopes = new HashSet<>();
    /** Scopes without a grant yet: the writes seen there, one per holder and token. */
    private final Map<String, List<Presented>> beforeAnyGrant = new HashMap<>();
    /** A holder's unissued token is witnessed once, at its first write, not at every write that repeats it. */
    private final Set<HolderToken> witnessed = new HashSet<>();

    /** Records {@code grant}; returns the witnesses of writes in its scope that came before any grant. */
    List<Witness> granted(Event.LeaseAcquired grant) {
        issued.add(new ScopeToken(grant.scope(), grant.fencingToken()));
        List<Presented> early = grantedScopes.add(grant.scope()) ? beforeAnyGrant.remove(grant.scope()) : null;
        if (early == null) {
            return List.of();
        }
        List<Witness> found = new ArrayList<>();
        for (Presented p : early) {
            found.add(witness(p, "before any grant on scope %s (the first is %s's at %s)".formatted(grant.scope(),
                    grant.holder(), RunTimes.seconds(grant.atMicros())), List.of(p.write().seq(), grant.seq())));
        }
        return found;
    }

    /** The witnesses {@code write} on {@code resource} reveals now: none, or one if its token was not issued. */
    List<Witness> presented(Event write, ResourceId resource) {
        long token = write.tokenOrNull();
        if (issued.contains(new ScopeToken(write.scope(), token))
                || witnessed.contains(new HolderToken(write.holder(), write.scope(), token))) {
            return List.of();
        }
        if (!grantedScopes.contains(write.scope())) {
            List<Presented> early = beforeAnyGrant.computeIfAbsent(write.scope(), k -> new ArrayList<>());
            if (early.stream().noneMatch(p -> p.write().holder().equals(write.holder())
                    && p.write().tokenOrNull() == token)) {
                early.add(new Presented(write, resource));
            }
            return List.of();
        }
        return List.of(witness(new Presented(write, resource),
                "but no grant on scope %s in the log had issued it".formatted(write.scope()), List.of(write.seq())));
    }

    private Witness witness(Presented p, String why, List<Long> seqs) {
        Event w = p.write();
        witnessed.add(new HolderToken(w.holder(), w.scope(), w.tokenOrNull()));
        return new Witness(Invariant.UNISSUED_TOKEN, "%s presented token %d on %s at %s, %s".formatted(w.holder(),
                w.tokenOrNull(), p.resource(), RunTimes.seconds(w.atMicros()), why), seqs);
    }
}
