package io.fencelab.services.redis;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.redisson.api.RScript;
import org.redisson.api.RedissonClient;
import org.redisson.client.codec.StringCodec;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One holder's side of Redis, as its own process would have it: its own Redisson client (made at its first
 * use), whose watchdog keeps its RLocks alive, and for the Lua recipe a renewal thread of ours doing the
 * watchdog's work. {@link #suspend} stops both as a frozen process's would stop.
 */
final class RedisHolder {

    private static final Logger LOG = LoggerFactory.getLogger(RedisHolder.class);

    /** Redisson owns an RLock per client and thread id; every virtual thread acting for this holder uses this one. */
    static final long THREAD_ID = 1L;

    private final String name;
    private final String id;
    private final RedisConnection connection;
    private final Duration lifetime;
    /** The Lua locks this holder keeps alive: scope → its keys. */
    private final Map<String, ScopeKeys> renewing = new ConcurrentHashMap<>();
    /** The scopes whose lock this holder was told it was granted (and has not released or been refused since). */
    private final Set<String> told = ConcurrentHashMap.newKeySet();
    private RedissonClient client;
    private ScheduledExecutorService renewal;

    RedisHolder(String name, String instanceId, RedisConnection connection, Duration lifetime) {
        this.name = name;
        this.id = name + "@" + instanceId;
        this.connection = connection;
        this.lifetime = lifetime;
    }

    String name() {
        return name;
    }

    /** The Lua lock's value: the holder's name and this {@link RedisLeases}' id, unique among processes. */
    String id() {
        return id;
    }

    /** The holder's client, made now if it has none (at its first use, or its first use after {@link #suspend}). */
    synchronized RedissonClient client() {
        if (client == null || client.isShutdown()) {
            client = connection.newClient(lifetime);
        }
        return client;
    }

    RScript script() {
        return client().getScript(StringCodec.INSTANCE);
    }

    /**
     * Records that the holder was told it holds {@code scope}'s lock ({@code true}), or that it no longer does (then
     * its Lua lock is no longer kept alive either).
     */
    void told(String scope, boolean holds) {
        if (holds) {
            told.add(scope);
        } else {
            told.remove(scope);
            renewing.remove(scope);
        }
    }

    /** Whether the holder was told it holds {@code scope}'s lock: one it holds without being told is an orphan grant. */
    boolean holds(String scope) {
        return told.contains(scope);
    }

    /** Keeps the Lua lock of {@code scope} alive every third of its lifetime until it is no longer this holder's. */
    synchronized void keepAlive(String scope, ScopeKeys keys) {
        renewing.put(scope, keys);
        if (renewal == null) {
            renewal = Executors.newSingleThreadScheduledExecutor(Thread.ofPlatform().daemon()
                    .name("fencelab-redis-renewal-" + name).factory());
            long every = Math.max(1, lifetime.toMillis() / 3);
            renewal.scheduleAtFixedRate(this::extendAll, every, every, TimeUnit.MILLISECONDS);
        }
    }

    /**
     * One round of the renewal: like Redisson's watchdog, it drops a lock the holder no longer has without
     * telling anyone, and keeps trying after an error.
     */
    private void extendAll() {
        RScript script;
        try {
            script = script();
        } catch (RuntimeException e) {
            LOG.debug("holder {}: no client for the renewal: {}", name, e.getMessage());
            return;
        }
        renewing.forEach((scope, keys) -> script.<List<Object>>evalAsync(RScript.Mode.READ_WRITE,
                        RedisScripts.EXTEND, RScript.ReturnType.LIST, keys.list(), id, Long.toString(lifetime.toMillis()))
                .whenComplete((answer, error) -> {
                    if (error != null) {
                        LOG.debug("holder {}: cannot extend {}: {}", name, keys.lock(), error.getMessage());
                    } else if (!"1".equals(String.valueOf(answer.getFirst()))) {
                        renewing.remove(scope, keys);
                    }
                }));
    }

    /**
     * The holder's keep-alive stops as a frozen process's would, and nothing is unlocked: its Redisson client is shut
     * down (the watchdog, a timer of that client, with it) and its renewal thread ends. Its next operation makes a
     * new client, as a thawed process reconnects: for Redisson that is a new lock owner (the owner is the client's
     * id), so an RLock taken before does not count as this holder's any more.
     */
    synchronized void suspend() {
        stopRenewal();
        if (client != null) {
            client.shutdown(0, 2, TimeUnit.SECONDS);
            client = null;
        }
    }

    private void stopRenewal() {
        if (renewal != null) {
            renewal.shutdownNow();
            renewal = null;
        }
        renewing.clear();
    }

    synchronized void close() {
        suspend();
    }
}
