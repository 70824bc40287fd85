package io.fencelab.engine.lease;

import java.lang.reflect.RecordComponent;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.random.RandomGenerator;

/**
 * What a real lease client does with the engine's one lease table: how long each grant or renewal
 * asks for, how often it renews, when it gives up on its own, whether it notices a refused renewal,
 * how a candidate waits after a busy answer, and any lock-delay after an invalidation. A profile
 * changes holder behaviour and timing, never the fence: every profile shares the table, its
 * statements and its token counter. {@code docs/TUNING.md} ({@code ## Profiles}) gives each
 * profile's source.
 *
 * <p>Each record's component names are the scenario file's keys under {@code lease:}
 * ({@link #settings}), so the format and the engine cannot disagree about them.
 */
public sealed interface LeaseProfile {

    /** The profile's name in a scenario file: {@code kubernetes}. */
    String key();

    /** What every grant and renewal asks the lease table for: the service-side lifetime. */
    Duration grantTtl();

    /** How often the holder renews; zero: never. */
    Duration renewEvery();

    /**
     * How long after its last successful renewal (or its grant) the holder stops believing on its own,
     * without any answer from the service; zero (the default): it never does (it learns only from a
     * refused renewal or a stale write).
     */
    default Duration giveUpAfter() {
        return Duration.ZERO;
    }

    /**
     * Whether a refused renewal ends the holder's belief (the default). Redisson's watchdog and
     * ShedLock's keep-alive stop quietly: the application goes on believing it holds the lock.
     */
    default boolean noticesLoss() {
        return true;
    }

    /**
     * Whether a holder that stops leading on its own (its renew deadline passed, or a renewal was
     * refused) releases the lease at once, so the next holder need not wait for it to expire; false
     * (the default): it just stops, and its lease runs out on the service.
     */
    default boolean releasesOnStepDown() {
        return false;
    }

    /** After an invalidated (expired, not released) lease, how long the scope grants nothing; zero: none. */
    default Duration lockDelay() {
        return Duration.ZERO;
    }

    /**
     * How long a candidate waits after a busy answer before it asks again. By default a waiter woken
     * by a watch (etcd, Consul's blocking query, ZooKeeper, Redisson's pub/sub): it asks again the
     * moment the lease it was told about expires; a release, which the real watch reports at once, is
     * seen at its next poll after {@code idleTime}, whichever comes first.
     *
     * @param untilExpiry how long until the busy lease expires, as the service answered (or until a
     *                    lock-delay ends)
     * @param idleTime    the worker's own back-off
     * @param random      the run's seeded generator for this worker (jitter)
     */
    default Duration retryAfterBusy(Duration untilExpiry, Duration idleTime, RandomGenerator random) {
        Duration wait = untilExpiry.compareTo(idleTime) < 0 ? untilExpiry : idleTime;
        return wait.compareTo(Duration.ofMillis(1)) < 0 ? Duration.ofMillis(1) : wait;
    }

    /**
     * The longest {@link #retryAfterBusy} can be for a worker resting {@code idleTime}: how late after
     * a lease frees up a waiting candidate may ask again, for the failover bound a sweep draws.
     */
    default Duration longestRetry(Duration idleTime) {
        return idleTime;
    }

    /** The same profile with its main lifetime (ttl, leaseDuration, …) changed, as a comparison or a live change does. */
    LeaseProfile withTtl(Duration ttl);

    /** The settings that break a real client's rules or make no sense; empty (the default) when sound. */
    default List<Violation> violations() {
        return List.of();
    }

    /** One broken rule: the setting (a key under {@code lease:}) and what is wrong, in words. */
    record Violation(String setting, String problem) {}

    /**
     * The profiles by their key, in the order documentation lists them: a view of {@link LeaseProfileRegistry},
     * the one registry of profiles.
     */
    Map<String, Class<? extends LeaseProfile>> PROFILES = LeaseProfileRegistry.typesByName();

    /** Each profile's settings (its scenario keys under {@code lease:}), in order. */
    static List<String> settings(Class<? extends LeaseProfile> profile) {
        return Arrays.stream(profile.getRecordComponents()).map(RecordComponent::getName).toList();
    }

    /**
     * The profile's main lifetime, the setting {@link #withTtl} changes: its first ({@code ttl},
     * {@code leaseDuration}, {@code lockWatchdogTimeout}, …).
     */
    static String mainSetting(Class<? extends LeaseProfile> profile) {
        return settings(profile).getFirst();
    }

