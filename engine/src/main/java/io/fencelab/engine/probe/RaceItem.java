package io.fencelab.engine.probe;

import io.fencelab.engine.chaos.Distribution;
import io.fencelab.engine.chaos.FaultKind;
import io.fencelab.engine.chaos.FaultSpec;
import io.fencelab.engine.chaos.FaultStart;
import io.fencelab.engine.check.Invariant;
import io.fencelab.engine.check.Witness;
import io.fencelab.engine.db.Database;
import io.fencelab.engine.fence.FencingMode;
import io.fencelab.engine.fence.FirstWritePolicy;
import io.fencelab.engine.fence.TokenScheme;
import io.fencelab.engine.lease.LeaseProfile;
import io.fencelab.engine.probe.ItemVerdict.Status;
import io.fencelab.engine.probe.ItemVerdict.WitnessStep;
import io.fencelab.engine.resource.SqlKey;
import io.fencelab.engine.resource.TargetKind;
import io.fencelab.engine.run.ExecutorKind;
import io.fencelab.engine.run.Run;
import io.fencelab.engine.run.RunResult;
import io.fencelab.engine.run.RunSpec;
import io.fencelab.engine.run.UserFences;
import io.fencelab.engine.worker.StalePolicy;
import io.fencelab.engine.worker.TargetWrite;
import io.fencelab.engine.worker.WorkerSpec;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * The races: holders on one scope taking turns on a short lease, each pausing again and again,
 * writing the fence's key under whatever token they hold. Simulated runs on PostgreSQL, one per seed,
 * then one live run (where the statements of a check-then-write really race); each is judged as every
 * run is, and the first that is not safe is the witness, with its events kept under the
 * probe's output directory.
 */
final class RaceItem {

    static final int HOLDERS = 5;
    static final int LIVE_HOLDERS = 20;
    static final long FIRST_TOKEN = 1_000_000;
    static final Duration SIMULATED_LENGTH = Duration.ofSeconds(20);

    /** Witnesses about the lease service's own order, not about what a fence accepted. */
    private static final java.util.Set<Invariant> LEASE_ORDER =
            java.util.EnumSet.of(Invariant.NON_MONOTONIC_GRANT, Invariant.NON_MONOTONIC_COUNTER);

    private final Database database;
    private final ProbeOptions options;
    private int leaseOrderDoubts;

    RaceItem(Database database, ProbeOptions options) {
        this.database = database;
        this.options = options;
    }

    ItemVerdict run(ProbeSubject subject) throws InterruptedException {
        int runs = 0;
        for (int i = 0; i < options.simulatedSchedules(); i++) {
            long seed = options.seed() + i;
            RunSpec spec = spec(subject, ExecutorKind.SIMULATED, seed, SIMULATED_LENGTH);
            ItemVerdict failed = judge(subject, spec, "simulated run, seed " + seed, "seed-" + seed);
            if (failed != null) {
                return failed;
            }
            runs++;
        }
        if (options.liveRun().isPositive()) {
            String what = "live run of " + options.liveRun().toMillis() + " ms";
            ItemVerdict failed = judge(subject, spec(subject, ExecutorKind.LIVE, options.seed(), options.liveRun()),
                    what, "live");
            if (failed != null) {
                return failed;
            }
            runs++;
        }
        if (runs == 0) {
            return new ItemVerdict(subject.name(), ChecklistItem.RACES, Status.NOT_APPLICABLE,
                    "no race was asked for (0 simulated schedules and no live run)", List.of());
        }
        int live = runs - options.simulatedSchedules();
        return new ItemVerdict(subject.name(), ChecklistItem.RACES, Status.HOLDS, runs + " runs with pauses past "
                + "the holders' leases (" + options.simulatedSchedules() + " simulated of " + HOLDERS + " holders"
                + (live > 0 ? ", " + live + " live of " + LIVE_HOLDERS : "") + "): no stale overwrite"
                + (leaseOrderDoubts == 0 ? "" : " (in " + leaseOrderDoubts + " of them the checker also doubted the "
                        + "lease service's order of grants, which says nothing of the fence)")
                , List.of());
    }

