package io.fencelab.app.console.run;

import io.fencelab.app.console.feed.EventFeed;
import io.fencelab.app.console.feed.Notice;
import io.fencelab.app.console.model.RunInfo;
import io.fencelab.app.console.model.RunPhase;
import io.fencelab.app.console.model.RunModel;
import io.fencelab.engine.check.Verdict;
import io.fencelab.engine.clock.Pacer;
import io.fencelab.engine.db.Database;
import io.fencelab.engine.metrics.MetricsSnapshot;
import io.fencelab.engine.run.Run;
import io.fencelab.engine.run.RunResult;
import io.fencelab.engine.run.RunSpec;
import io.fencelab.engine.run.SimulatedExecutor;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

/**
 * Drives a simulated run from its own thread ({@code fencelab-simulated}): the executor is
 * single-threaded and does real SQL, so neither may happen on the FX thread.
 *
 * <p>Speed: the engine's {@link Pacer} is left at "as fast as possible" and the driver paces the
 * run itself with {@link SimulatedExecutor#runUntil}: every few milliseconds it runs the executor
 * up to the run time that real time has reached at the chosen speed. That moves the run's clock
 * (the playhead) smoothly through quiet stretches, and pause or a new speed take effect at once,
 * where a pacer sleeping until the next action could sleep for minutes at 0.01x.
 *
 * <p>After every slice the driver flushes the run's (direct) bus, so the console sees events as
 * soon as they happen rather than 64 at a time.
 */
public final class SimulatedDriver implements RunDriver {

    private static final org.slf4j.Logger LOG = org.slf4j.LoggerFactory.getLogger(SimulatedDriver.class);

    /** Real time between two slices of a paced run. */
    private static final long SLICE_NANOS = 8_000_000;
    /** How often an as-fast-as-possible run hands its events to the console. */
    private static final long FLUSH_NANOS = 15_000_000;
    /** A slice that took this long (the database was slow) restarts the pacing instead of catching up. */
    private static final long LAG_NANOS = 250_000_000;

    private final Database db;
    private final RunSpec spec;
    private final Path eventLog;
    private final EventFeed feed;
    private final long fastForwardMicros;
    private final Thread thread;
    private final CountDownLatch closed = new CountDownLatch(1);

    private final Object lock = new Object();
    private boolean playing;
    private int stepsRequested;
    private double speed = 1.0;
    private boolean stopRequested;
    /** Bumped on every command, so a busy loop notices one with a single volatile read. */
    private volatile int commands;

    private volatile Run run;
    private volatile long nowMicros;

    /**
     * @param fastForwardMicros run as fast as possible up to this run time before pausing (0: start
     *                          paused at the beginning); used to restart a run with a change "from now"
     */
    public SimulatedDriver(Database db, RunSpec spec, Path eventLog, EventFeed feed, long fastForwardMicros) {
        this.db = db;
        this.spec = spec;
        this.eventLog = eventLog;
        this.feed = feed;
        this.fastForwardMicros = fastForwardMicros;
        this.thread = Thread.ofPlatform().daemon().name("fencelab-simulated").unstarted(this::drive);
    }

    @Override
    public void start() {
        thread.start();
    }

    @Override
    public void play() {
        command(() -> playing = true);
    }

    @Override
    public void pause() {
        command(() -> playing = false);
    }

    @Override
    public void step() {
        command(() -> {
            playing = false;
            stepsRequested++;
        });
    }

    @Override
    public void setSpeed(double newSpeed) {
        if (newSpeed != Pacer.AS_FAST_AS_POSSIBLE && (newSpeed < Pacer.MIN_SPEED || newSpeed > Pacer.MAX_SPEED)) {
            throw new IllegalArgumentException("speed must be between 0.01x and 100x, was " + newSpeed);
        }
        command(() -> speed = newSpeed);
    }

    @Override
    public void stop() {
        command(() -> stopRequested = true);
    }

