package io.fencelab.engine.check;

import io.fencelab.engine.clock.RunTimes;
import io.fencelab.engine.event.Event.WriteAccepted;
import io.fencelab.engine.resource.ResourceId;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Invariant 6: each accepted write's {@code replacedToken} must fit the log's own history. The
 * database applies a resource's writes one after another, each replacing the one before, so for any
 * two accepted writes, either the chain of replaced tokens leads from the first one's token to the
 * second's replaced token, or from the second one's token to the first's. A write that claims to
 * have replaced a token older than a write the log already showed accepted there must therefore be
 * linked to that write by the chain; if neither way is, the log contradicts itself.
 *
 * <p>Live threads report writes out of apply order, and the link that puts a late-reported write
 * first can be reported after it, so such claims are judged when the log is whole. A write that was
 * sent and never answered in the log may have been applied unlogged (a connection killed after the
 * commit): the chain may pass through its token from anywhere, so it never makes a false witness.
 */
final class ReplacedTokenChain {

    private record Claim(WriteAccepted write, WriteAccepted newer) {}

    private record Sent(ResourceId resource, String holder, long token) {}

    /** Per resource: each token to the tokens of the writes that replaced it (self-replacements left out). */
    private final Map<ResourceId, Map<Long, Set<Long>>> replacedBy = new HashMap<>();
    /** Writes sent and not answered yet, by resource, holder and token. */
    private final Map<Sent, Integer> unanswered = new HashMap<>();
    private final List<Claim> doubtful = new ArrayList<>();

    void sent(ResourceId resource, String holder, long token) {
        unanswered.merge(new Sent(resource, holder, token), 1, Integer::sum);
    }

    void answered(ResourceId resource, String holder, long token) {
        unanswered.computeIfPresent(new Sent(resource, holder, token), (k, n) -> n == 1 ? null : n - 1);
    }

    /**
     * Records {@code write}; {@code newer} is the newest write its resource had accepted before it, if
     * that is newer than the token {@code write} says it replaced (else null).
     */
    void accepted(ResourceId resource, WriteAccepted write, WriteAccepted newer) {
        Long replaced = write.replacedToken();
        if (replaced == null) {
            return; // created the resource (or a log without the field): report order decides, as before
        }
        if (replaced != write.token()) {
            replacedBy.computeIfAbsent(resource, k -> new HashMap<>())
                    .computeIfAbsent(replaced, k -> new HashSet<>(2)).add(write.token());
        }
        if (newer != null && newer.token() != write.token()) {
            doubtful.add(new Claim(write, newer));
        }
    }

    /** At the end of the log: a witness for each claim the whole chain does not bear out. */
    List<Witness> contradictions() {
        List<Witness> found = new ArrayList<>();
        for (Claim c : doubtful) {
            ResourceId id = ResourceWrites.idOf(c.write());
            if (reaches(id, c.write().token(), c.newer().token()) || reaches(id, c.newer().token(),
                    c.write().replacedToken())) {
                continue;
            }
            WriteAccepted w = c.write();
            WriteAccepted n = c.newer();
            found.add(new Witness(Invariant.CONTRADICTORY_REPLACED_TOKEN,
                    ("%s's write with token %d at %s on %s says it replaced token %d, but %s's write with token %d (%s) "
                            + "was already accepted there and no replaced token in the log puts %s's write before it")
                            .formatted(w.holder(), w.token(), RunTimes.seconds(w.atMicros()), id, w.replacedToken(),
                                    n.holder(), n.token(), RunTimes.seconds(n.atMicros()), w.holder()),
                    List.of(n.seq(), w.seq())));
        }
        doubtful.clear();
        return found;
    }

    /** Whether the chain of replaced tokens on {@code resource} leads from {@code from} to {@code to}. */
    private boolean reaches(ResourceId resource, long from, long to) {
        Map<Long, Set<Long>> next = replacedBy.getOrDefault(resource, Map.of());
        ArrayDeque<Long> todo = new ArrayDeque<>();
        todo.add(from);
        // An unanswered write may have been applied anywhere in the chain.
        unanswered.keySet().stream().filter(s -> s.resource().equals(resource)).forEach(s -> todo.add(s.token()));
        Set<Long> seen = new HashSet<>();
        while (!todo.isEmpty()) {
            long token = todo.poll();
            if (token == to) {
                return true;
            }
            if (seen.add(token)) {
                todo.addAll(next.getOrDefault(token, Set.of()));
            }
        }
        return false;
    }
}