    /** Runs {@code spec}; null when it is safe, else the failing verdict, its events kept. */
    private ItemVerdict judge(ProbeSubject subject, RunSpec spec, String what, String dirName)
            throws InterruptedException {
        Path dir = options.outDir().resolve("races").resolve(subject.name()).resolve(dirName);
        Path log = dir.resolve("events.jsonl");
        RunResult result;
        try {
            Files.createDirectories(dir);
            try (Run run = Run.prepare(database, spec, log)) {
                result = run.runToEnd();
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write " + log + ": " + e.getMessage(), e);
        }
        String events = options.outDir().relativize(log).toString().replace('\\', '/');
        String statement = subject.fence().write().getFirst().where();
        if (result.failed()) {
            String cause = result.failureCause().orElse("unknown");
            return new ItemVerdict(subject.name(), ChecklistItem.RACES, Status.FAILS, "the " + what + " failed: " + cause,
                    List.of(new WitnessStep(what + ": " + spec.workers().size() + " holders racing", statement, "failed: " + cause,
                            null, null, events)));
        }
        List<Witness> fenceWitnesses = result.verdict().witnesses().stream()
                .filter(w -> !LEASE_ORDER.contains(w.invariant())).toList();
        if (!fenceWitnesses.isEmpty()) {
            Witness w = fenceWitnesses.getFirst();
            return new ItemVerdict(subject.name(), ChecklistItem.RACES, Status.FAILS,
                    "the " + what + " is " + result.verdict().kind() + ": " + w.summary(),
                    List.of(new WitnessStep(what + ": " + spec.workers().size() + " holders racing, events "
                            + w.eventSeqs(), statement, w.invariant() + ": " + w.summary(), null, null, events)));
        }
        if (!result.judgement().isSafe()) {
            // Only the lease service's order is in doubt (a live holder's grant recorded late on a busy
            // machine): that is no verdict on the user's fence, and it is said so in the summary.
            leaseOrderDoubts++;
            return null;
        }
        deleteQuietly(dir, log);
        return null;
    }

    /** A safe run's events say nothing the verdict does not: only a failing run's are kept. */
    private static void deleteQuietly(Path dir, Path log) {
        try {
            Files.deleteIfExists(log);
            Files.deleteIfExists(dir);
        } catch (IOException e) {
            // an empty directory or a safe run's log left behind harms nothing
        }
    }

    /**
     * Simulated: five holders taking turns on a 1 s lease renewed every 300 ms, each pausing every ~2 s
     * for up to 3 s (the gc-storm's shape). Live: twenty holders on a 50 ms lease, jobs of a few
     * milliseconds and pauses of 60 to 150 ms every ~100 ms (the check-then-write race's shape), so a
     * pause lands between a check and its write often enough to show. Tokens start at
     * {@value #FIRST_TOKEN} (or above what setup stored), so every token of a run has the same number of
     * digits: how a column orders numbers of different lengths is the numeric item's question, not this one's.
     */
    RunSpec spec(ProbeSubject subject, ExecutorKind executor, long seed, Duration length) {
        List<TargetWrite> writes = List.of(new TargetWrite(TargetKind.SQL, SqlKey.of(subject.name(), subject.key())));
        boolean live = executor == ExecutorKind.LIVE;
        int holders = live ? LIVE_HOLDERS : HOLDERS;
        Duration work = live ? Duration.ofMillis(5) : Duration.ofMillis(300);
        Duration idle = live ? Duration.ofMillis(5) : Duration.ofMillis(200);
        List<WorkerSpec> workers = new ArrayList<>();
        for (int i = 1; i <= holders; i++) {
            workers.add(new WorkerSpec("w-" + i, subject.scope(), Duration.ofMillis((live ? 5L : 37L) * (i - 1)),
                    work, writes, 0, idle, StalePolicy.ABANDON, false));
        }
        FaultSpec pauses = live
                ? new FaultSpec(FaultKind.PAUSE, FaultSpec.ALL,
                        new FaultStart.Every(new Distribution.Exponential(Duration.ofMillis(100))),
                        new Distribution.Uniform(Duration.ofMillis(60), Duration.ofMillis(150)), Duration.ZERO)
                : new FaultSpec(FaultKind.PAUSE, FaultSpec.ALL,
                        new FaultStart.Every(new Distribution.Exponential(Duration.ofSeconds(2))),
                        new Distribution.Pareto(Duration.ofMillis(200), 1.2, Duration.ofSeconds(3)), Duration.ZERO);
        LeaseProfile lease = live ? new LeaseProfile.Generic(Duration.ofMillis(50), Duration.ZERO)
                : new LeaseProfile.Generic(Duration.ofSeconds(1), Duration.ofMillis(300));
        return new RunSpec("probe-" + subject.name() + "-races", workers,
                Map.of(subject.scope(), subject.above(FIRST_TOKEN)), lease, FencingMode.FENCED,
                TokenScheme.MONOTONIC, FirstWritePolicy.CREATE, List.of(pauses), seed, length, executor, 1.0,
                new UserFences(List.of(subject.fence()), options.keep()));
    }
}
