package io.fencelab.engine.lease;

import java.time.Duration;
import java.util.AbstractMap;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.function.Function;

/**
 * Every lease profile named once, as Caffeine's simulator names its policies in one {@code Registry}:
 * its name in a scenario file, the record that is it, a line for the docs, its settings (each with its
 * default, what it accepts and what it means) and how to build it from them. The scenario compiler,
 * the format's key table ({@code Defaults}, which writes {@code docs/SCENARIOS.md}) and the tune form
 * read this table; a new profile (another lease service) is one more entry here and one more record
 * in {@link LeaseProfile}.
 */
public final class LeaseProfileRegistry {

    private LeaseProfileRegistry() {
    }

    /** What a setting's value is. */
    public enum Kind {
        /** A duration of more than zero. */
        POSITIVE_DURATION,
        /** A duration of zero or more. */
        DURATION,
        /** true or false. */
        FLAG
    }

    /**
     * One setting of a profile: a key under {@code lease:} in a scenario file.
     *
     * @param name         the key, which is also the record component's name
     * @param defaultValue the real client's default ({@link Duration} or {@link Boolean}); null: required
     * @param example      for a required setting, how a file writes it ({@code ttl: 30s}); else null
     * @param allowed      what it accepts, briefly, for the docs
     * @param meaning      what it means, in one sentence, for the docs
     */
    public record Setting(String name, Kind kind, Object defaultValue, String example, String allowed,
                          String meaning) {
        public Setting {
            Objects.requireNonNull(name, "name");
            Objects.requireNonNull(kind, "kind");
            if ((defaultValue == null) == (example == null)) {
                throw new IllegalArgumentException(name + ": a setting has a default or, when required, an example");
            }
        }

        public boolean required() {
            return defaultValue == null;
        }
    }

    /**
     * One profile.
     *
     * @param name     its name in a scenario file ({@code lease.profile}) and its {@link LeaseProfile#key()}
     * @param source   the client it behaves like, in a few words, for the docs
     * @param type     the record that implements it
     * @param settings its settings, in the record's component order
     */
    public record Profile(String name, String source, Class<? extends LeaseProfile> type, List<Setting> settings,
                          Function<Values, LeaseProfile> factory) {
        public Profile {
            settings = List.copyOf(settings);
        }

        /** The settings' names, in order: its keys under {@code lease:}. */
        public List<String> settingNames() {
            return settings.stream().map(Setting::name).toList();
        }

        /** The profile from a value for every setting, by name. */
        public LeaseProfile create(Map<String, Object> values) {
            return factory.apply(new Values(values));
        }

        /** The profile with every setting at its default; empty when one is required. */
        public Optional<LeaseProfile> byDefault() {
            Map<String, Object> values = new LinkedHashMap<>();
            for (Setting s : settings) {
                if (s.required()) {
                    return Optional.empty();
                }
                values.put(s.name(), s.defaultValue());
            }
            return Optional.of(create(values));
        }
    }

    /** The values a profile is built from, by setting name. */
    public record Values(Map<String, Object> byName) {
        public Duration duration(String name) {
            return (Duration) value(name);
        }

        public boolean flag(String name) {
            return (Boolean) value(name);
        }

        private Object value(String name) {
            Object v = byName.get(name);
            if (v == null) {
                throw new IllegalArgumentException("no value for the lease setting " + name);
            }
            return v;
        }
    }

    private static final String POSITIVE = "a duration, more than 0s";

