package io.fencelab.engine.probe;

import io.fencelab.engine.chaos.Distribution;
import io.fencelab.engine.chaos.FaultKind;
import io.fencelab.engine.chaos.FaultSpec;
import io.fencelab.engine.chaos.FaultStart;
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
 * The races: five holders on one scope taking turns on a short lease, each pausing again and again
 * with heavy-tailed pauses (as the gc-storm scenario does), writing the fence's key under whatever
 * token they hold. Simulated runs on PostgreSQL, one per seed, then one live run; each is judged as
 * every run is, and the first that is not safe is the witness, with its events kept under the
 * probe's output directory.
 */
final class RaceItem {

    static final int HOLDERS = 5;
    static final Duration SIMULATED_LENGTH = Duration.ofSeconds(20);

    private final Database database;
    private final ProbeOptions options;

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
            RunSpec spec = spec(subject, ExecutorKind.LIVE, options.seed(), options.liveRun());
            ItemVerdict failed = judge(subject, spec, "live run of " + options.liveRun().toMillis() + " ms", "live");
            if (failed != null) {
                return failed;
            }
            runs++;
        }
        if (runs == 0) {
            return new ItemVerdict(subject.name(), ChecklistItem.RACES, Status.NOT_APPLICABLE,
                    "no race was asked for (0 simulated schedules and no live run)", List.of());
        }
        return new ItemVerdict(subject.name(), ChecklistItem.RACES, Status.HOLDS, runs + " runs of " + HOLDERS
                + " holders with pauses past their leases (" + options.simulatedSchedules() + " simulated"
                + (options.liveRun().isPositive() ? ", 1 live" : "") + "): no stale overwrite", List.of());
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
                    List.of(new WitnessStep(what + ": " + HOLDERS + " holders racing", statement, "failed: " + cause,
                            null, null, events)));
        }
        if (!result.judgement().isSafe()) {
            Witness w = result.verdict().witnesses().getFirst();
            return new ItemVerdict(subject.name(), ChecklistItem.RACES, Status.FAILS,
                    "the " + what + " is " + result.verdict().kind() + ": " + w.summary(),
                    List.of(new WitnessStep(what + ": " + HOLDERS + " holders racing, events " + w.eventSeqs(),
                            statement, w.invariant() + ": " + w.summary(), null, null, events)));
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

    /** Holders taking turns on a 1 s lease renewed every 300 ms, pausing every ~2 s for up to 3 s. */
    RunSpec spec(ProbeSubject subject, ExecutorKind executor, long seed, Duration length) {
        List<TargetWrite> writes = List.of(new TargetWrite(TargetKind.SQL, SqlKey.of(subject.name(), subject.key())));
        List<WorkerSpec> workers = new ArrayList<>();
        for (int i = 1; i <= HOLDERS; i++) {
            workers.add(new WorkerSpec("w-" + i, subject.scope(), Duration.ofMillis(37L * (i - 1)),
                    Duration.ofMillis(300), writes, 0, Duration.ofMillis(200), StalePolicy.ABANDON, false));
        }
        FaultSpec pauses = new FaultSpec(FaultKind.PAUSE, FaultSpec.ALL,
                new FaultStart.Every(new Distribution.Exponential(Duration.ofSeconds(2))),
                new Distribution.Pareto(Duration.ofMillis(200), 1.2, Duration.ofSeconds(3)), Duration.ZERO);
        return new RunSpec("probe-" + subject.name() + "-races", workers,
                Map.of(subject.scope(), subject.above(1)),
                new LeaseProfile.Generic(Duration.ofSeconds(1), Duration.ofMillis(300)), FencingMode.FENCED,
                TokenScheme.MONOTONIC, FirstWritePolicy.CREATE, List.of(pauses), seed, length, executor, 1.0,
                new UserFences(List.of(subject.fence()), options.keep()));
    }
}