    /** The settings as {@code name=value} for reports: {@code leaseDuration=15s, renewDeadline=10s, …}. */
    default Map<String, Object> values() {
        Map<String, Object> values = new LinkedHashMap<>();
        for (RecordComponent c : getClass().getRecordComponents()) {
            try {
                values.put(c.getName(), c.getAccessor().invoke(this));
            } catch (ReflectiveOperationException e) {
                throw new IllegalStateException(e);
            }
        }
        return values;
    }

    /** One line: {@code kubernetes (leaseDuration 15s, renewDeadline 10s, retryPeriod 2s)}. */
    default String describe() {
        List<String> parts = new ArrayList<>();
        values().forEach((k, v) -> parts.add(k + " " + (v instanceof Duration d
                ? io.fencelab.engine.chaos.Distribution.text(d) : v)));
        return key() + " (" + String.join(", ", parts) + ")";
    }

    private static Duration positive(Duration d, String name) {
        Objects.requireNonNull(d, name);
        if (!d.isPositive()) {
            throw new IllegalArgumentException(name + " must be more than 0s, was " + d);
        }
        return d;
    }

    /**
     * Fencelab's own model, the one runs had before profiles: a grant of {@code ttl}, renewed every
     * {@code renewEvery} (zero: never); a refused renewal ends the belief; a candidate retries after
     * its idle time.
     */
    record Generic(Duration ttl, Duration renewEvery) implements LeaseProfile {
        public Generic {
            positive(ttl, "lease ttl");
            if (renewEvery.isNegative()) {
                throw new IllegalArgumentException("renew interval must not be negative, was " + renewEvery);
            }
        }

        @Override public String key() { return "generic"; }
        @Override public Duration grantTtl() { return ttl; }

        @Override
        public Duration retryAfterBusy(Duration untilExpiry, Duration idleTime, RandomGenerator random) {
            return idleTime;
        }

        @Override
        public LeaseProfile withTtl(Duration newTtl) {
            return new Generic(newTtl, renewEvery);
        }

        @Override
        public List<Violation> violations() {
            return !renewEvery.isZero() && renewEvery.compareTo(ttl) >= 0
                    ? List.of(new Violation("renewEvery", "renewing every " + text(renewEvery)
                            + " is not sooner than the ttl " + text(ttl) + ": the lease expires between renewals"))
                    : List.of();
        }
    }

    /**
     * client-go leader election ({@code k8s.io/client-go/tools/leaderelection}): a grant of
     * {@code leaseDuration}; the leader renews every {@code retryPeriod}, and when a renew loop that
     * began {@code retryPeriod} after its last success has not succeeded within {@code renewDeadline}
     * it stops leading; a candidate retries every {@code retryPeriod} plus a jitter of up to
     * {@value #JITTER_FACTOR} × {@code retryPeriod}. With {@code releaseOnCancel} (client-go's
     * {@code ReleaseOnCancel}, off by default) a leader that stops leading releases the lease, as
     * {@code renew()} does after its loop ({@code if le.config.ReleaseOnCancel { le.release() }}).
     */
    record Kubernetes(Duration leaseDuration, Duration renewDeadline, Duration retryPeriod, boolean releaseOnCancel)
            implements LeaseProfile {
        /** client-go's {@code JitterFactor}. */
        public static final double JITTER_FACTOR = 1.2;
        /** The core clients' defaults. */
        public static final Kubernetes DEFAULT = new Kubernetes(Duration.ofSeconds(15), Duration.ofSeconds(10),
                Duration.ofSeconds(2), false);

        public Kubernetes {
            positive(leaseDuration, "leaseDuration");
            positive(renewDeadline, "renewDeadline");
            positive(retryPeriod, "retryPeriod");
        }

        /** Without {@code releaseOnCancel}, as client-go defaults it. */
        public Kubernetes(Duration leaseDuration, Duration renewDeadline, Duration retryPeriod) {
            this(leaseDuration, renewDeadline, retryPeriod, false);
        }

        @Override public String key() { return "kubernetes"; }
        @Override public Duration grantTtl() { return leaseDuration; }
        @Override public Duration renewEvery() { return retryPeriod; }
        @Override public Duration giveUpAfter() { return retryPeriod.plus(renewDeadline); }
        @Override public boolean releasesOnStepDown() { return releaseOnCancel; }

        @Override
        public Duration longestRetry(Duration idleTime) {
            return Duration.ofNanos((long) (retryPeriod.toNanos() * (1 + JITTER_FACTOR)));
        }

        @Override
        public Duration retryAfterBusy(Duration untilExpiry, Duration idleTime, RandomGenerator random) {
            // wait.JitterUntil(period, 1.2): period + rand[0,1) * 1.2 * period
            long nanos = retryPeriod.toNanos();
            return Duration.ofNanos(nanos + (long) (random.nextDouble() * JITTER_FACTOR * nanos) / 1_000 * 1_000);
        }

        @Override
        public LeaseProfile withTtl(Duration ttl) {
            return new Kubernetes(ttl, renewDeadline, retryPeriod, releaseOnCancel);
        }

        /** client-go's own checks in {@code NewLeaderElector}. */
        @Override
        public List<Violation> violations() {
            List<Violation> v = new ArrayList<>();
            if (leaseDuration.compareTo(renewDeadline) <= 0) {
                v.add(new Violation("leaseDuration", "leaseDuration " + text(leaseDuration)
                        + " must be more than renewDeadline " + text(renewDeadline)));
            }
            Duration jittered = Duration.ofNanos((long) (retryPeriod.toNanos() * JITTER_FACTOR));
            if (renewDeadline.compareTo(jittered) <= 0) {
                v.add(new Violation("renewDeadline", "renewDeadline " + text(renewDeadline) + " must be more than "
                        + JITTER_FACTOR + " × retryPeriod (" + text(jittered) + ")"));
            }
            return v;
        }
    }