    @Override
    public void close() {
        feed.close();
        stop();
    }

    @Override
    public boolean awaitClosed(long millis) throws InterruptedException {
        return closed.await(millis, TimeUnit.MILLISECONDS);
    }

    @Override
    public Capabilities capabilities() {
        return new Capabilities(true, true);
    }

    @Override
    public long nowMicros() {
        return nowMicros;
    }

    @Override
    public Verdict verdictSoFar() {
        Run r = run;
        return r == null ? RunModel.NO_VIOLATION : r.verdictSoFar();
    }

    @Override
    public MetricsSnapshot metricsSoFar() {
        Run r = run;
        return r == null ? RunModel.NO_METRICS : r.metricsSoFar();
    }

    private void command(Runnable change) {
        synchronized (lock) {
            change.run();
            commands++;
            lock.notifyAll();
        }
    }

    // ---- the driver's thread ------------------------------------------------------------------

    private void drive() {
        Run prepared;
        try {
            prepared = Run.prepare(db, spec, eventLog);
        } catch (RuntimeException e) {
            LOG.warn("could not prepare a simulated run", e);
            feed.notice(new Notice.Failed(Problems.describe("could not prepare the run", e), null));
            closed.countDown();
            return;
        }
        run = prepared;
        try (Run r = prepared) {
            r.bus().subscribe("console", feed);
            SimulatedExecutor executor = r.simulatedExecutor().orElseThrow();
            executor.pacer().setSpeed(Pacer.AS_FAST_AS_POSSIBLE);
            feed.notice(new Notice.Prepared(RunInfo.of(spec)));
            String failure = null;
            try {
                if (fastForwardMicros > 0) {
                    fastForward(r, executor);
                }
                r.bus().flush();
                feed.notice(new Notice.Phase(RunPhase.PAUSED));
                loop(r, executor);
            } catch (RuntimeException e) {
                LOG.warn("simulated run stopped on an error", e);
                failure = Problems.describe("the run stopped on an error", e);
                executor.stop();
            }
            RunResult result = finish(r);
            nowMicros = Math.max(nowMicros, executor.now().toNanos() / 1_000);
            if (failure != null) {
                feed.notice(new Notice.Failed(failure, result));
            } else if (result != null) {
                feed.notice(new Notice.Finished(result));
            }
        } catch (RuntimeException e) {
            LOG.warn("a simulated run could not be closed cleanly", e);
            feed.notice(new Notice.Failed(Problems.describe("the run could not be closed cleanly", e), null));
        } finally {
            closed.countDown();
        }
    }

    private RunResult finish(Run r) {
        try {
            return r.runToEnd();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return null;
        } catch (RuntimeException e) {
            LOG.warn("the end of a simulated run could not be judged", e);
            feed.notice(new Notice.Failed(Problems.describe("the run's end could not be judged", e), null));
            return null;
        }
    }

    private void fastForward(Run r, SimulatedExecutor executor) {
        long lastFlush = System.nanoTime();
        while (!executor.isOver() && executor.now().toNanos() / 1_000 < fastForwardMicros) {
            if (stopRequested()) {
                executor.stop();
                return;
            }
            long target = Math.min(fastForwardMicros, executor.now().toNanos() / 1_000 + 100_000);
            advanceTo(executor, target);
            nowMicros = executor.now().toNanos() / 1_000;
            if (System.nanoTime() - lastFlush > FLUSH_NANOS) {
                r.bus().flush();
                lastFlush = System.nanoTime();
            }
        }
    }

    private boolean stopRequested() {
        synchronized (lock) {
            return stopRequested;
        }
    }

