package io.fencelab.engine.check;

import io.fencelab.engine.clock.RunTimes;
import io.fencelab.engine.event.Event.WriteAccepted;
import io.fencelab.engine.resource.ResourceId;
import io.fencelab.engine.resource.ResourceState;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.SortedMap;
import java.util.TreeSet;

/**
 * Invariant 3: each resource must end holding the last write accepted under its highest token.
 *
 * <p>Only resources with at least one {@code WriteAccepted} are judged: a resource the scenario
 * seeded before the run has no write in the log to be compared with. A digest is compared only when
 * the log carries one, so a log without digests is still judged on tokens.
 */
final class FinalStateCheck {

    private FinalStateCheck() {
    }

    static List<Witness> judge(SortedMap<ResourceId, ResourceWrites.Summary> expected, List<ResourceState> finalState) {
        Map<ResourceId, ResourceState> actual = new HashMap<>();
        for (ResourceState s : finalState) {
            actual.put(s.id(), s);
        }
        List<Witness> found = new ArrayList<>();
        expected.forEach((id, writes) -> {
            WriteAccepted want = writes.lastUnderHighest();
            ResourceState got = actual.get(id);
            if (got == null) {
                found.add(new Witness(Invariant.FINAL_STATE_MISMATCH,
                        "%s is missing from the final state, but %s's write with token %d at %s was accepted"
                                .formatted(id, want.holder(), want.token(), RunTimes.seconds(want.atMicros())),
                        List.of(want.seq())));
            } else if (!matches(want, got)) {
                found.add(mismatch(id, writes, got));
            }
        });
        return found;
    }

    private static boolean matches(WriteAccepted write, ResourceState state) {
        return write.token() == state.token()
                && (write.valueDigest() == null || Objects.equals(write.valueDigest(), state.valueDigest()));
    }

    private static Witness mismatch(ResourceId id, ResourceWrites.Summary writes, ResourceState got) {
        WriteAccepted want = writes.lastUnderHighest();
        TreeSet<Long> seqs = new TreeSet<>(List.of(want.seq()));
        String summary = "%s ends with token %d (value %s), not %s's write with token %d at %s (value %s), the last accepted under the highest token"
                .formatted(id, got.token(), got.valueDigest(), want.holder(), want.token(),
                        RunTimes.seconds(want.atMicros()), want.valueDigest());
        WriteAccepted last = writes.lastAccepted();
        if (last != want && matches(last, got)) {
            // Usually an unfenced store: the last writer won, whatever its token.
            seqs.add(last.seq());
            summary += "; it holds %s's later write with token %d at %s"
                    .formatted(last.holder(), last.token(), RunTimes.seconds(last.atMicros()));
        } else if (last != want) {
            summary += "; nor does it hold the last accepted write (%s's with token %d at %s)"
                    .formatted(last.holder(), last.token(), RunTimes.seconds(last.atMicros()));
        }
        return new Witness(Invariant.FINAL_STATE_MISMATCH, summary, List.copyOf(seqs));
    }
}
