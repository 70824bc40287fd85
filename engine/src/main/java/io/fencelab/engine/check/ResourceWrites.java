package io.fencelab.engine.check;

import io.fencelab.engine.event.Event.WriteAccepted;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;
import java.util.SortedMap;
import java.util.TreeMap;

/**
 * Invariant 2 and the expectation for invariant 3: per resource, the highest token accepted so far,
 * the last write accepted under it, and the last write accepted at all.
 */
final class ResourceWrites {

    /**
     * One resource's accepted writes as far as they matter. {@code lastUnderHighest} is what the
     * final state must hold; {@code lastAccepted} is what an unfenced store usually holds instead.
     */
    record Summary(WriteAccepted lastUnderHighest, WriteAccepted lastAccepted, long highestGrant) {
        long highestToken() {
            return lastUnderHighest.token();
        }
    }

    /** Grant position of a write whose lease grant is not in the log. */
    static final long UNKNOWN_GRANT = -1;

    private final Map<ResourceId, Summary> byResource = new HashMap<>();

    static ResourceId idOf(WriteAccepted write) {
        return new ResourceId(write.target(), write.scope(), write.key());
    }

    /**
     * Records {@code write}; if its token is below one already accepted on the resource, returns the
     * write it overwrote: the last one accepted under the highest token.
     */
    Optional<WriteAccepted> accept(WriteAccepted write) {
        return accept(write, UNKNOWN_GRANT);
    }

    /**
     * As {@link #accept(WriteAccepted)}, knowing the seq of the grant the write was made under. When
     * both writes' grants are known, age is judged by grant order, which is what a token is supposed
     * to encode: so a stale holder whose broken token happens to be larger is still caught.
     */
    Optional<WriteAccepted> accept(WriteAccepted write, long grantSeq) {
        ResourceId id = idOf(write);
        Summary before = byResource.get(id);
        boolean older = before != null && (grantSeq != UNKNOWN_GRANT && before.highestGrant() != UNKNOWN_GRANT
                ? grantSeq < before.highestGrant()
                : write.token() < before.highestToken());
        if (!older) {
            // An equal token (same grant) is accepted by design: a holder writes several times under one lease.
            byResource.put(id, new Summary(write, write, grantSeq));
            return Optional.empty();
        }
        byResource.put(id, new Summary(before.lastUnderHighest(), write, before.highestGrant()));
        return Optional.of(before.lastUnderHighest());
    }

    /** Every resource that accepted at least one write, in resource order. */
    SortedMap<ResourceId, Summary> summaries() {
        return new TreeMap<>(byResource);
    }
}
