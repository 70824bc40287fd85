package io.fencelab.services.redis;

import java.util.List;

/**
 * A scope's keys on Redis, namespaced by run ({@code fencelab:<runId>:<scope>:…}) so that runs sharing a server never
 * meet: its lock, its token counter and the hash naming its holder.
 */
record ScopeKeys(String lock, String token, String holder) {

    static ScopeKeys of(long runId, String scope) {
        String base = "fencelab:" + runId + ":" + scope + ":";
        return new ScopeKeys(base + "lock", base + "token", base + "holder");
    }

    /** The keys in the order the scripts read them: {@code KEYS[1..3]}. */
    List<Object> list() {
        return List.of(lock, token, holder);
    }
}
