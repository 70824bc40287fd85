package io.fencelab.engine.soak;

import io.fencelab.engine.check.Judgement;
import io.fencelab.engine.db.Database;
import io.fencelab.engine.event.Event;
import io.fencelab.engine.event.EventLogReader;
import io.fencelab.engine.fence.FenceAudit;
import io.fencelab.engine.fence.FencingMode;
import io.fencelab.engine.fence.TokenScheme;
import io.fencelab.engine.files.FileProblem;
import io.fencelab.engine.run.ExecutorKind;
import io.fencelab.engine.run.Run;
import io.fencelab.engine.run.RunResult;
import io.fencelab.engine.run.RunSpec;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.SplittableRandom;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.function.UnaryOperator;
import org.jdbi.v3.core.JdbiException;

/**
 * Runs random schedules ({@link ChaosSchedules}, {@link ChaosSchedules.Shape#SOAK}) on PostgreSQL
 * and holds each run's checker judgement against the audit's ({@link Comparison}). Schedule
 * {@code i} cycles through every fencing mode and token scheme (all fifteen pairs in every fifteen
 * schedules) and takes its own seed from the soak's seed, so a soak with the same seed runs the
 * same specs. Simulated runs are deterministic and replay exactly; live runs replay the same spec.
 *
 * <p>A database restart is never drawn: it would stop the database under the runs going on beside
 * it.
 */
public final class Soak {

    /** What to run. */
    public record Options(int simulated, int live, long seed, int parallel, double liveTimeScale, Path workDir) {

        public Options {
            Objects.requireNonNull(workDir, "workDir");
            if (simulated < 0 || live < 0) {
                throw new IllegalArgumentException("the number of schedules cannot be negative");
            }
            if (parallel < 1) {
                throw new IllegalArgumentException("parallel must be at least 1, was " + parallel);
            }
            if (!(liveTimeScale > 0)) {
                throw new IllegalArgumentException("the live time scale must be more than 0, was " + liveTimeScale);
            }
        }
    }

    /**
     * One finished schedule.
     *
     * @param index    its number in the soak: simulated ones first, then live ones
     * @param eventLog its log, deleted once the listener returns
     * @param error    why the schedule could not be run or compared, or null
     */
    public record Outcome(int index, RunSpec spec, Path eventLog, Comparison comparison, String error) {

        /** The checker and the audit disagreed (a run that could not be compared does not count). */
        public boolean disagrees() {
            return comparison != null && comparison.disagrees();
        }

        /** The schedule could not be run to its end or compared. */
        public boolean failed() {
            return error != null;
        }
    }

    /** Told of each schedule as it finishes, from the soak's threads one at a time. */
    @FunctionalInterface
    public interface Listener {
        void finished(Outcome outcome);
    }

    /**
     * Connections one schedule may hold at once: in a simulated run every worker a connection kill
     * targets gets its own session (up to 50), plus the shared one and the final-state read; a live
     * run keeps at most {@link Run#LIVE_DATABASE_CONCURRENCY} statements in flight.
     */
    public static final int CONNECTIONS_PER_SCHEDULE = ChaosSchedules.Shape.SOAK.maxWorkers() + 6;

    /** The pool a soak running {@code parallel} schedules at once needs. */
    public static int poolSize(int parallel) {
        return parallel * CONNECTIONS_PER_SCHEDULE + 4;
    }

    private final Database db;
    private final Options options;
    private final UnaryOperator<Judgement> judgementSeam;

    private Soak(Database db, Options options, UnaryOperator<Judgement> judgementSeam) {
        this.db = db;
        this.options = options;
        this.judgementSeam = judgementSeam;
    }

    public static Soak on(Database db, Options options) {
        return new Soak(db, options, UnaryOperator.identity());
    }

    /**
     * This soak with every checker judgement passed through {@code doctor} before it is compared: a
     * test's way to prove that a wrong judgement is caught.
     */
    public Soak withJudgementsDoctoredBy(UnaryOperator<Judgement> doctor) {
        return new Soak(db, options, doctor);
    }

