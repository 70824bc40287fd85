package io.fencelab.services.redis;

/**
 * The Lua scripts {@link RedisLeases} runs. Redis runs a script as one step: no other client's command comes
 * between its calls. Keys of a scope: {@code KEYS[1]} its lock, {@code KEYS[2]} its token counter,
 * {@code KEYS[3]} the hash naming the holder ({@code name}, {@code owner}, {@code token}). Every answer is a list
 * of strings.
 */
final class RedisScripts {

    private RedisScripts() {}

    /**
     * {@code LUA}'s grant: if the lock is free, set it to the holder's id with an expiry ({@code ARGV[2]} ms), count
     * the token and name the holder, all in one step: {@code 1, token, pttl}. Else who holds it:
     * {@code 0, name, token, pttl}.
     */
    static final String GRANT = """
            if redis.call('set', KEYS[1], ARGV[1], 'NX', 'PX', ARGV[2]) then
              local t = redis.call('incr', KEYS[2])
              redis.call('del', KEYS[3])
              redis.call('hset', KEYS[3], 'name', ARGV[3], 'owner', ARGV[1], 'token', t)
              return {'1', tostring(t), ARGV[2]}
            end
            return {'0', redis.call('hget', KEYS[3], 'name') or '', redis.call('hget', KEYS[3], 'token') or '0',
                    tostring(redis.call('pttl', KEYS[1])), redis.call('get', KEYS[1]) or ''}
            """;

    /** {@code LUA}'s keep-alive (the watchdog's equivalent): extend the lock while it is still the holder's: 1, else 0. */
    static final String EXTEND = """
            if redis.call('get', KEYS[1]) == ARGV[1] then
              redis.call('pexpire', KEYS[1], ARGV[2])
              return {'1'}
            end
            return {'0'}
            """;

    /** {@code LUA}'s question: is the lock the holder's ({@code ARGV[1]}) with this token ({@code ARGV[2]})? Its pttl, or -1. */
    static final String ASK = """
            if redis.call('get', KEYS[1]) == ARGV[1] and redis.call('hget', KEYS[3], 'token') == ARGV[2] then
              return {tostring(redis.call('pttl', KEYS[1]))}
            end
            return {'-1'}
            """;

    /** {@code LUA}'s release: delete the lock if it is the holder's with this token: 1, else 0. */
    static final String RELEASE = """
            if redis.call('get', KEYS[1]) == ARGV[1] and redis.call('hget', KEYS[3], 'token') == ARGV[2] then
              redis.call('del', KEYS[1])
              return {'1'}
            end
            return {'0'}
            """;

    /**
     * {@code INCR_AFTER_LOCK}'s bookkeeping right after the grant: name the holder, whose lock field is
     * {@code ARGV[2]} (Redisson's {@code <client id>:<thread id>}); its token follows in a later step.
     */
    static final String NAME_HOLDER = """
            redis.call('del', KEYS[3])
            redis.call('hset', KEYS[3], 'name', ARGV[1], 'owner', ARGV[2])
            return {'1'}
            """;

    /** {@code INCR_AFTER_LOCK}: store the token the holder counted, if the hash still names it ({@code ARGV[1]}). */
    static final String STORE_TOKEN = """
            if redis.call('hget', KEYS[3], 'owner') == ARGV[1] then
              redis.call('hset', KEYS[3], 'token', ARGV[2])
            end
            return {'1'}
            """;

    /**
     * {@code INCR_AFTER_LOCK}: who holds the RLock (a hash whose one field is the owner's lock name):
     * {@code name, token, pttl}; an owner the holder hash does not name yet (between its grant and its bookkeeping)
     * is {@code ''} with the counter's value; a free lock {@code ''}, the counter, {@code -2}.
     */
    static final String WHO_HOLDS_RLOCK = """
            local owners = redis.call('hkeys', KEYS[1])
            local counter = redis.call('get', KEYS[2]) or '0'
            if #owners == 0 then
              return {'', counter, '-2'}
            end
            local pttl = tostring(redis.call('pttl', KEYS[1]))
            if redis.call('hget', KEYS[3], 'owner') ~= owners[1] then
              return {'', counter, pttl}
            end
            return {redis.call('hget', KEYS[3], 'name') or '', redis.call('hget', KEYS[3], 'token') or counter, pttl}
            """;
}
