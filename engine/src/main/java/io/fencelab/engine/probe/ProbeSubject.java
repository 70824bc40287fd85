package io.fencelab.engine.probe;

import io.fencelab.engine.fence.SqlFence;
import io.fencelab.engine.resource.SqlKey;
import io.fencelab.engine.resource.TargetKind;
import io.fencelab.engine.run.RunSpec;
import io.fencelab.engine.worker.TargetWrite;
import io.fencelab.engine.worker.WorkerSpec;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/**
 * One fence as the probe tries it: the key and scope its items write (those the file's workers write
 * first), the other scopes the file's workers use, and the stored token of the key before any item
 * writes (what {@code setup:} left), so the items' tokens start above it.
 *
 * @param floor the token the key's row holds after setup; 0 when there is no row or its token is no integer
 */
record ProbeSubject(SqlFence fence, String key, String scope, List<String> otherScopes, long floor) {

    /** The key and scope a probe writes when it has no scenario's workers to take them from. */
    static final String DEFAULT_KEY = "1";
    static final String DEFAULT_SCOPE = "probe";

    ProbeSubject {
        otherScopes = List.copyOf(otherScopes);
    }

    /** {@code fence} with the first key and scope of {@code spec}'s workers that write it (defaults without). */
    static ProbeSubject of(SqlFence fence, RunSpec spec) {
        String key = null;
        String scope = null;
        Set<String> scopes = new LinkedHashSet<>();
        for (WorkerSpec w : spec == null ? List.<WorkerSpec>of() : spec.workers()) {
            for (TargetWrite tw : w.writes()) {
                if (tw.target() == TargetKind.SQL && SqlKey.fence(tw.key()).equals(fence.name())) {
                    if (key == null) {
                        key = SqlKey.key(tw.key());
                        scope = w.scope();
                    }
                    scopes.add(w.scope());
                }
            }
        }
        scope = scope == null ? DEFAULT_SCOPE : scope;
        scopes.remove(scope);
        return new ProbeSubject(fence, key == null ? DEFAULT_KEY : key, scope, new ArrayList<>(scopes), 0);
    }

    ProbeSubject withFloor(long value) {
        return new ProbeSubject(fence, key, scope, otherScopes, value);
    }

    String name() {
        return fence.name();
    }

    /** A token above setup's: {@code preferred}, or the next above the floor when setup stored more. */
    long above(long preferred) {
        return Math.max(preferred, floor + 1);
    }
}