    /**
     * The table, built on first use: the profiles' records initialize {@link LeaseProfile}, whose
     * {@link LeaseProfile#PROFILES} view is made while this class is, so the class itself holds no table.
     */
    private static final class Table {
        private static final List<Profile> ALL = List.of(
                new Profile("generic", "Fencelab's own model", LeaseProfile.Generic.class, List.of(
                        required("ttl", "ttl: 30s", POSITIVE, "How long a grant lasts unless renewed."),
                        new Setting("renewEvery", Kind.DURATION, Duration.ZERO, null,
                                "a duration, not negative, below ttl; 0s means never",
                                "How often a holder renews its lease while it works.")),
                        v -> new LeaseProfile.Generic(v.duration("ttl"), v.duration("renewEvery"))),
                new Profile("kubernetes", "client-go leader election", LeaseProfile.Kubernetes.class, List.of(
                        positive("leaseDuration", LeaseProfile.Kubernetes.DEFAULT.leaseDuration(),
                                "a duration, more than renewDeadline",
                                "How long a candidate waits after the last renewal before it may take over."),
                        positive("renewDeadline", LeaseProfile.Kubernetes.DEFAULT.renewDeadline(),
                                "a duration, more than 1.2 × retryPeriod",
                                "How long the leader's renew loop retries before it stops leading."),
                        positive("retryPeriod", LeaseProfile.Kubernetes.DEFAULT.retryPeriod(), POSITIVE,
                                "How often the leader renews and a candidate tries (plus a jitter of up to 1.2 × it)."),
                        flag("releaseOnCancel", LeaseProfile.Kubernetes.DEFAULT.releaseOnCancel(),
                                "Whether a leader that stops leading (renew deadline, refused renewal) releases the "
                                        + "lease at once (client-go's ReleaseOnCancel) instead of letting it expire.")),
                        v -> new LeaseProfile.Kubernetes(v.duration("leaseDuration"), v.duration("renewDeadline"),
                                v.duration("retryPeriod"), v.flag("releaseOnCancel"))),
                new Profile("etcd", "etcd v3 leases with keep-alive", LeaseProfile.Etcd.class, List.of(
                        positive("ttl", LeaseProfile.Etcd.DEFAULT.ttl(), POSITIVE, "The lease TTL.")),
                        v -> new LeaseProfile.Etcd(v.duration("ttl"))),
                new Profile("redisson", "Redisson's RLock and its watchdog", LeaseProfile.Redisson.class, List.of(
                        positive("lockWatchdogTimeout", LeaseProfile.Redisson.DEFAULT.lockWatchdogTimeout(), POSITIVE,
                                "The lock's lifetime, extended by the watchdog every third of it.")),
                        v -> new LeaseProfile.Redisson(v.duration("lockWatchdogTimeout"))),
                new Profile("consul", "Consul sessions and api.Lock", LeaseProfile.Consul.class, List.of(
                        positive("ttl", LeaseProfile.Consul.DEFAULT.ttl(), POSITIVE, "The session TTL."),
                        new Setting("lockDelay", Kind.DURATION, LeaseProfile.Consul.DEFAULT.lockDelay(), null,
                                "a duration, not negative",
                                "After a holder's session is invalidated, how long the lock is granted to nobody.")),
                        v -> new LeaseProfile.Consul(v.duration("ttl"), v.duration("lockDelay"))),
                new Profile("zookeeper", "ZooKeeper sessions as Curator uses them", LeaseProfile.ZooKeeper.class, List.of(
                        positive("sessionTimeout", LeaseProfile.ZooKeeper.DEFAULT.sessionTimeout(), POSITIVE,
                                "The session timeout: the client pings after a third of it, the server expires it "
                                        + "after all of it.")),
                        v -> new LeaseProfile.ZooKeeper(v.duration("sessionTimeout"))),
                new Profile("shedlock", "ShedLock, optionally with its keep-alive provider", LeaseProfile.ShedLock.class,
                        List.of(required("lockAtMostFor", "lockAtMostFor: 10m", POSITIVE + " (30s or more with keepAlive)",
                                        "How long the lock is held at most; never renewed unless keepAlive."),
                                flag("keepAlive", false, "Whether the lock is extended by lockAtMostFor at every half "
                                        + "of it (KeepAliveLockProvider).")),
                        v -> new LeaseProfile.ShedLock(v.duration("lockAtMostFor"), v.flag("keepAlive"))));
    }

    /** Every profile, in the order documentation lists them. */
    public static List<Profile> all() {
        return Table.ALL;
    }

    /**
     * The profiles' record classes by name, read through to the table when used: a view, because
     * {@link LeaseProfile#PROFILES} is initialized with the interface, which the profiles' own records
     * initialize while the table is being built.
     */
    static Map<String, Class<? extends LeaseProfile>> typesByName() {
        return new AbstractMap<>() {
            @Override
            public Set<Entry<String, Class<? extends LeaseProfile>>> entrySet() {
                Map<String, Class<? extends LeaseProfile>> m = new LinkedHashMap<>();
                Table.ALL.forEach(p -> m.put(p.name(), p.type()));
                return Collections.unmodifiableMap(m).entrySet();
            }
        };
    }

    /** The profiles' names, in order. */
    public static List<String> names() {
        return Table.ALL.stream().map(Profile::name).toList();
    }

    /** The profile called {@code name} in a scenario file. */
    public static Optional<Profile> named(String name) {
        return Table.ALL.stream().filter(p -> p.name().equals(name)).findFirst();
    }

    /** The entry of a profile record's class. */
    public static Profile of(Class<? extends LeaseProfile> type) {
        return Table.ALL.stream().filter(p -> p.type() == type).findFirst()
                .orElseThrow(() -> new IllegalArgumentException(type + " is not a registered lease profile"));
    }

    /** Every setting name of every profile, once each, in the order of first use. */
    public static List<String> allSettingNames() {
        List<String> names = new ArrayList<>();
        Table.ALL.forEach(p -> p.settingNames().stream().filter(n -> !names.contains(n)).forEach(names::add));
        return names;
    }

    private static Setting required(String name, String example, String allowed, String meaning) {
        return new Setting(name, Kind.POSITIVE_DURATION, null, example, allowed, meaning);
    }

    private static Setting positive(String name, Duration byDefault, String allowed, String meaning) {
        return new Setting(name, Kind.POSITIVE_DURATION, byDefault, null, allowed, meaning);
    }

    private static Setting flag(String name, boolean byDefault, String meaning) {
        return new Setting(name, Kind.FLAG, byDefault, null, "true, false", meaning);
    }
}
