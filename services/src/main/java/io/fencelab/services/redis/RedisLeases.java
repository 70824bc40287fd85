package io.fencelab.services.redis;

import io.fencelab.engine.clock.RunClock;
import io.fencelab.engine.lease.AcquireResult;
import io.fencelab.engine.lease.Lease;
import io.fencelab.engine.lease.RenewResult;
import io.fencelab.engine.store.StoreSession;
import io.fencelab.services.ServiceLeases;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import org.redisson.Redisson;
import org.redisson.api.RLock;
import org.redisson.api.RScript;

/**
 * A run's leases on Redis through Redisson, in one of two recipes ({@link TokenStep}). Each holder has its own
 * client ({@link RedisHolder}); a lock lives {@code lockWatchdogTimeout} on the server and the holder's client
 * keeps extending it every third of that, so a holder whose process freezes loses it that long after its last
 * extension. The {@code ttl} a worker asks for does not change that lifetime: Redisson's watchdog does not take one.
 *
 * <p>Keys: {@code fencelab:<runId>:<scope>:lock}, {@code …:token} (the counter), {@code …:holder} (a hash naming
 * the holder and its token, for a busy answer).
 */
public final class RedisLeases implements ServiceLeases {

    /** Where the token comes from, relative to the grant. */
    public enum TokenStep {
        /**
         * Redisson's {@code RLock} (with its watchdog), then {@code INCR} of the counter in a SEPARATE step: the
         * recipe most code writes, and the trap. A holder paused between the two steps past its lock's expiry counts
         * its token after the next holder has: a later token for the earlier grant.
         */
        INCR_AFTER_LOCK,
        /** One Lua script sets the lock ({@code SET NX PX}) and counts the token: the grant and its token are one step. */
        LUA
    }

    private static final String REDISSON = Redisson.class.getPackage().getImplementationVersion() == null ? ""
            : " " + Redisson.class.getPackage().getImplementationVersion();

    private final RedisConnection connection;
    private final long runId;
    private final Duration lifetime;
    private final RunClock clock;
    private final TokenStep tokenStep;
    /** Tells this instance's holders apart from another process's holders of the same name. */
    private final String instanceId = UUID.randomUUID().toString();
    private final Map<String, RedisHolder> holders = new ConcurrentHashMap<>();
    private volatile Consumer<String> betweenLockAndToken = holder -> {};

    /**
     * @param redisUrl            {@code redis://[[user]:password@]host:port}; the password is used, never shown
     * @param lockWatchdogTimeout how long a lock lives on the server without an extension (Redisson's
     *                            {@code Config.lockWatchdogTimeout}); extended every third of it
     * @throws IllegalArgumentException if the URL is not a Redis URL or the timeout is not positive
     */
    public RedisLeases(String redisUrl, long runId, Duration lockWatchdogTimeout, RunClock clock, TokenStep tokenStep) {
        if (lockWatchdogTimeout.toMillis() < 3) {
            throw new IllegalArgumentException("lockWatchdogTimeout must be at least 3 ms, not " + lockWatchdogTimeout);
        }
        this.connection = RedisConnection.parse(redisUrl);
        this.runId = runId;
        this.lifetime = lockWatchdogTimeout;
        this.clock = clock;
        this.tokenStep = tokenStep;
    }

    /** {@link TokenStep#INCR_AFTER_LOCK}, the recipe most code writes. */
    public RedisLeases(String redisUrl, long runId, Duration lockWatchdogTimeout, RunClock clock) {
        this(redisUrl, runId, lockWatchdogTimeout, clock, TokenStep.INCR_AFTER_LOCK);
    }

    /**
     * A seam for a test: {@code hook} runs, with the holder's name, after an {@code INCR_AFTER_LOCK} grant and
     * before its {@code INCR}, so that a test can pause the holder exactly between the two steps.
     */
    void betweenLockAndToken(Consumer<String> hook) {
        this.betweenLockAndToken = hook;
    }

    /** With {@code INCR_AFTER_LOCK}, the grant and the token are two steps: {@code hook} runs between them. */
    @Override
    public boolean betweenGrantAndToken(Consumer<String> hook) {
        if (tokenStep != TokenStep.INCR_AFTER_LOCK) {
            return false;
        }
        betweenLockAndToken(hook);
        return true;
    }

