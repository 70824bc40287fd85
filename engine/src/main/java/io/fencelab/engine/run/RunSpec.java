package io.fencelab.engine.run;

import io.fencelab.engine.chaos.FaultKind;
import io.fencelab.engine.chaos.FaultSpec;
import io.fencelab.engine.chaos.PauseProfile;
import io.fencelab.engine.fence.FencingMode;
import io.fencelab.engine.fence.FirstWritePolicy;
import io.fencelab.engine.fence.TokenScheme;
import io.fencelab.engine.lease.LeaseProfile;
import io.fencelab.engine.lease.LeaseServiceSpec;
import io.fencelab.engine.worker.WorkerSpec;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * Everything a run needs, whichever executor runs it.
 *
 * @param firstTokens starting token per scope (the story's 41); scopes not named start at 1
 * @param lease what the holders' lease client does: its grant ttl, renewals, deadlines ({@link LeaseProfile})
 * @param timeScale live runs only: real seconds per run second (0.1 runs ten times faster)
 * @param userFences the user's own SQL fences the workers may write ({@link UserFences#NONE}: none)
 * @param hosts     process runs only: the agent host each worker runs on, by worker name; a worker not
 *                  named runs on the run's own machine (empty: every worker does)
 * @param service   which service grants the leases: PostgreSQL's lease table (the default), or a real
 *                  etcd, ZooKeeper or Redis whose client is {@code lease}'s profile
 */
public record RunSpec(String name, List<WorkerSpec> workers, Map<String, Long> firstTokens, LeaseProfile lease,
                      FencingMode fencing, TokenScheme tokenScheme,
                      FirstWritePolicy firstWrite, List<FaultSpec> faults, long seed, Duration duration,
                      ExecutorKind executor, double timeScale, UserFences userFences, Map<String, String> hosts,
                      LeaseServiceSpec service) {

    /** A run whose leases are PostgreSQL's. */
    public RunSpec(String name, List<WorkerSpec> workers, Map<String, Long> firstTokens, LeaseProfile lease,
                   FencingMode fencing, TokenScheme tokenScheme,
                   FirstWritePolicy firstWrite, List<FaultSpec> faults, long seed, Duration duration,
                   ExecutorKind executor, double timeScale, UserFences userFences, Map<String, String> hosts) {
        this(name, workers, firstTokens, lease, fencing, tokenScheme, firstWrite, faults, seed, duration, executor,
                timeScale, userFences, hosts, LeaseServiceSpec.POSTGRES);
    }

    /** A run whose workers all run on the run's own machine. */
    public RunSpec(String name, List<WorkerSpec> workers, Map<String, Long> firstTokens, LeaseProfile lease,
                   FencingMode fencing, TokenScheme tokenScheme,
                   FirstWritePolicy firstWrite, List<FaultSpec> faults, long seed, Duration duration,
                   ExecutorKind executor, double timeScale, UserFences userFences) {
        this(name, workers, firstTokens, lease, fencing, tokenScheme, firstWrite, faults, seed, duration, executor,
                timeScale, userFences, Map.of());
    }

    /** A run of the built-in targets only. */
    public RunSpec(String name, List<WorkerSpec> workers, Map<String, Long> firstTokens, LeaseProfile lease,
                   FencingMode fencing, TokenScheme tokenScheme,
                   FirstWritePolicy firstWrite, List<FaultSpec> faults, long seed, Duration duration,
                   ExecutorKind executor, double timeScale) {
        this(name, workers, firstTokens, lease, fencing, tokenScheme, firstWrite, faults, seed, duration, executor,
                timeScale, UserFences.NONE);
    }

    /**
     * A run with the {@code generic} profile: grants of {@code leaseTtl}, renewed every
     * {@code renewInterval} (zero: never).
     */
    public RunSpec(String name, List<WorkerSpec> workers, Map<String, Long> firstTokens, Duration leaseTtl,
                   Duration renewInterval, FencingMode fencing, TokenScheme tokenScheme,
                   FirstWritePolicy firstWrite, List<FaultSpec> faults, long seed, Duration duration,
                   ExecutorKind executor, double timeScale) {
        this(name, workers, firstTokens, new LeaseProfile.Generic(leaseTtl, renewInterval), fencing, tokenScheme,
                firstWrite, faults, seed, duration, executor, timeScale);
    }

    /** Why a SERVICE_LEADER_STOP needs more than this run's service: the compiler says it at the fault. */
    public static final String LEADER_STOP_NEEDS = "SERVICE_LEADER_STOP stops the leader of an ensemble; set "
            + "lease.service to etcd or zookeeper and lease.members to " + LeaseServiceSpec.ENSEMBLE;

    public RunSpec {
        Objects.requireNonNull(name);
        Objects.requireNonNull(lease, "lease");
        workers = List.copyOf(workers);
        firstTokens = Map.copyOf(firstTokens);
        faults = List.copyOf(faults);
        userFences = userFences == null ? UserFences.NONE : userFences;
        hosts = hosts == null ? Map.of() : Map.copyOf(hosts);
        service = service == null ? LeaseServiceSpec.POSTGRES : service;
        if (!service.real() && faults.stream().anyMatch(f -> f.kind().onService())) {
            throw new IllegalArgumentException("faults: SERVICE_PAUSE and SERVICE_RESTART hit a real lease service; "
                    + "set lease.service to etcd, zookeeper or redis (PostgreSQL's own restart is DATABASE_RESTART)");
        }
        if (!service.ensemble() && faults.stream().anyMatch(f -> f.kind() == FaultKind.SERVICE_LEADER_STOP)) {
            throw new IllegalArgumentException("faults: " + LEADER_STOP_NEEDS);
        }
        String client = service.kind().profileKey().orElse(lease.key());
        if (!client.equals(lease.key())) {
            throw new IllegalArgumentException("lease: service " + service.kind().key() + " runs the " + client
                    + " profile's client, not " + lease.key() + "'s");
        }
        if (workers.isEmpty()) {
            throw new IllegalArgumentException("a run needs at least one worker");
        }
        if (workers.stream().map(WorkerSpec::name).distinct().count() != workers.size()) {
            throw new IllegalArgumentException("worker names must be unique");
        }
        if (!duration.isPositive()) {
            throw new IllegalArgumentException("duration must be positive, was " + duration);
        }
        for (String h : hosts.values()) {
            io.fencelab.engine.agent.AgentNames.hostProblem(h).ifPresent(why -> {
                throw new IllegalArgumentException("hosts: '" + h + "': " + why);
            });
        }
        for (String w : hosts.keySet()) {
            if (workers.stream().noneMatch(x -> x.name().equals(w))) {
                throw new IllegalArgumentException("hosts: no worker named " + w);
            }
        }
        if (!hosts.isEmpty() && executor != ExecutorKind.PROCESS) {
            throw new IllegalArgumentException("hosts: only a process run places workers on hosts (executor: process)");
        }
        if (!(timeScale > 0)) {
            throw new IllegalArgumentException("time scale must be positive, was " + timeScale);
        }
    }

    /** How long each grant and renewal lasts in the lease table: the profile's {@link LeaseProfile#grantTtl()}. */
    public Duration leaseTtl() {
        return lease.grantTtl();
    }

    /** How often holders renew (zero: never): the profile's {@link LeaseProfile#renewEvery()}. */
    public Duration renewInterval() {
        return lease.renewEvery();
    }

    /** The agent host worker {@code worker} runs on in a process run, or empty for the run's own machine. */
    public java.util.Optional<String> hostOf(String worker) {
        return java.util.Optional.ofNullable(hosts.get(worker));
    }

    /**
     * The pauses this run's faults give its holders ({@link PauseProfile}): what {@code validate},
     * {@code run} and the reports show.
     */
    public PauseProfile pauseProfile() {
        return PauseProfile.of(faults, workers.stream().map(WorkerSpec::name).toList(), duration);
    }

    public RunSpec withFencing(FencingMode mode) {
        return toBuilder().fencing(mode).build();
    }

    public RunSpec withSeed(long newSeed) {
        return toBuilder().seed(newSeed).build();
    }

    public RunSpec withExecutor(ExecutorKind kind) {
        // Hosts place processes: a run of threads keeps none.
        return toBuilder().executor(kind).hosts(kind == ExecutorKind.PROCESS ? hosts : Map.of()).build();
    }

    /** The same run on another lease service (endpoints filled in once Fencelab started its server). */
    public RunSpec withService(LeaseServiceSpec value) {
        return toBuilder().service(value).build();
    }

    /** This spec with the profile's main lifetime changed (ttl, leaseDuration, lockAtMostFor, …). */
    public RunSpec withLeaseTtl(Duration ttl) {
        return toBuilder().leaseTtl(ttl).build();
    }

    /** A builder holding this spec's values, for changing a few of them. */
    public Builder toBuilder() {
        return new Builder(this);
    }

    /** Changes some values of a spec; {@link #build()} validates the result like the constructor. */
    public static final class Builder {
        private String name;
        private List<WorkerSpec> workers;
        private Map<String, Long> firstTokens;
        private LeaseProfile lease;
        private FencingMode fencing;
        private TokenScheme tokenScheme;
        private FirstWritePolicy firstWrite;
        private List<FaultSpec> faults;
        private long seed;
        private Duration duration;
        private ExecutorKind executor;
        private double timeScale;
        private UserFences userFences;
        private Map<String, String> hosts;
        private LeaseServiceSpec service;

        private Builder(RunSpec s) {
            name = s.name;
            workers = s.workers;
            firstTokens = s.firstTokens;
            lease = s.lease;
            fencing = s.fencing;
            tokenScheme = s.tokenScheme;
            firstWrite = s.firstWrite;
            faults = s.faults;
            seed = s.seed;
            duration = s.duration;
            executor = s.executor;
            timeScale = s.timeScale;
            userFences = s.userFences;
            hosts = s.hosts;
            service = s.service;
        }

        /** The agent host of each worker named (process runs). */
        public Builder service(LeaseServiceSpec value) {
            service = value;
            return this;
        }

        public Builder hosts(Map<String, String> value) {
            hosts = value;
            return this;
        }

        public Builder userFences(UserFences value) {
            userFences = value;
            return this;
        }

        public Builder workers(List<WorkerSpec> value) {
            workers = value;
            return this;
        }

        public Builder firstTokens(Map<String, Long> value) {
            firstTokens = value;
            return this;
        }

        public Builder lease(LeaseProfile value) {
            lease = value;
            return this;
        }

        /** Changes the profile's main lifetime ({@link LeaseProfile#withTtl}). */
        public Builder leaseTtl(Duration value) {
            lease = lease.withTtl(value);
            return this;
        }

        /**
         * Sets the renew interval of a {@code generic} lease.
         *
         * @throws IllegalArgumentException for another profile, which renews on its own schedule
         */
        public Builder renewInterval(Duration value) {
            if (!(lease instanceof LeaseProfile.Generic g)) {
                throw new IllegalArgumentException("the " + lease.key() + " profile renews on its own schedule; "
                        + "only a generic lease takes a renew interval");
            }
            lease = new LeaseProfile.Generic(g.ttl(), value);
            return this;
        }

        public Builder fencing(FencingMode value) {
            fencing = value;
            return this;
        }

        public Builder tokenScheme(TokenScheme value) {
            tokenScheme = value;
            return this;
        }

        public Builder faults(List<FaultSpec> value) {
            faults = value;
            return this;
        }

        public Builder seed(long value) {
            seed = value;
            return this;
        }

        public Builder duration(Duration value) {
            duration = value;
            return this;
        }

        public Builder executor(ExecutorKind value) {
            executor = value;
            return this;
        }

        public Builder timeScale(double value) {
            timeScale = value;
            return this;
        }

        public RunSpec build() {
            return new RunSpec(name, workers, firstTokens, lease, fencing, tokenScheme, firstWrite,
                    faults, seed, duration, executor, timeScale, userFences, hosts, service);
        }
    }
}
