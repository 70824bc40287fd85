package io.fencelab.services.redis;

import io.fencelab.engine.db.DatabaseException;
import io.fencelab.engine.db.DatabaseFailure;
import java.net.URI;
import java.net.URISyntaxException;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.redisson.Redisson;
import org.redisson.api.RFuture;
import org.redisson.api.RedissonClient;
import org.redisson.client.RedisAuthRequiredException;
import org.redisson.client.RedisException;
import org.redisson.client.RedisOutOfMemoryException;
import org.redisson.client.RedisWrongPasswordException;
import org.redisson.config.Config;
import org.redisson.config.ConstantDelay;

/**
 * Where a run's Redis is and how its clients talk to it: a {@code redis://[[user]:password@]host:port} URL taken
 * apart so that the password goes to the client's configuration and never into an address, a message or a log;
 * Redisson clients with bounded timeouts; and the one translation of a failed call into a
 * {@link DatabaseException}.
 *
 * @param address  {@code redis://host:port}, without credentials: what messages name
 * @param username null for the default user
 * @param password null for none
 */
record RedisConnection(String address, String username, String password) {

    /** How long one command may wait for its answer, and a connection for its handshake. */
    static final Duration COMMAND_TIMEOUT = Duration.ofMillis(1500);
    /** The caller's bound on one whole operation, retries included: a backstop over the client's own timeouts. */
    static final Duration CALL_LIMIT = Duration.ofSeconds(5);

    /**
     * Takes a URL apart.
     *
     * @throws IllegalArgumentException if it is not {@code redis://host:port} (the message never repeats a password)
     */
    static RedisConnection parse(String url) {
        URI uri;
        try {
            uri = new URI(url);
        } catch (URISyntaxException e) {
            throw new IllegalArgumentException("not a Redis URL (expected redis://[:password@]host:port)");
        }
        if (!"redis".equals(uri.getScheme()) || uri.getHost() == null || uri.getPort() < 0) {
            throw new IllegalArgumentException("not a Redis URL (expected redis://[:password@]host:port): "
                    + uri.getScheme() + "://" + uri.getHost() + (uri.getPort() < 0 ? "" : ":" + uri.getPort()));
        }
        String user = null;
        String pass = null;
        String info = uri.getRawUserInfo();
        if (info != null && !info.isEmpty()) {
            int colon = info.indexOf(':');
            // As redis-cli reads it: a lone component is the password.
            user = colon < 0 ? null : blankToNull(decode(info.substring(0, colon)));
            pass = decode(colon < 0 ? info : info.substring(colon + 1));
        }
        return new RedisConnection("redis://" + uri.getHost() + ":" + uri.getPort(), user, pass);
    }

    private static String decode(String s) {
        return URLDecoder.decode(s, StandardCharsets.UTF_8);
    }

    private static String blankToNull(String s) {
        return s.isEmpty() ? null : s;
    }

    /** {@code host:port}, for messages. */
    String where() {
        return address.substring("redis://".length());
    }

    /**
     * A new client of its own: small pools and thread counts (one per holder), every wait bounded, a connection
     * made at once (so an unreachable server fails here).
     */
    RedissonClient newClient(Duration lockWatchdogTimeout) {
        Config config = new Config();
        config.setLockWatchdogTimeout(lockWatchdogTimeout.toMillis());
        config.setNettyThreads(2);
        config.setThreads(2);
        config.setUsername(username);
        config.setPassword(password);
        int timeout = (int) COMMAND_TIMEOUT.toMillis();
        config.useSingleServer().setAddress(address)
                .setConnectionMinimumIdleSize(1).setConnectionPoolSize(4)
                .setSubscriptionConnectionMinimumIdleSize(1).setSubscriptionConnectionPoolSize(2)
                .setConnectTimeout(timeout).setTimeout(timeout)
                .setRetryAttempts(1).setRetryDelay(new ConstantDelay(Duration.ofMillis(300)))
                .setPingConnectionInterval(timeout);
        try {
            return Redisson.create(config);
        } catch (RuntimeException e) {
            throw failure("connecting", e);
        }
    }

    /** The answer of {@code future}, waiting at most {@link #CALL_LIMIT}; a failure as {@link #failure}. */
    <T> T await(String what, RFuture<T> future) {
        try {
            return future.toCompletableFuture().get(CALL_LIMIT.toMillis(), TimeUnit.MILLISECONDS);
        } catch (InterruptedException e) {
            future.cancel(false);
            Thread.currentThread().interrupt();
            throw failure(what, e);
        } catch (TimeoutException e) {
            future.cancel(false);
            throw failure(what, e);
        } catch (ExecutionException | CompletionException e) {
            throw failure(what, e.getCause() == null ? e : e.getCause());
        } catch (RuntimeException e) {
            throw failure(what, e);
        }
    }

    /**
     * {@code cause} as a run takes it: an unreachable, slow, restarting, read-only (failed over) or shut-down
     * Redis is {@code CONNECTION_LOST}, which the worker retries; a refused password {@code PERMISSION_DENIED};
     * a full memory {@code OUT_OF_RESOURCES}; any other refusal (a script error) {@code REFUSED}.
     */
    DatabaseException failure(String what, Throwable cause) {
        while ((cause instanceof CompletionException || cause instanceof ExecutionException) && cause.getCause() != null) {
            cause = cause.getCause();
        }
        DatabaseFailure kind = switch (cause) {
            case RedisWrongPasswordException w -> DatabaseFailure.PERMISSION_DENIED;
            case RedisAuthRequiredException a -> DatabaseFailure.PERMISSION_DENIED;
            case RedisOutOfMemoryException m -> DatabaseFailure.OUT_OF_RESOURCES;
            case RedisException r when isRefusal(r) -> refusal(r);
            default -> DatabaseFailure.CONNECTION_LOST;
        };
        String said = cause.getMessage() == null ? cause.getClass().getSimpleName() : firstLine(cause.getMessage());
        String reason = "Redis " + what + " failed: " + said;
        return new DatabaseException(kind, reason, "Redis at " + where() + ": " + what + " failed: " + said, cause);
    }

    /** Whether the server answered with an error of its own, rather than the connection failing. */
    private static boolean isRefusal(RedisException e) {
        return e.getClass() == RedisException.class && e.getMessage() != null
                && (e.getMessage().startsWith("ERR") || e.getMessage().contains("NOAUTH")
                        || e.getMessage().contains("WRONGPASS") || e.getMessage().contains("NOPERM"));
    }

    private static DatabaseFailure refusal(RedisException e) {
        String m = e.getMessage();
        return m.contains("NOAUTH") || m.contains("WRONGPASS") || m.contains("NOPERM") ? DatabaseFailure.PERMISSION_DENIED
                : DatabaseFailure.REFUSED;
    }

    private static String firstLine(String s) {
        int nl = s.indexOf('\n');
        return nl < 0 ? s : s.substring(0, nl);
    }

    /** Never the password. */
    @Override
    public String toString() {
        return address;
    }
}
