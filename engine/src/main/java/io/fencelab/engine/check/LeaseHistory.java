package io.fencelab.engine.check;

import io.fencelab.engine.event.Event.LeaseAcquired;
import io.fencelab.engine.event.Event.LeaseExpired;
import io.fencelab.engine.event.Event.LeaseRenewed;
import io.fencelab.engine.event.Event.PauseEnded;
import io.fencelab.engine.event.Event.PauseStarted;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;

/**
 * What the log has said so far about each holder's grants, expiries, renewals and pauses: kept only
 * so that a witness can point back to them when a stale write shows up later.
 */
final class LeaseHistory {

    /** A holder's pause; {@code end} is null until its PauseEnded arrives. */
    record Pause(PauseStarted start, PauseEnded end) {
        boolean covers(long micros) {
            return start.atMicros() <= micros && (end == null || micros <= end.atMicros());
        }
    }

    private record HolderToken(String scope, String holder, long token) {}

    private final Map<HolderToken, List<LeaseAcquired>> grantsByFencingToken = new HashMap<>();
    private final Map<HolderToken, List<LeaseExpired>> expiries = new HashMap<>();
    private final Map<HolderToken, Long> renewedUntil = new HashMap<>();
    private final Map<String, List<Pause>> pauses = new HashMap<>();

    void granted(LeaseAcquired grant) {
        grantsByFencingToken.computeIfAbsent(new HolderToken(grant.scope(), grant.holder(), grant.fencingToken()),
                k -> new ArrayList<>(1)).add(grant);
    }

    void renewed(LeaseRenewed renewal) {
        renewedUntil.merge(new HolderToken(renewal.scope(), renewal.holder(), renewal.token()),
                renewal.expiresAtMicros(), Math::max);
    }

    void expired(LeaseExpired expiry) {
        expiries.computeIfAbsent(new HolderToken(expiry.scope(), expiry.holder(), expiry.token()),
                k -> new ArrayList<>(1)).add(expiry);
    }

    void pauseStarted(PauseStarted start) {
        pauses.computeIfAbsent(start.holder(), k -> new ArrayList<>()).add(new Pause(start, null));
    }

    void pauseEnded(PauseEnded end) {
        List<Pause> list = pauses.get(end.holder());
        // An end without a start (a log that began mid-pause) has nothing to close.
        if (list != null && list.getLast().end() == null) {
            list.set(list.size() - 1, new Pause(list.getLast().start(), end));
        }
    }

    /** The latest grant of {@code fencingToken} to {@code holder} in {@code scope} logged before {@code beforeSeq}. */
    Optional<LeaseAcquired> grant(String scope, String holder, long fencingToken, long beforeSeq) {
        List<LeaseAcquired> grants = grantsByFencingToken.getOrDefault(new HolderToken(scope, holder, fencingToken), List.of());
        for (LeaseAcquired g : grants.reversed()) {
            if (g.seq() < beforeSeq) {
                return Optional.of(g);
            }
        }
        return Optional.empty();
    }

    /**
     * The first expiry of {@code grant} logged before {@code beforeSeq}. Lease events after the grant
     * carry one {@code token} and Event.java does not say whether it is the service counter or the
     * fencing token (they differ under broken schemes), so either is accepted.
     */
    Optional<LeaseExpired> expiry(LeaseAcquired grant, long beforeSeq) {
        Optional<LeaseExpired> byCounter = firstExpiry(grant, grant.token(), beforeSeq);
        return byCounter.isPresent() || grant.fencingToken() == grant.token()
                ? byCounter : firstExpiry(grant, grant.fencingToken(), beforeSeq);
    }

    private Optional<LeaseExpired> firstExpiry(LeaseAcquired grant, long token, long beforeSeq) {
        return expiries.getOrDefault(new HolderToken(grant.scope(), grant.holder(), token), List.of()).stream()
                .filter(x -> x.seq() > grant.seq() && x.seq() < beforeSeq)
                .findFirst();
    }

    /** When {@code grant} was due to expire, counting renewals logged so far (for logs without a LeaseExpired). */
    OptionalLong dueMicros(LeaseAcquired grant) {
        long due = grant.expiresAtMicros();
        for (long token : new long[] {grant.token(), grant.fencingToken()}) {
            Long renewed = renewedUntil.get(new HolderToken(grant.scope(), grant.holder(), token));
            if (renewed != null) {
                due = Math.max(due, renewed);
            }
        }
        return due > grant.atMicros() ? OptionalLong.of(due) : OptionalLong.empty();
    }

    /** The holder's pauses that started after {@code afterSeq} and before {@code beforeSeq}, in log order. */
    List<Pause> pausesBetween(String holder, long afterSeq, long beforeSeq) {
        return pauses.getOrDefault(holder, List.of()).stream()
                .filter(p -> p.start().seq() > afterSeq && p.start().seq() < beforeSeq)
                .toList();
    }
}
