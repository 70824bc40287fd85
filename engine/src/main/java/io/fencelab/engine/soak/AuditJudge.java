package io.fencelab.engine.soak;

import io.fencelab.engine.event.Event.LeaseAcquired;
import io.fencelab.engine.fence.FenceAudit;
import io.fencelab.engine.resource.ResourceId;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The soak's ground truth: which applied writes were stale overwrites, judged from the database's
 * own record ({@link FenceAudit}: every change to a fenced resource, in the order PostgreSQL applied
 * it) and nothing the checker concluded. It shares no code with {@code check}.
 *
 * <p>A write is a stale overwrite when its generation is older than one the resource had already
 * applied. The audit records the token a holder presented, not the grant it came from; under the
 * monotonic scheme the two order alike, under a broken scheme (random, skewed wall-clock, cached,
 * rounded tokens) they do not, and a stale overwrite is about grants. So a presented token is
 * ordered by the lease service's counter of the one grant in its scope that presented it (the
 * counter the acquire statement returned, as the log's {@code LeaseAcquired} records it). A token
 * that no grant or several grants presented (a cached token, rounded tokens that collapse) cannot be
 * placed: the audit cannot order that resource's writes, and the soak says so instead of guessing.
 */
public final class AuditJudge {

    /**
     * One applied change as judged.
     *
     * @param generation the counter of the grant that presented its token; null if none or several did
     * @param stale      applied with an older generation than one the resource had applied before;
     *                   false on a resource the audit cannot order
     */
    public record Write(FenceAudit.Entry entry, ResourceId resource, Long generation, boolean stale) {}

    /**
     * The audit's judgement of a run.
     *
     * @param writes    every applied change, in apply order
     * @param unordered resources with a write whose token cannot be placed in grant order
     * @param last      per resource, the last change applied: what its final state holds
     */
    public record Judged(List<Write> writes, Set<ResourceId> unordered, Map<ResourceId, Write> last) {

        public Judged {
            writes = List.copyOf(writes);
            unordered = Set.copyOf(unordered);
            last = Map.copyOf(last);
        }

        /** Whether the audit shows any stale overwrite on a resource it can order. */
        public boolean unsafe() {
            return writes.stream().anyMatch(Write::stale);
        }

        public long staleCount() {
            return writes.stream().filter(Write::stale).count();
        }
    }

    private AuditJudge() {
    }

    /** Judges {@code entries} (apply order) with the run's grants, which place each presented token. */
    public static Judged judge(List<FenceAudit.Entry> entries, List<LeaseAcquired> grants) {
        Map<String, Long> counterOf = new HashMap<>();
        Set<String> ambiguous = new HashSet<>();
        for (LeaseAcquired g : grants) {
            String key = g.scope() + "\u0000" + g.fencingToken();
            if (counterOf.putIfAbsent(key, g.token()) != null) {
                ambiguous.add(key);
            }
        }
        Map<ResourceId, List<FenceAudit.Entry>> byResource = new LinkedHashMap<>();
        for (FenceAudit.Entry e : entries) {
            byResource.computeIfAbsent(new ResourceId(e.target(), e.scope(), e.key()), k -> new ArrayList<>()).add(e);
        }
        Set<ResourceId> unordered = new HashSet<>();
        Map<Long, Write> judged = new HashMap<>();
        Map<ResourceId, Write> last = new HashMap<>();
        byResource.forEach((id, changes) -> {
            List<Long> generations = new ArrayList<>(changes.size());
            for (FenceAudit.Entry e : changes) {
                String key = e.scope() + "\u0000" + e.token();
                generations.add(ambiguous.contains(key) ? null : counterOf.get(key));
            }
            boolean ordered = !generations.contains(null);
            if (!ordered) {
                unordered.add(id);
            }
            long highest = Long.MIN_VALUE;
            for (int i = 0; i < changes.size(); i++) {
                Long generation = generations.get(i);
                boolean stale = ordered && generation < highest;
                if (ordered) {
                    highest = Math.max(highest, generation);
                }
                Write w = new Write(changes.get(i), id, generation, stale);
                judged.put(changes.get(i).auditId(), w);
                last.put(id, w);
            }
        });
        List<Write> inOrder = entries.stream().map(e -> judged.get(e.auditId())).toList();
        return new Judged(inOrder, unordered, last);
    }
}