    private void loop(Run r, SimulatedExecutor executor) {
        boolean wasPlaying = false;
        while (!executor.isOver()) {
            boolean play;
            boolean step;
            double currentSpeed;
            synchronized (lock) {
                if (wasPlaying && !playing && !stopRequested) {
                    feed.notice(new Notice.Phase(RunPhase.PAUSED));
                    wasPlaying = false;
                }
                while (!playing && stepsRequested == 0 && !stopRequested) {
                    try {
                        lock.wait();
                    } catch (InterruptedException e) {
                        Thread.currentThread().interrupt();
                        stopRequested = true;
                    }
                }
                if (stopRequested) {
                    executor.stop();
                    return;
                }
                play = playing;
                step = !play && stepsRequested > 0;
                if (step) {
                    stepsRequested--;
                }
                currentSpeed = speed;
            }
            if (play != wasPlaying) {
                feed.notice(new Notice.Phase(play ? RunPhase.PLAYING : RunPhase.PAUSED));
                wasPlaying = play;
            }
            if (step) {
                stepOnce(r, executor);
            } else if (currentSpeed == Pacer.AS_FAST_AS_POSSIBLE) {
                runFlat(r, executor);
            } else {
                runPaced(r, executor, currentSpeed);
            }
        }
    }

    /**
     * Runs the executor up to run time {@code target}, never past the run's end: the executor's
     * clock must not pass the end (its last step moves the clock to the end, and time never goes
     * backwards). Reaching the end finishes the run, even if actions remain scheduled after it.
     */
    private void advanceTo(SimulatedExecutor executor, long target) {
        long end = spec.duration().toNanos() / 1_000;
        long t = Math.min(target, end);
        if (t > executor.now().toNanos() / 1_000) {
            executor.runUntil(Duration.ofNanos(t * 1_000));
        }
        if (t >= end && !executor.isOver()) {
            executor.step();
        }
    }

    /** Single step: until at least one more event has been published (a deferred action publishes none). */
    private void stepOnce(Run r, SimulatedExecutor executor) {
        long before = r.bus().published();
        for (int guard = 0; guard < 1_000_000 && !executor.isOver() && r.bus().published() == before; guard++) {
            executor.step();
        }
        nowMicros = executor.now().toNanos() / 1_000;
        r.bus().flush();
    }

    /** As fast as possible, handing events over every {@link #FLUSH_NANOS}, until a command arrives. */
    private void runFlat(Run r, SimulatedExecutor executor) {
        int seen = commands;
        long lastFlush = System.nanoTime();
        while (!executor.isOver() && commands == seen) {
            executor.step();
            long t = System.nanoTime();
            if (t - lastFlush > FLUSH_NANOS) {
                nowMicros = executor.now().toNanos() / 1_000;
                r.bus().flush();
                lastFlush = t;
            }
        }
        nowMicros = executor.now().toNanos() / 1_000;
        r.bus().flush();
    }

    /** At {@code speed} run seconds per real second, until a command arrives or the run ends. */
    private void runPaced(Run r, SimulatedExecutor executor, double speed) {
        int seen = commands;
        long realAnchor = System.nanoTime();
        long virtualAnchor = executor.now().toNanos() / 1_000;
        while (!executor.isOver() && commands == seen) {
            long sliceStart = System.nanoTime();
            long target = virtualAnchor + (long) ((sliceStart - realAnchor) / 1_000.0 * speed);
            advanceTo(executor, target);
            nowMicros = executor.now().toNanos() / 1_000;
            r.bus().flush();
            long took = System.nanoTime() - sliceStart;
            if (took > LAG_NANOS) {
                // The database could not keep up: go on from here rather than rush to catch up.
                realAnchor = System.nanoTime();
                virtualAnchor = nowMicros;
            }
            synchronized (lock) {
                if (commands == seen) {
                    try {
                        long waitNanos = Math.max(1_000_000, SLICE_NANOS - took);
                        lock.wait(waitNanos / 1_000_000, (int) (waitNanos % 1_000_000));
                    } catch (InterruptedException e) {
                        Thread.currentThread().interrupt();
                        stopRequested = true;
                        commands++;
                    }
                }
            }
        }
    }
}
