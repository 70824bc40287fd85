package io.fencelab.engine.lease;

import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Optional;

/**
 * Which service grants a run's leases: the engine's own PostgreSQL table (the default, which every
 * profile models its client on), or a real lease service through its own Java client, whose client
 * behaviour is its profile's: etcd (jetcd), ZooKeeper (Curator) and Redis (Redisson).
 */
public enum ServiceKind {
    POSTGRES,
    ETCD,
    ZOOKEEPER,
    REDIS;

    /** Its name in a scenario file and on the command line: {@code etcd}. */
    public String key() {
        return name().toLowerCase(Locale.ROOT);
    }

    /** The only profile whose client runs on this service, or empty: any profile (PostgreSQL models them all). */
    public Optional<String> profileKey() {
        return switch (this) {
            case POSTGRES -> Optional.empty();
            case ETCD -> Optional.of("etcd");
            case ZOOKEEPER -> Optional.of("zookeeper");
            case REDIS -> Optional.of("redisson");
        };
    }

    /**
     * The profile whose client runs on this service: {@code scenarios} if it is that one (or this is
     * PostgreSQL, which models every profile), else this service's client with the same lease lifetime,
     * so a story's timing holds: {@code ttl: 30s} becomes etcd's 30 s TTL, ZooKeeper's 30 s session,
     * Redisson's 30 s watchdog timeout.
     */
    public LeaseProfile clientOf(LeaseProfile scenarios) {
        if (profileKey().orElse(scenarios.key()).equals(scenarios.key())) {
            return scenarios;
        }
        Duration lifetime = scenarios.grantTtl();
        return switch (this) {
            case ETCD -> new LeaseProfile.Etcd(lifetime);
            case ZOOKEEPER -> new LeaseProfile.ZooKeeper(lifetime);
            case REDIS -> new LeaseProfile.Redisson(lifetime);
            case POSTGRES -> scenarios;
        };
    }

    /** Where its tokens come from unless the scenario chooses ({@link TokenRecipe#service}). */
    public TokenRecipe defaultToken() {
        return switch (this) {
            case POSTGRES -> TokenRecipe.COUNTER;
            case ETCD -> TokenRecipe.CREATE_REVISION;
            case ZOOKEEPER -> TokenRecipe.CZXID;
            case REDIS -> TokenRecipe.INCR_AFTER_LOCK;
        };
    }

    /** Whether Fencelab can start it as a three-member ensemble (a leader to stop): etcd and ZooKeeper. */
    public boolean ensembles() {
        return this == ETCD || this == ZOOKEEPER;
    }

    /** The token recipes this service offers. */
    public List<TokenRecipe> tokens() {
        return Arrays.stream(TokenRecipe.values()).filter(t -> t.service() == this).toList();
    }

    public static Optional<ServiceKind> named(String key) {
        return Arrays.stream(values()).filter(k -> k.key().equals(key)).findFirst();
    }

    public static List<String> keys() {
        return Arrays.stream(values()).map(ServiceKind::key).toList();
    }
}
