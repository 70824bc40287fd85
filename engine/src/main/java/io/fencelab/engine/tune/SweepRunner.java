package io.fencelab.engine.tune;

import io.fencelab.engine.chaos.FaultKind;
import io.fencelab.engine.db.Database;
import io.fencelab.engine.db.DatabaseException;
import io.fencelab.engine.event.Event;
import io.fencelab.engine.files.FileProblem;
import io.fencelab.engine.run.Backend;
import io.fencelab.engine.run.Run;
import io.fencelab.engine.run.RunResult;
import io.fencelab.engine.run.RunSpec;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.Lock;
import java.util.concurrent.locks.ReentrantReadWriteLock;
import java.util.function.Function;

/**
 * Runs a {@link SweepPlan}: every seed of every point whose row the {@link ResultsFile} does not hold
 * yet, {@code jobs} runs at a time on one {@link Database} (each run has its own {@code run_id}, so
 * parallel runs do not see each other), appending each run's row as it finishes and telling a
 * {@link SweepListener}. Callable from any thread; {@link #stop()} from any other ends it early, and
 * a later runner over the same results file resumes where it stopped.
 *
 * <p>A run with a {@code DATABASE_RESTART} fault stops the server every run shares, so it runs alone.
 * Each point's worst run is kept whole while its other seeds run (one run's events per point at
 * most); when it came from an earlier, interrupted sweep, it is run again (a simulated run is the
 * same for the same seed) to hand it to the listener.
 */
public final class SweepRunner {

    private final Database db;
    private final SweepPlan plan;
    private final Function<Point, PointSpec> specs;
    private final ResultsFile results;
    private final int jobs;
    private final Path workDir;
    /** The backend every run uses, or null for the fastest each spec allows ({@link Backend#fastestFor}). */
    private final Backend backend;
    private final ReentrantReadWriteLock sharedDatabase = new ReentrantReadWriteLock();
    private final Set<Run> active = ConcurrentHashMap.newKeySet();
    private final Object listenerLock = new Object();
    private volatile boolean stopping;

    /**
     * @param specs   the run spec of each point, or why the point cannot run
     * @param jobs    how many runs go at once (at least 1)
     * @param workDir where runs write their event logs while they go (created; emptied at the end)
     */
    public SweepRunner(Database db, SweepPlan plan, Function<Point, PointSpec> specs, ResultsFile results, int jobs,
                       Path workDir) {
        this(db, plan, specs, results, jobs, workDir, null);
    }

    /** @param backend the backend of every run; null: the fastest each spec allows (in memory for simulated runs) */
    public SweepRunner(Database db, SweepPlan plan, Function<Point, PointSpec> specs, ResultsFile results, int jobs,
                       Path workDir, Backend backend) {
        if (jobs < 1) {
            throw new IllegalArgumentException("--jobs must be at least 1, was " + jobs);
        }
        this.db = db;
        this.plan = plan;
        this.specs = specs;
        this.results = results;
        this.jobs = jobs;
        this.workDir = workDir;
        this.backend = backend;
    }

    /** The backend a run of {@code spec} uses in this sweep. */
    public Backend backendFor(RunSpec spec) {
        return backend != null ? backend : Backend.fastestFor(spec);
    }

    /** One point's progress. */
    private final class PointState {
        final Point point;
        final RunSpec spec;
        final Bounds bounds;
        final AtomicInteger remaining;
        RunDone held;
        ResultRow heldRow;

        PointState(Point point, RunSpec spec, int remaining) {
            this.point = point;
            this.spec = spec;
            this.bounds = Bounds.of(spec);
            this.remaining = new AtomicInteger(remaining);
        }
    }

    /**
     * Runs what is left of the plan.
     *
     * @return true when every point is done, false when stopped
     * @throws DatabaseException if a run failed because the database went away
     */
    public boolean run(SweepListener listener) throws InterruptedException, IOException {
        Files.createDirectories(workDir);
        List<PointState> ready = new ArrayList<>();
        Map<Point, String> skipped = new LinkedHashMap<>();
        int alreadyDone = 0;
        for (Point p : plan.points()) {
            switch (specs.apply(p)) {
                case PointSpec.Skipped s -> skipped.put(p, s.reason());
                case PointSpec.Ready r -> {
                    int todo = (int) plan.seeds().stream().filter(seed -> !results.has(p.index(), seed)).count();
                    alreadyDone += plan.seeds().size() - todo;
                    ready.add(new PointState(p, r.spec(), todo));
                }
            }
        }
        synchronized (listenerLock) {
            listener.started(plan, ready.size() * plan.seeds().size(), alreadyDone);
            skipped.forEach(listener::pointSkipped);
        }
        ExecutorService pool = Executors.newFixedThreadPool(jobs, Thread.ofPlatform().daemon().name("sweep-", 1)
                .factory());
        List<Future<?>> futures = new ArrayList<>();
        try {
            for (PointState state : ready) {
                List<Long> todo = plan.seeds().stream().filter(seed -> !results.has(state.point.index(), seed)).toList();
                if (todo.isEmpty()) {
                    futures.add(pool.submit(() -> {
                        complete(state, listener);
                        return null;
                    }));
                }
                for (long seed : todo) {
                    futures.add(pool.submit(() -> {
                        runSeed(state, seed, listener);
                        return null;
                    }));
                }
            }
            Throwable failure = null;
            for (Future<?> f : futures) {
                try {
                    f.get();
                } catch (ExecutionException e) {
                    if (failure == null) {
                        failure = e.getCause();
                        stop();
                    }
                }
            }
            if (failure != null) {
                throw rethrow(failure);
            }
        } catch (InterruptedException e) {
            stop();
            throw e;
        } finally {
            pool.shutdownNow();
            awaitEnd(pool);
            clean();
        }
        boolean completed = !stopping;
        if (completed) {
            results.finish();
        }
        synchronized (listenerLock) {
            listener.finished(!completed);
        }
        return completed;
    }