    /** The trap: {@code INCR_AFTER_LOCK} counts the token in a request after the lock's grant. */
    @Override
    public boolean countsAfterGrant() {
        return tokenStep == TokenStep.INCR_AFTER_LOCK;
    }

    /** {@link #suspend}: the holder's next call reconnects, so there is nothing to thaw. */
    @Override
    public void freeze(String holder) {
        suspend(holder);
    }

    /**
     * Stops {@code holder}'s keep-alive as its frozen process would, unlocking nothing: its lock runs out on the
     * server {@code lockWatchdogTimeout} after its last extension. The holder's next operation reconnects with a
     * new client (see {@link RedisHolder#suspend}).
     */
    public void suspend(String holder) {
        RedisHolder h = holders.get(holder);
        if (h != null) {
            h.suspend();
        }
    }

    @Override
    public String describe() {
        // Never the address: this goes into reports, and an address is the user's to show.
        return "Redis (Redisson" + REDISSON + ", "
                + (tokenStep == TokenStep.LUA ? "lock and token in one Lua script" : "RLock, then INCR") + ")";
    }

    @Override
    public String tokenSource() {
        return tokenStep == TokenStep.LUA ? "INCR of the scope's counter in the Lua script that sets the lock"
                : "INCR of the scope's counter after the RLock is granted (a separate step)";
    }

    /** Makes the holder's Redisson client now (it connects as it starts), as its first use would. */
    @Override
    public void connect(String holder) {
        try {
            holder(holder).client();
        } catch (RuntimeException e) {
            // the holder's first acquisition reports an unreachable server
        }
    }

    private RedisHolder holder(String name) {
        return holders.computeIfAbsent(name, n -> new RedisHolder(n, instanceId, connection, lifetime));
    }

    @Override
    public boolean startScope(String scope, long firstToken) {
        return false;
    }

    @Override
    public AcquireResult acquire(StoreSession session, String scope, String holder, Duration ttl) {
        RedisHolder h = holder(holder);
        ScopeKeys keys = ScopeKeys.of(runId, scope);
        return tokenStep == TokenStep.LUA ? acquireLua(h, scope, keys) : acquireThenIncr(h, scope, keys);
    }

    private AcquireResult acquireLua(RedisHolder h, String scope, ScopeKeys keys) {
        String what = "acquiring " + scope;
        String life = Long.toString(lifetime.toMillis());
        List<Object> a = eval(h, what, RedisScripts.GRANT, keys, h.id(), life, h.name());
        if (!"1".equals(a.get(0)) && h.id().equals(a.get(4)) && !h.holds(scope)) {
            // A grant whose answer was lost, so its holder never heard of it: give it up, then ask afresh.
            eval(h, what, RedisScripts.RELEASE, keys, h.id(), String.valueOf(a.get(2)));
            a = eval(h, what, RedisScripts.GRANT, keys, h.id(), life, h.name());
        }
        Instant now = clock.now();
        if (!"1".equals(a.get(0))) {
            return busy(scope, now, a.get(1), a.get(2), a.get(3));
        }
        h.told(scope, true);
        h.keepAlive(scope, keys);
        return new AcquireResult.Acquired(new Lease(scope, h.name(), number(a.get(1)), now,
                now.plusMillis(number(a.get(2)))));
    }

    private AcquireResult acquireThenIncr(RedisHolder h, String scope, ScopeKeys keys) {
        String what = "acquiring " + scope;
        RLock lock = h.client().getLock(keys.lock());
        boolean mine = connection.await(what, lock.isHeldByThreadAsync(RedisHolder.THREAD_ID));
        if (mine && !h.holds(scope)) {
            // A grant whose later steps failed, so its holder never heard of it: give it up, then ask afresh.
            connection.await(what, lock.unlockAsync(RedisHolder.THREAD_ID));
            mine = false;
        }
        // RLock is reentrant: a holder asking again for what it holds is told it is busy, as the fence would.
        boolean granted = !mine && connection.await(what,
                lock.tryLockAsync(0, -1, TimeUnit.MILLISECONDS, RedisHolder.THREAD_ID));
        if (!granted) {
            List<Object> w = eval(h, what, RedisScripts.WHO_HOLDS_RLOCK, keys);
            return busy(scope, clock.now(), w.get(0), w.get(1), w.get(2));
        }
        try {
            AcquireResult acquired = countAfterGrant(h, scope, keys, h.client().getId() + ":" + RedisHolder.THREAD_ID);
            h.told(scope, true);
            return acquired;
        } catch (RuntimeException e) {
            abandon(lock);
            throw e;
        }
    }

