package io.fencelab.engine.lease;

import java.util.Arrays;
import java.util.Locale;
import java.util.Optional;

/** Where a lease service's fencing token comes from (docs/SERVICES.md says what each guarantees). */
public enum TokenRecipe {
    /** PostgreSQL: the lease row's counter, incremented by the granting statement itself. */
    COUNTER,
    /** etcd: the lock key's create revision, set by the transaction that grants. */
    CREATE_REVISION,
    /** ZooKeeper: the lock node's czxid, the transaction id that created it. */
    CZXID,
    /** ZooKeeper: the lock node's sequence number, from its parent's counter. */
    SEQUENCE,
    /** Redis: INCR on a counter key after the lock is granted: two steps, the classic trap. */
    INCR_AFTER_LOCK,
    /** Redis: one Lua script that grants the lock and increments the counter in one step. */
    LUA;

    /** Its name in a scenario file: {@code incr-after-lock}. */
    public String key() {
        return name().toLowerCase(Locale.ROOT).replace('_', '-');
    }

    /** Whether each grant's token is the one after the scope's previous grant's, so a skipped one is missing. */
    public boolean consecutive() {
        return this == COUNTER || this == INCR_AFTER_LOCK || this == LUA;
    }

    public ServiceKind service() {
        return switch (this) {
            case COUNTER -> ServiceKind.POSTGRES;
            case CREATE_REVISION -> ServiceKind.ETCD;
            case CZXID, SEQUENCE -> ServiceKind.ZOOKEEPER;
            case INCR_AFTER_LOCK, LUA -> ServiceKind.REDIS;
        };
    }

    public static Optional<TokenRecipe> named(String key) {
        return Arrays.stream(values()).filter(t -> t.key().equals(key)).findFirst();
    }
}