    /** Schedule {@code index} of a soak seeded {@code seed}; indexes from {@code simulated} on are live. */
    public static RunSpec schedule(long seed, int index, boolean live, double liveTimeScale) {
        FencingMode fencing = FencingMode.values()[index % FencingMode.values().length];
        TokenScheme scheme = TokenScheme.values()[(index / FencingMode.values().length) % TokenScheme.values().length];
        long own = new SplittableRandom(seed ^ (index * 0x9E3779B97F4A7C15L)).nextLong();
        RunSpec spec = ChaosSchedules.of(own, fencing, scheme, false, ChaosSchedules.Shape.SOAK);
        return live ? spec.toBuilder().executor(ExecutorKind.LIVE).timeScale(liveTimeScale).build() : spec;
    }

    /** Runs every schedule and returns the counts; {@code listener} hears each as it finishes. */
    public SoakTally run(Listener listener) throws InterruptedException {
        try {
            Files.createDirectories(options.workDir());
        } catch (IOException e) {
            throw new UncheckedIOException("cannot create the work directory: " + FileProblem.of(options.workDir(), e), e);
        }
        int total = options.simulated() + options.live();
        SoakTally tally = new SoakTally();
        ExecutorService pool = Executors.newFixedThreadPool(options.parallel(), Thread.ofPlatform().daemon()
                .name("soak-", 0).factory());
        try {
            List<Future<?>> running = new ArrayList<>(total);
            for (int i = 0; i < total; i++) {
                int index = i;
                running.add(pool.submit(() -> {
                    Outcome outcome = runOne(index);
                    synchronized (tally) {
                        tally.add(outcome);
                        listener.finished(outcome);
                    }
                    deleteQuietly(outcome.eventLog());
                }));
            }
            for (Future<?> f : running) {
                try {
                    f.get();
                } catch (ExecutionException e) {
                    throw new IllegalStateException("a soak schedule failed: " + e.getCause(), e.getCause());
                }
            }
        } finally {
            pool.shutdownNow();
        }
        return tally;
    }

    private Outcome runOne(int index) {
        boolean live = index >= options.simulated();
        RunSpec spec = schedule(options.seed(), index, live, options.liveTimeScale());
        Path log = options.workDir().resolve("soak-" + index + ".jsonl");
        try {
            RunResult result;
            try (Run run = Run.prepare(db, spec, log)) {
                result = run.runToEnd();
            }
            if (!result.completed()) {
                return new Outcome(index, spec, log, null, "the run ended " + result.endReason());
            }
            List<Event> events = EventLogReader.read(log);
            List<Event.LeaseAcquired> grants = events.stream().filter(Event.LeaseAcquired.class::isInstance)
                    .map(Event.LeaseAcquired.class::cast).toList();
            AuditJudge.Judged audit = AuditJudge.judge(auditOf(result.runId()), grants);
            Judgement judged = judgementSeam.apply(result.judgement());
            return new Outcome(index, spec, log, Comparison.of(judged, events, audit), null);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return new Outcome(index, spec, log, null, "interrupted");
        } catch (IOException | RuntimeException e) {
            return new Outcome(index, spec, log, null, e.getClass().getSimpleName() + ": " + e.getMessage());
        }
    }

    /**
     * The run's audit. Asked again once if the first connection fails: a connection-kill fault of a
     * run beside this one can leave a terminated connection in the shared pool, which the pool drops
     * when it fails.
     */
    private List<FenceAudit.Entry> auditOf(long runId) {
        try {
            return new FenceAudit(db.existingRun(runId)).entries();
        } catch (JdbiException e) {
            return new FenceAudit(db.existingRun(runId)).entries();
        }
    }

    private static void deleteQuietly(Path file) {
        try {
            Files.deleteIfExists(file);
        } catch (IOException ignored) {
            // A leftover log in the soak's own directory harms nothing.
        }
    }
}