    /** The steps after an RLock grant: name the holder, then (the trap) count the token in a request of its own. */
    private AcquireResult countAfterGrant(RedisHolder h, String scope, ScopeKeys keys, String owner) {
        String what = "acquiring " + scope;
        eval(h, what, RedisScripts.NAME_HOLDER, keys, h.name(), owner);
        Instant now = clock.now();
        betweenLockAndToken.accept(h.name());
        // The second step: whatever happened since the grant, the counter answers the next number.
        long token = connection.await(what, h.client().getAtomicLong(keys.token()).incrementAndGetAsync());
        eval(h, what, RedisScripts.STORE_TOKEN, keys, owner, Long.toString(token));
        long pttl = connection.await(what, h.client().getLock(keys.lock()).remainTimeToLiveAsync());
        return new AcquireResult.Acquired(new Lease(scope, h.name(), token, now,
                clock.now().plusMillis(Math.max(0, pttl))));
    }

    /**
     * A grant its holder will never hear of (a later step failed): unlock it if the server answers; if not, the
     * holder's next acquire finds it and gives it up, so the watchdog does not keep alive a lock nobody believes in.
     */
    private void abandon(RLock lock) {
        try {
            connection.await("unlocking an unused grant", lock.unlockAsync(RedisHolder.THREAD_ID));
        } catch (RuntimeException e) {
            // the holder's next acquire gives it up
        }
    }

    private static AcquireResult busy(String scope, Instant now, Object name, Object token, Object pttl) {
        String holder = String.valueOf(name).isEmpty() ? "(unnamed yet)" : String.valueOf(name);
        return new AcquireResult.Busy(scope, holder, number(token), now.plusMillis(Math.max(0, number(pttl))));
    }

    @Override
    public RenewResult renew(StoreSession session, Lease lease, Duration ttl) {
        RedisHolder h = holders.get(lease.holder());
        if (h == null) {
            return new RenewResult.NotHeld(lease);
        }
        String what = "renewing " + lease.scope();
        ScopeKeys keys = ScopeKeys.of(runId, lease.scope());
        long pttl;
        if (tokenStep == TokenStep.LUA) {
            pttl = number(eval(h, what, RedisScripts.ASK, keys, h.id(), Long.toString(lease.token())).getFirst());
        } else {
            RLock lock = h.client().getLock(keys.lock());
            pttl = connection.await(what, lock.isHeldByThreadAsync(RedisHolder.THREAD_ID))
                    ? connection.await(what, lock.remainTimeToLiveAsync()) : -1;
        }
        if (pttl > 0) {
            return new RenewResult.Renewed(lease.withExpiry(clock.now().plusMillis(pttl)));
        }
        h.told(lease.scope(), false);
        return new RenewResult.NotHeld(lease);
    }

    @Override
    public boolean release(StoreSession session, Lease lease) {
        RedisHolder h = holders.get(lease.holder());
        if (h == null) {
            return false;
        }
        String what = "releasing " + lease.scope();
        ScopeKeys keys = ScopeKeys.of(runId, lease.scope());
        if (tokenStep == TokenStep.LUA) {
            h.told(lease.scope(), false);
            return "1".equals(eval(h, what, RedisScripts.RELEASE, keys, h.id(), Long.toString(lease.token())).getFirst());
        }
        RLock lock = h.client().getLock(keys.lock());
        if (!connection.await(what, lock.isHeldByThreadAsync(RedisHolder.THREAD_ID))) {
            return false;
        }
        connection.await(what, lock.unlockAsync(RedisHolder.THREAD_ID));
        h.told(lease.scope(), false);
        return true;
    }

    private List<Object> eval(RedisHolder h, String what, String script, ScopeKeys keys, Object... args) {
        return connection.await(what, h.script().evalAsync(RScript.Mode.READ_WRITE, script, RScript.ReturnType.LIST,
                keys.list(), args));
    }

    private static long number(Object o) {
        return Long.parseLong(String.valueOf(o));
    }

    @Override
    public void close() {
        holders.values().forEach(RedisHolder::close);
        holders.clear();
    }

    @Override
    public String toString() {
        return describe();
    }
}