    /** Ends the sweep soon: runs under way stop (their results are dropped), queued ones do not start. */
    public void stop() {
        stopping = true;
        active.forEach(Run::stop);
    }

    public boolean stopping() {
        return stopping;
    }

    private void runSeed(PointState state, long seed, SweepListener listener) throws InterruptedException {
        RunDone done = runOnce(state, seed);
        if (done == null) {
            return;
        }
        ResultRow row = row(done, state.bounds);
        results.append(row);
        synchronized (listenerLock) {
            listener.runFinished(row);
        }
        RunDone dropped;
        synchronized (state) {
            if (state.heldRow == null || PointSummary.WORST_FIRST.compare(row, state.heldRow) < 0) {
                dropped = state.held;
                state.held = done;
                state.heldRow = row;
            } else {
                dropped = done;
            }
        }
        if (dropped != null) {
            delete(dropped.result().eventLog());
        }
        if (state.remaining.decrementAndGet() == 0) {
            complete(state, listener);
        }
    }

    private void complete(PointState state, SweepListener listener) throws InterruptedException {
        if (stopping) {
            return;
        }
        List<ResultRow> rows = results.rows().stream().filter(r -> r.point() == state.point.index()).toList();
        PointSummary summary = new PointSummary(state.point, rows, state.bounds);
        boolean wanted;
        synchronized (listenerLock) {
            wanted = listener.wantsWorstRun(state.point);
        }
        RunDone worst = null;
        if (wanted) {
            long seed = summary.worst().seed();
            synchronized (state) {
                worst = state.held != null && state.held.seed() == seed ? state.held : null;
            }
            if (worst == null) {
                worst = runOnce(state, seed);
                if (worst == null) {
                    return;
                }
            }
        }
        try {
            synchronized (listenerLock) {
                listener.pointFinished(summary, worst);
            }
        } finally {
            synchronized (state) {
                if (state.held != null) {
                    delete(state.held.result().eventLog());
                }
                state.held = null;
            }
            if (worst != null) {
                delete(worst.result().eventLog());
            }
        }
    }

    /** One run of the point's spec with {@code seed}, whole; null when the sweep was stopped meanwhile. */
    private RunDone runOnce(PointState state, long seed) throws InterruptedException {
        if (stopping) {
            return null;
        }
        RunSpec spec = state.spec.withSeed(seed);
        Path log = workDir.resolve(state.point.id() + "-seed" + seed + ".jsonl");
        List<Event> events = Collections.synchronizedList(new ArrayList<>());
        boolean alone = spec.faults().stream().anyMatch(f -> f.kind() == FaultKind.DATABASE_RESTART);
        Lock lock = alone ? sharedDatabase.writeLock() : sharedDatabase.readLock();
        lock.lockInterruptibly();
        RunResult result = null;
        try (Run run = Run.prepare(db, spec, log, backendFor(spec))) {
            run.bus().subscribe("sweep", events::addAll);
            active.add(run);
            try {
                if (!stopping) {
                    result = run.runToEnd();
                }
            } finally {
                active.remove(run);
            }
        } finally {
            lock.unlock();
        }
        if (stopping || result == null) {
            // Dropped whole: closing a run that never started writes a log holding only RunEnded, a stub
            // that would read as a run.
            delete(log);
            return null;
        }
        if (!result.completed()) {
            throw new DatabaseException("the run of " + state.point.label(plan.axes()) + " with seed " + seed
                    + " did not complete (" + result.endReason() + "); the results so far are kept, run the "
                    + "same command again to resume");
        }
        return new RunDone(state.point, seed, spec, result, List.copyOf(events));
    }

    private static ResultRow row(RunDone done, Bounds bounds) {
        Map<String, Double> values = new LinkedHashMap<>(done.result().tuning().totals().values());
        values.putAll(Bounds.measure(done.events()));
        return new ResultRow(done.point().index(), done.seed(), values, done.result().verdict().kind().name(),
                bounds.check(done.events(), done.result().tuning()));
    }

    /**
     * Waits for the runs still ending (an interrupted sweep does not wait for its futures), so that
     * none writes its log into the work directory after it was emptied.
     */
    private static void awaitEnd(ExecutorService pool) {
        try {
            pool.awaitTermination(30, java.util.concurrent.TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private void clean() {
        try (var files = Files.list(workDir)) {
            files.forEach(SweepRunner::delete);
            Files.deleteIfExists(workDir);
        } catch (IOException e) {
            // leftovers in the work directory are harmless: the next sweep overwrites them
        }
    }

    private static void delete(Path file) {
        try {
            Files.deleteIfExists(file);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot delete a finished run's log: " + FileProblem.of(file, e), e);
        }
    }

    private static RuntimeException rethrow(Throwable t) throws InterruptedException, IOException {
        if (t instanceof InterruptedException ie) {
            throw ie;
        }
        if (t instanceof IOException io) {
            throw io;
        }
        if (t instanceof RuntimeException re) {
            return re;
        }
        if (t instanceof Error er) {
            throw er;
        }
        return new IllegalStateException(t);
    }
}