    /**
     * etcd v3 leases ({@code clientv3} {@code KeepAlive}, {@code concurrency.NewSession}): a lease of
     * {@code ttl}, kept alive once ttl/3 has passed since the last answer, at the client's next look
     * (it looks every 500 ms); the client closes its keep-alive channel (the session is done) when no
     * keep-alive answered within {@code ttl}; a waiter is woken by the watch when the key goes, that is
     * when the lease expires.
     */
    record Etcd(Duration ttl) implements LeaseProfile {
        /**
         * How often the client looks for keep-alives due: Go's {@code sendKeepAliveLoop} waits
         * {@code retryConnWait} (500 ms) between looks, jetcd's {@code LeaseImpl.KeepAlive} runs a 500 ms
         * periodic timer. Calibration found the plain ttl/3 optimistic by up to this much.
         */
        public static final Duration KEEP_ALIVE_LOOK = Duration.ofMillis(500);

        /** {@code concurrency}'s default session TTL. */
        public static final Etcd DEFAULT = new Etcd(Duration.ofSeconds(60));

        public Etcd {
            positive(ttl, "ttl");
        }

        @Override public String key() { return "etcd"; }
        @Override public Duration grantTtl() { return ttl; }

        /**
         * The first look after ttl/3 has passed since the last answer, which itself came just after a look:
         * ttl/3 rounded up past the next 500 ms, 1.5 s for a 4 s TTL, 20.5 s for 60 s. A TTL under 1.5 s (under
         * etcd's own minimum of 2 s) keeps ttl/3: the looks are too coarse to model there.
         */
        @Override
        public Duration renewEvery() {
            Duration third = ttl.dividedBy(3);
            if (third.compareTo(KEEP_ALIVE_LOOK) < 0) {
                return third;
            }
            return KEEP_ALIVE_LOOK.multipliedBy(third.dividedBy(KEEP_ALIVE_LOOK) + 1);
        }

        @Override public Duration giveUpAfter() { return ttl; }

        @Override
        public LeaseProfile withTtl(Duration newTtl) {
            return new Etcd(newTtl);
        }
    }

    /**
     * Redisson's {@code RLock} without a lease time: the lock is set for {@code lockWatchdogTimeout}
     * and the watchdog extends it every third of that; when an extension finds the lock gone the
     * watchdog stops quietly and the application is not told; a waiter retries when the lock's
     * remaining ttl runs out.
     */
    record Redisson(Duration lockWatchdogTimeout) implements LeaseProfile {
        /** {@code Config.lockWatchdogTimeout}'s default. */
        public static final Redisson DEFAULT = new Redisson(Duration.ofSeconds(30));

        public Redisson {
            positive(lockWatchdogTimeout, "lockWatchdogTimeout");
        }

        @Override public String key() { return "redisson"; }
        @Override public Duration grantTtl() { return lockWatchdogTimeout; }
        @Override public Duration renewEvery() { return lockWatchdogTimeout.dividedBy(3); }
        @Override public boolean noticesLoss() { return false; }

        @Override
        public LeaseProfile withTtl(Duration ttl) {
            return new Redisson(ttl);
        }
    }

