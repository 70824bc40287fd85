package io.fencelab.engine.soak;

import io.fencelab.engine.chaos.Distribution;
import io.fencelab.engine.chaos.FaultKind;
import io.fencelab.engine.chaos.FaultSpec;
import io.fencelab.engine.chaos.FaultStart;
import io.fencelab.engine.fence.FencingMode;
import io.fencelab.engine.fence.FirstWritePolicy;
import io.fencelab.engine.fence.TokenScheme;
import io.fencelab.engine.lease.LeaseProfile;
import io.fencelab.engine.resource.TargetKind;
import io.fencelab.engine.run.ExecutorKind;
import io.fencelab.engine.run.RunSpec;
import io.fencelab.engine.worker.StalePolicy;
import io.fencelab.engine.worker.TargetWrite;
import io.fencelab.engine.worker.WorkerRole;
import io.fencelab.engine.worker.WorkerSpec;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;

/**
 * Random, seeded schedules that reach every corner of the storage rules, shared by the backend
 * equivalence test and {@code fencelab soak} (one generator, so what the tests license is what the
 * soak runs): pause storms plus, each on some seeds, every other fault kind (request and reply
 * delay, jitter, renewal loss, clock skew, connection kills, a slow lease service, crashes that
 * restart as the same or a new holder or never, and on request a database restart); scopes starting
 * at 1, at 41 or a few tokens below {@link Long#MAX_VALUE}; rows, objects and pointers, some written
 * twice per job or with their own fencing mode; both first-write policies; every stale policy;
 * sequenced and pipelined writes; job workers and leaders; every lease profile, the generic one with
 * and without renewal; 20 s of run time. The {@link Shape} says how many workers and scopes.
 */
public final class ChaosSchedules {

    private static final List<TargetWrite> DESTINATIONS = List.of(new TargetWrite(TargetKind.ROW, "report"),
            new TargetWrite(TargetKind.OBJECT, "blob"), new TargetWrite(TargetKind.POINTER, "current"),
            new TargetWrite(TargetKind.ROW, "ledger"));

    /**
     * How big a schedule is.
     *
     * @param minWorkers at least 1
     * @param maxWorkers at least {@code minWorkers}
     * @param scopes     the scopes a schedule draws its first 1 to {@code scopes.size()} from
     */
    public record Shape(int minWorkers, int maxWorkers, List<String> scopes) {

        /** 2–5 workers on one or two scopes: small enough to compare backends a thousand times. */
        public static final Shape SMALL = new Shape(2, 5, List.of("report", "ledger"));
        /** 1–50 workers on one to three scopes: the soak's range. */
        public static final Shape SOAK = new Shape(1, 50, List.of("report", "ledger", "audit"));

        public Shape {
            scopes = List.copyOf(scopes);
            if (minWorkers < 1 || maxWorkers < minWorkers || scopes.isEmpty()) {
                throw new IllegalArgumentException("a shape needs 1 <= minWorkers <= maxWorkers and a scope");
            }
        }
    }

    private ChaosSchedules() {
    }

    /** A {@link Shape#SMALL} schedule without a database restart. */
    public static RunSpec of(long seed, FencingMode fencing, TokenScheme scheme) {
        return of(seed, fencing, scheme, false);
    }

    /** A {@link Shape#SMALL} schedule; with {@code restart}, the database also stops once for up to 3 s. */
    public static RunSpec of(long seed, FencingMode fencing, TokenScheme scheme, boolean restart) {
        return of(seed, fencing, scheme, restart, Shape.SMALL);
    }

    /**
     * A schedule of {@code shape}; with {@code restart}, the database also stops once for up to 3 s.
     * The same arguments give the same spec.
     */
    public static RunSpec of(long seed, FencingMode fencing, TokenScheme scheme, boolean restart, Shape shape) {
        SplittableRandom random = new SplittableRandom(seed);
        // Two scopes draw exactly as the small shape always did, so its schedules stay what they were.
        List<String> scopes = shape.scopes().size() <= 2
                ? (random.nextBoolean() ? shape.scopes().subList(0, 1) : shape.scopes())
                : shape.scopes().subList(0, 1 + random.nextInt(shape.scopes().size()));
        int workers = shape.minWorkers() + random.nextInt(shape.maxWorkers() - shape.minWorkers() + 1);
        List<WorkerSpec> specs = new ArrayList<>();
        for (int i = 0; i < workers; i++) {
            specs.add(worker("w" + i, scopes.get(random.nextInt(scopes.size())), random));
        }
        LeaseProfile lease = profile(random);
        List<FaultSpec> faults = faults(random, workers, restart);
        FirstWritePolicy firstWrite = random.nextInt(8) == 0 ? FirstWritePolicy.MISSING : FirstWritePolicy.CREATE;
        // The first tokens go to the first worker's scope: a scope no worker uses has no counter to start.
        return new RunSpec("chaos-schedule", specs, firstTokens(random, specs.getFirst().scope()), lease, fencing,
                scheme, firstWrite, faults, seed, Duration.ofSeconds(20), ExecutorKind.SIMULATED, 1.0);
    }

