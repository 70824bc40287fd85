package io.fencelab.app.console.run;

import io.fencelab.app.console.feed.EventFeed;
import io.fencelab.app.console.feed.Notice;
import io.fencelab.app.console.model.RunInfo;
import io.fencelab.app.console.model.RunPhase;
import io.fencelab.engine.clock.Pacer;
import io.fencelab.engine.db.Database;
import io.fencelab.engine.run.Run;
import io.fencelab.engine.run.RunResult;
import io.fencelab.engine.run.RunSpec;
import io.fencelab.engine.run.SimulatedExecutor;
import java.nio.file.Path;

/**
 * Drives a simulated run from its own thread ({@code fencelab-simulated}): the executor is
 * single-threaded and does real SQL, so neither may happen on the FX thread.
 *
 * <p>Speed: the engine's {@link Pacer} is left at "as fast as possible" and the driver paces the
 * run itself: it executes the next action, then holds its events back until real time, at the
 * chosen speed, reaches the action's instant (see {@link #loop}). The playhead moves smoothly
 * through quiet stretches, and pause or a new speed take effect at once, where a pacer sleeping
 * until the next action could sleep for minutes at 0.01x.
 *
 * <p>After every step the driver flushes the run's (direct) bus, so the console sees events as
 * soon as they are due, and the batches are the same at any speed (and as {@code Run.runToEnd}'s).
 */
public final class SimulatedDriver extends PlayerDriver {

    private static final org.slf4j.Logger LOG = org.slf4j.LoggerFactory.getLogger(SimulatedDriver.class);

    /** Longest wait of a paced run between two looks at its commands and the clock. */
    private static final long SLICE_NANOS = 8_000_000;
    /** How often an as-fast-as-possible run moves the playhead. */
    private static final long FLUSH_NANOS = 15_000_000;
    /** A step that took this long (the database was slow) restarts the pacing instead of catching up. */
    private static final long LAG_NANOS = 250_000_000;

    private final Database db;
    private final RunSpec spec;
    private final Path eventLog;
    private final long fastForwardMicros;



    /**
     * @param fastForwardMicros run as fast as possible up to this run time before pausing (0: start
     *                          paused at the beginning); used to restart a run with a change "from now"
     */
    public SimulatedDriver(Database db, RunSpec spec, Path eventLog, EventFeed feed, long fastForwardMicros) {
        super(feed, "fencelab-simulated");
        this.db = db;
        this.spec = spec;
        this.eventLog = eventLog;
        this.fastForwardMicros = fastForwardMicros;
    }

    @Override
    public Capabilities capabilities() {
        return new Capabilities(true, true, false);
    }


    // ---- the driver's thread ------------------------------------------------------------------

    @Override
    protected void drive() {
        Run prepared = prepare(db, spec, eventLog, "the run");
        if (prepared == null) {
            return;
        }
        try (Run r = prepared) {
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
        while (!executor.isOver() && micros(executor) < fastForwardMicros) {
            if (stopRequested()) {
                executor.stop();
                return;
            }
            stepAndFlush(r, executor);
        }
        nowMicros = micros(executor);
    }

    private boolean stopRequested() {
        synchronized (lock) {
            return stopRequested;
        }
    }

    private static long micros(SimulatedExecutor executor) {
        return executor.now().toNanos() / 1_000;
    }

    /** One action of the executor, its events handed to every consumer at once. */
    private void stepAndFlush(Run r, SimulatedExecutor executor) {
        executor.step();
        r.bus().flush();
    }

    /**
     * The console's pacing. Every executor step is flushed to the bus on its own, whatever the
     * speed, so the batches every consumer sees (and so where the checker's {@code Violation}
     * events land in the log) depend only on the run, never on the speed or on pauses: a restart
     * with the same seed gives the same log. A paced run executes the next action at once (its
     * SQL runs at its virtual instant) but holds its events back until real time, at the chosen
     * speed, reaches that instant; meanwhile the playhead moves on smoothly.
     */
    private void loop(Run r, SimulatedExecutor executor) {
        while (!executor.isOver() || pending) {
            Command c = nextCommand();
            if (c == null) {
                executor.stop();
                r.bus().flush();
                pending = false;
                return;
            }
            if (c.step()) {
                stepOnce(r, executor);
            } else if (c.speed() == Pacer.AS_FAST_AS_POSSIBLE) {
                runFlat(r, executor);
            } else {
                runPaced(r, executor, c.speed());
            }
        }
    }

    /** An executed action whose events are held back until the playhead reaches it. */
    private boolean pending;

    /** Hands over the held-back action's events, if any; the playhead moves to it. */
    private void release(Run r, SimulatedExecutor executor) {
        if (pending) {
            pending = false;
            r.bus().flush();
        }
        nowMicros = Math.max(nowMicros, micros(executor));
    }

    /** Single step: until at least one more event has been published (a deferred action publishes none). */
    private void stepOnce(Run r, SimulatedExecutor executor) {
        long before = r.bus().delivered();
        release(r, executor);
        for (int guard = 0; guard < 1_000_000 && !executor.isOver() && r.bus().delivered() == before; guard++) {
            stepAndFlush(r, executor);
        }
        nowMicros = micros(executor);
    }

    /** As fast as possible, until a command arrives or the run ends. */
    private void runFlat(Run r, SimulatedExecutor executor) {
        int seen = commands;
        release(r, executor);
        long lastShown = System.nanoTime();
        while (!executor.isOver() && commands == seen) {
            stepAndFlush(r, executor);
            long t = System.nanoTime();
            if (t - lastShown > FLUSH_NANOS) {
                nowMicros = micros(executor);
                lastShown = t;
            }
        }
        nowMicros = micros(executor);
    }

    /** At {@code speed} run seconds per real second, until a command arrives or the run (and its last events) is over. */
    private void runPaced(Run r, SimulatedExecutor executor, double speed) {
        int seen = commands;
        long realAnchor = System.nanoTime();
        long virtualAnchor = nowMicros;
        while ((!executor.isOver() || pending) && commands == seen) {
            if (!pending) {
                long before = System.nanoTime();
                executor.step();
                pending = true;
                if (System.nanoTime() - before > LAG_NANOS) {
                    // The database could not keep up: go on from here rather than rush to catch up.
                    realAnchor = System.nanoTime();
                    virtualAnchor = nowMicros;
                }
            }
            long due = micros(executor);
            long paced = virtualAnchor + (long) ((System.nanoTime() - realAnchor) / 1_000.0 * speed);
            if (paced >= due) {
                release(r, executor);
                continue;
            }
            nowMicros = Math.max(nowMicros, paced);
            long waitNanos = Math.min(SLICE_NANOS, (long) ((due - paced) * 1_000 / speed) + 1);
            synchronized (lock) {
                if (commands == seen) {
                    try {
                        lock.wait(Math.max(1, waitNanos / 1_000_000), 0);
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