    /**
     * Consul sessions and the {@code api.Lock}: a session {@code ttl}, which the servers let run up to
     * twice as long before invalidating it ({@code SessionTTLMultiplier} 2), renewed every ttl/2; the
     * client gives up when no renewal succeeded within {@code ttl}; after an invalidation the key is
     * not granted again for {@code lockDelay}; a waiter's blocking query returns when the key changes.
     */
    record Consul(Duration ttl, Duration lockDelay) implements LeaseProfile {
        /** The servers' leniency: a session is invalidated after up to this many ttls. */
        public static final int TTL_MULTIPLIER = 2;
        /** {@code api.Lock}'s default session ttl and the session's default lock-delay. */
        public static final Consul DEFAULT = new Consul(Duration.ofSeconds(15), Duration.ofSeconds(15));

        public Consul {
            positive(ttl, "ttl");
            if (lockDelay.isNegative()) {
                throw new IllegalArgumentException("lockDelay must not be negative, was " + lockDelay);
            }
        }

        @Override public String key() { return "consul"; }
        @Override public Duration grantTtl() { return ttl.multipliedBy(TTL_MULTIPLIER); }
        @Override public Duration renewEvery() { return ttl.dividedBy(2); }
        @Override public Duration giveUpAfter() { return ttl; }

        @Override
        public LeaseProfile withTtl(Duration newTtl) {
            return new Consul(newTtl, lockDelay);
        }
    }

    /**
     * ZooKeeper sessions as Curator uses them: the server expires a session not heard from for
     * {@code sessionTimeout}; the client pings when idle for a third of it, and declares itself
     * disconnected (Curator: SUSPENDED, which a leader latch treats as lost leadership) when nothing
     * answered for two thirds of it; a waiter's watch fires when the ephemeral node goes.
     */
    record ZooKeeper(Duration sessionTimeout) implements LeaseProfile {
        /** Curator asks for 60 s; a server with the default tickTime (2 s) caps it at 20 ticks, 40 s. */
        public static final ZooKeeper DEFAULT = new ZooKeeper(Duration.ofSeconds(40));

        public ZooKeeper {
            positive(sessionTimeout, "sessionTimeout");
        }

        @Override public String key() { return "zookeeper"; }
        @Override public Duration grantTtl() { return sessionTimeout; }
        @Override public Duration renewEvery() { return sessionTimeout.dividedBy(3); }
        @Override public Duration giveUpAfter() { return sessionTimeout.multipliedBy(2).dividedBy(3); }

        @Override
        public LeaseProfile withTtl(Duration ttl) {
            return new ZooKeeper(ttl);
        }
    }

    /**
     * ShedLock: the lock row is held until {@code lockAtMostFor} and never renewed; with
     * {@code keepAlive} ({@code KeepAliveLockProvider}) it is extended by lockAtMostFor at every half
     * of it, and a failed extension is only logged. A task that finds the lock taken is skipped until
     * its next schedule (the worker's idle time).
     */
    record ShedLock(Duration lockAtMostFor, boolean keepAlive) implements LeaseProfile {
        /** {@code KeepAliveLockProvider} refuses a shorter lockAtMostFor. */
        public static final Duration KEEP_ALIVE_MINIMUM = Duration.ofSeconds(30);

        public ShedLock {
            positive(lockAtMostFor, "lockAtMostFor");
        }

        @Override public String key() { return "shedlock"; }
        @Override public Duration grantTtl() { return lockAtMostFor; }
        @Override public Duration renewEvery() { return keepAlive ? lockAtMostFor.dividedBy(2) : Duration.ZERO; }
        @Override public boolean noticesLoss() { return false; }

        @Override
        public Duration retryAfterBusy(Duration untilExpiry, Duration idleTime, RandomGenerator random) {
            return idleTime;
        }

        @Override
        public LeaseProfile withTtl(Duration ttl) {
            return new ShedLock(ttl, keepAlive);
        }

        @Override
        public List<Violation> violations() {
            return keepAlive && lockAtMostFor.compareTo(KEEP_ALIVE_MINIMUM) < 0
                    ? List.of(new Violation("lockAtMostFor", "the keep-alive provider needs lockAtMostFor of at least "
                            + text(KEEP_ALIVE_MINIMUM) + ", was " + text(lockAtMostFor)))
                    : List.of();
        }
    }

    private static String text(Duration d) {
        return io.fencelab.engine.chaos.Distribution.text(d);
    }
}
