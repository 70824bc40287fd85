package io.fencelab.engine.check;

import io.fencelab.engine.event.Event.WriteAccepted;
import io.fencelab.engine.resource.ResourceId;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
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

    /** A stale overwrite: {@code stale} was applied over {@code newer}'s token. */
    record Overwrite(WriteAccepted stale, WriteAccepted newer) {}

    /**
     * What accepting one write found: whether it was itself applied over newer work (and over which
     * token, and which write when that one is already known), and the stale overwrites it reveals,
     * its own and earlier ones that were waiting for the newer write they replaced.
     */
    record Found(boolean staleOverwrite, Long overwrittenToken, WriteAccepted overwritten, List<Overwrite> overwrites) {}

    /** Per resource: the last write seen under each token, to name the write a stale one replaced. */
    private final Map<ResourceId, Map<Long, WriteAccepted>> lastByToken = new HashMap<>();
    /** Per resource: tokens that a write already reported replaced, so they were applied before it. */
    private final Map<ResourceId, Set<Long>> replacedTokens = new HashMap<>();
    /**
     * Per resource and token: the newest write (token and grant) the resource had applied up to the
     * latest write under that token. A write that replaces that token is stale when it is older than
     * this, not only when it is older than the token it replaced: after a stale overwrite, the next
     * write under the stale token replaces its own token, yet the resource had accepted a newer one.
     */
    private final Map<ResourceId, Map<Long, long[]>> highWater = new HashMap<>();
    /** Per resource and replaced token: stale writes reported before the newer write they replaced. */
    private final Map<ResourceId, Map<Long, List<WriteAccepted>>> waitingForNewer = new HashMap<>();

    /**
     * Records {@code write}, made under the grant at {@code grantSeq}, and returns the stale
     * overwrites it reveals (usually none). When both grants are known, age is judged by grant order,
     * which is what a token is supposed to encode: so a stale holder whose broken token happens to
     * be larger is still caught; otherwise by token.
     *
     * <p>Which write came first is the database's word when the event says which token the write
     * replaced ({@code replacedToken}): the write is stale if that token is newer than its own,
     * whatever order the events were reported in (a live run's threads can report two writes the
     * other way round). Without it (a write that created the resource, or a log written without the
     * field), report order decides, unless a write already reported replacing this write's token,
     * which proves this one was applied before it.
     *
     * @param replacedGrantSeq the seq of the grant that presented {@code write.replacedToken()}, or
     *                         {@link #UNKNOWN_GRANT}
     */
    Found accept(WriteAccepted write, long grantSeq, long replacedGrantSeq) {
        ResourceId id = idOf(write);
        Summary before = byResource.get(id);
        List<Overwrite> found = new ArrayList<>();
        Map<Long, WriteAccepted> seen = lastByToken.computeIfAbsent(id, k -> new HashMap<>());
        List<WriteAccepted> waiting = waitingForNewer.getOrDefault(id, Map.of()).get(write.token());
        if (waiting != null) {
            waitingForNewer.get(id).remove(write.token());
            waiting.forEach(stale -> found.add(new Overwrite(stale, write)));
        }
        // Looked up before this write is recorded: under a broken scheme its own token can equal the one it replaced.
        WriteAccepted lastUnderReplaced = write.replacedToken() == null ? null : seen.get(write.replacedToken());
        seen.put(write.token(), write);
        boolean belowHighest = before != null && older(write.token(), grantSeq, before.highestToken(),
                before.highestGrant());
        boolean overwrite;
        Long overwrittenToken = null;
        WriteAccepted overwritten = null;
        Long replaced = write.replacedToken();
        Map<Long, long[]> marks = highWater.computeIfAbsent(id, k -> new HashMap<>());
        long[] mark;
        if (replaced != null) {
            replacedTokens.computeIfAbsent(id, k -> new HashSet<>()).add(replaced);
            long[] prior = marks.getOrDefault(replaced, new long[] {replaced, replacedGrantSeq});
            overwrite = older(write.token(), grantSeq, prior[0], prior[1]);
            if (overwrite) {
                overwrittenToken = prior[0];
                overwritten = prior[0] == replaced ? lastUnderReplaced : seen.get(prior[0]);
                if (overwritten != null && overwritten != write) {
                    found.add(new Overwrite(write, overwritten));
                } else {
                    overwritten = null;
                    waitingForNewer.computeIfAbsent(id, k -> new HashMap<>())
                            .computeIfAbsent(prior[0], k -> new ArrayList<>()).add(write);
                }
            }
            mark = overwrite ? prior : new long[] {write.token(), grantSeq};
        } else {
            overwrite = belowHighest && !replacedTokens.getOrDefault(id, Set.of()).contains(write.token());
            if (overwrite) {
                overwritten = before.lastUnderHighest();
                overwrittenToken = overwritten.token();
                found.add(new Overwrite(write, overwritten));
            }
            mark = overwrite ? new long[] {before.highestToken(), before.highestGrant()}
                             : new long[] {write.token(), grantSeq};
        }
        marks.put(write.token(), mark);
        if (!belowHighest) {
            // An equal token (same grant) is accepted by design: a holder writes several times under one lease.
            byResource.put(id, new Summary(write, write, grantSeq));
        } else if (overwrite) {
            byResource.put(id, new Summary(before.lastUnderHighest(), write, before.highestGrant()));
        }
        // Otherwise it was reported late but applied before the highest: it changes nothing expected.
        return new Found(overwrite, overwrittenToken, overwritten, found);
    }

    /**
     * The newest write {@code id} has accepted so far, if it is newer than {@code token} (granted at
     * {@code grantSeq}); null otherwise. Asked before the next write is accepted.
     */
    WriteAccepted newestNewerThan(ResourceId id, long token, long grantSeq) {
        Summary s = byResource.get(id);
        return s != null && older(token, grantSeq, s.highestToken(), s.highestGrant()) ? s.lastUnderHighest() : null;
    }

    private static boolean older(long token, long grantSeq, long thanToken, long thanGrantSeq) {
        return grantSeq != UNKNOWN_GRANT && thanGrantSeq != UNKNOWN_GRANT ? grantSeq < thanGrantSeq : token < thanToken;
    }

    /** Every resource that accepted at least one write, in resource order. */
    SortedMap<ResourceId, Summary> summaries() {
        return new TreeMap<>(byResource);
    }

    /** Per resource, the write its final state must hold (unordered; {@link Judgement} sorts it once). */
    Map<ResourceId, WriteAccepted> kept() {
        Map<ResourceId, WriteAccepted> kept = new HashMap<>(byResource.size() * 2);
        byResource.forEach((id, s) -> kept.put(id, s.lastUnderHighest()));
        return kept;
    }
}