    /** Half the time the generic lease (a third of those never renewed), else one of the other profiles, short. */
    private static LeaseProfile profile(SplittableRandom random) {
        Duration ttl = Duration.ofMillis(500 + random.nextInt(1_500));
        return switch (random.nextInt(12)) {
            // Whole milliseconds, as a scenario file writes them (the engine resolves microseconds).
            case 0 -> new LeaseProfile.Kubernetes(ttl.plusMillis(600), ttl, millis(ttl.dividedBy(3)));
            case 1 -> new LeaseProfile.Etcd(ttl);
            case 2 -> new LeaseProfile.Redisson(ttl);
            case 3 -> new LeaseProfile.Consul(ttl, Duration.ofMillis(random.nextInt(1_500)));
            case 4 -> new LeaseProfile.ZooKeeper(ttl);
            case 5 -> new LeaseProfile.ShedLock(ttl, false);
            default -> new LeaseProfile.Generic(ttl,
                    random.nextInt(3) == 0 ? Duration.ZERO : millis(ttl.dividedBy(2 + random.nextInt(3))));
        };
    }

    private static Duration millis(Duration d) {
        return d.truncatedTo(java.time.temporal.ChronoUnit.MILLIS);
    }

    private static WorkerSpec worker(String name, String scope, SplittableRandom random) {
        List<TargetWrite> writes = new ArrayList<>();
        int count = 1 + random.nextInt(3);
        for (int i = 0; i < count; i++) {
            TargetWrite w = DESTINATIONS.get(random.nextInt(DESTINATIONS.size()));
            // Now and then one target keeps its own mode whatever the run's ("fence only the first write").
            FencingMode own = random.nextInt(6) == 0 ? FencingMode.values()[random.nextInt(3)] : null;
            writes.add(new TargetWrite(w.target(), w.key(), own));
        }
        int jobs = random.nextInt(4) == 0 ? 1 + random.nextInt(5) : 0;
        return new WorkerSpec(name, scope, Duration.ofMillis(random.nextInt(1_000)),
                Duration.ofMillis(50 + random.nextInt(750)), writes, jobs, Duration.ofMillis(50 + random.nextInt(350)),
                StalePolicy.values()[random.nextInt(StalePolicy.values().length)], random.nextInt(4) == 0,
                random.nextInt(3) == 0, random.nextInt(4) == 0,
                random.nextInt(4) == 0 ? WorkerRole.LEADER : WorkerRole.JOBS);
    }

    private static Map<String, Long> firstTokens(SplittableRandom random, String scope) {
        return switch (random.nextInt(10)) {
            case 0 -> Map.of(scope, Long.MAX_VALUE - 2);
            case 1, 2 -> Map.of(scope, 41L);
            default -> Map.of();
        };
    }

    private static List<FaultSpec> faults(SplittableRandom random, int workers, boolean restart) {
        List<FaultSpec> faults = new ArrayList<>();
        if (random.nextInt(5) != 0) {
            faults.add(new FaultSpec(FaultKind.PAUSE, FaultSpec.ALL, every(random, 1_000, 3_000),
                    new Distribution.Uniform(Duration.ofMillis(200), Duration.ofSeconds(4)), Duration.ZERO));
        }
        for (FaultKind kind : List.of(FaultKind.REQUEST_DELAY, FaultKind.REPLY_DELAY, FaultKind.REQUEST_JITTER,
                FaultKind.RENEWAL_LOSS, FaultKind.CLOCK_SKEW, FaultKind.CONNECTION_KILL,
                FaultKind.SLOW_LEASE_SERVICE)) {
            if (random.nextInt(3) != 0) {
                continue;
            }
            String target = random.nextInt(3) == 0 ? FaultSpec.ALL : "w" + random.nextInt(workers);
            Duration amount = switch (kind) {
                // Never zero: a skew of nothing is no fault, and a scenario file refuses it.
                case CLOCK_SKEW -> Duration.ofMillis((1 + random.nextInt(5_000)) * (random.nextBoolean() ? 1 : -1));
                case CONNECTION_KILL, RENEWAL_LOSS -> Duration.ZERO;
                default -> Duration.ofMillis(50 + random.nextInt(1_500));
            };
            FaultStart start = random.nextBoolean() ? new FaultStart.At(Duration.ofMillis(random.nextInt(15_000)))
                                                    : every(random, 1_000, 6_000);
            faults.add(new FaultSpec(kind, target, start,
                    new Distribution.Uniform(Duration.ofMillis(100), Duration.ofMillis(100 + random.nextInt(4_000))),
                    amount));
        }
        if (random.nextInt(3) == 0) {
            String target = random.nextInt(3) == 0 ? FaultSpec.ALL : "w" + random.nextInt(workers);
            FaultStart start = random.nextBoolean() ? new FaultStart.At(Duration.ofMillis(random.nextInt(15_000)))
                                                    : every(random, 2_000, 8_000);
            Distribution restartAfter = random.nextInt(4) == 0 ? new Distribution.Fixed(Duration.ZERO)
                    : new Distribution.Uniform(Duration.ofMillis(100), Duration.ofMillis(3_000));
            // A holder that never restarts has no identity to restart under.
            boolean fresh = random.nextBoolean() && !restartAfter.equals(new Distribution.Fixed(Duration.ZERO));
            faults.add(new FaultSpec(FaultKind.CRASH, target, start, restartAfter, Duration.ZERO,
                    fresh ? FaultSpec.Identity.NEW : FaultSpec.Identity.SAME));
        }
        if (restart) {
            faults.add(new FaultSpec(FaultKind.DATABASE_RESTART, FaultSpec.DATABASE,
                    new FaultStart.At(Duration.ofMillis(2_000 + random.nextInt(10_000))),
                    new Distribution.Fixed(Duration.ofMillis(300 + random.nextInt(2_700))), Duration.ZERO));
        }
        return faults;
    }

    private static FaultStart every(SplittableRandom random, int minMeanMillis, int maxMeanMillis) {
        return new FaultStart.Every(new Distribution.Exponential(
                Duration.ofMillis(minMeanMillis + random.nextInt(maxMeanMillis - minMeanMillis))));
    }
}
