package io.fencelab.app.console.run;

import io.fencelab.app.console.feed.EventFeed;
import io.fencelab.app.console.feed.Notice;
import io.fencelab.app.console.model.Capabilities;
import io.fencelab.app.console.model.RunInfo;
import io.fencelab.app.console.model.RunPhase;
import io.fencelab.app.console.ui.Problems;
import io.fencelab.engine.check.Verdict;
import io.fencelab.engine.clock.Pacer;
import io.fencelab.engine.clock.Ticker;
import io.fencelab.engine.db.Database;
import io.fencelab.engine.event.Event;
import io.fencelab.engine.metrics.MetricsSnapshot;
import io.fencelab.engine.metrics.TuningMetrics;
import io.fencelab.engine.run.Run;
import io.fencelab.engine.run.RunResult;
import io.fencelab.engine.run.RunSpec;
import io.fencelab.engine.run.SimulatedExecutor;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;

/**
 * Drives a simulated run from its own thread ({@code fencelab-simulated}): the executor is
 * single-threaded and does real SQL, so neither may happen on the FX thread.
 *
 * <p>Speed: the executor never waits; the driver paces the run with its {@link Pacer}: it
 * executes the next action, then holds its events back until the pacer says the action's instant
 * is due at the chosen speed (see {@link #playOn}). The playhead moves smoothly through quiet
 * stretches, and pause or a new speed take effect at once: the wait ends on any command, where a
 * pacer sleeping until the next action could sleep for minutes at 0.01x.
 *
 * <p>After every step the driver flushes the run's (direct) bus, so the console sees events as
 * soon as they are due, and the batches are the same at any speed (and as {@code Run.runToEnd}'s).
 *
 * <p>The console's events pass through the driver ({@link #held}) on their way from the bus: a story
 * stop ({@link StoryGate}) can fall inside one action's events, and the events after it wait there
 * until the run goes on. The log, checker and metrics see every event at once as before; while
 * events are held, the verdict and metrics shown are those from before them, so they give nothing away.
 */
public final class SimulatedDriver extends PlayerDriver {

    private static final org.slf4j.Logger LOG = org.slf4j.LoggerFactory.getLogger(SimulatedDriver.class);

    /** A step that took this long (the database was slow) restarts the pacing instead of catching up. */
    private static final long LAG_NANOS = 250_000_000;

    private final Database db;
    private final RunSpec spec;
    private final Path eventLog;
    private final long fastForwardMicros;
    /** Events the bus delivered for the console, not yet handed to it (the driver's thread only). */
    private final List<Event> held = new ArrayList<>();
    /** Events handed to the console so far (the driver's thread only). */
    private long shown;
    /** The verdict and metrics before the events held back, shown instead of the run's while there are any. */
    private volatile SoFar beforeHeld;

    /** What the console is told of the run so far. */
    private record SoFar(Verdict verdict, MetricsSnapshot metrics, TuningMetrics tuning) {}

    /**
     * @param fastForwardMicros run as fast as possible up to this run time before pausing (0: start
     *                          paused at the beginning); used to restart a run with a change "from now"
     */
    public SimulatedDriver(Database db, RunSpec spec, Path eventLog, EventFeed feed, long fastForwardMicros) {
        super(feed, "fencelab-simulated", Ticker.system());
        this.db = db;
        this.spec = spec;
        this.eventLog = eventLog;
        this.fastForwardMicros = fastForwardMicros;
    }

    @Override
    public Capabilities capabilities() {
        return new Capabilities(true, true, false);
    }

    @Override
    protected Consumer<List<Event>> sink() {
        return held::addAll;
    }

    @Override
    public Verdict verdictSoFar() {
        SoFar before = beforeHeld;
        return before != null ? before.verdict() : super.verdictSoFar();
    }

    @Override
    public MetricsSnapshot metricsSoFar() {
        SoFar before = beforeHeld;
        return before != null ? before.metrics() : super.metricsSoFar();
    }

    @Override
    public TuningMetrics tuningSoFar() {
        SoFar before = beforeHeld;
        return before != null ? before.tuning() : super.tuningSoFar();
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
            feed.notice(new Notice.Prepared(RunInfo.of(spec, r.store())));
            String failure = null;
            try {
                if (fastForwardMicros > 0) {
                    fastForward(r, executor);
                }
                flush(r);
                feed.notice(new Notice.Phase(RunPhase.PAUSED));
                loop(r, executor);
            } catch (RuntimeException e) {
                LOG.warn("simulated run stopped on an error", e);
                failure = Problems.describe("the run stopped on an error", e);
                executor.stop();
            }
            RunResult result = finish(r);
            gate.passAll(true);
            publish(null);
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
        gate.passAll(true);
        try {
            fastForwardTo(r, executor);
        } finally {
            gate.passAll(false);
        }
    }

    private void fastForwardTo(Run r, SimulatedExecutor executor) {
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

    /** One action of the executor, its events handed to every consumer at once; true if the story stopped the run. */
    private boolean stepAndFlush(Run r, SimulatedExecutor executor) {
        executor.step();
        return flush(r);
    }

    /** Hands the executed actions' events to every consumer, the console's up to a story stop; true if it stopped. */
    private boolean flush(Run r) {
        // Only a run that may stop inside these events needs the verdict before them.
        SoFar before = held.isEmpty() && gate.active() ? new SoFar(r.verdictSoFar(), r.metricsSoFar(), r.tuningSoFar()) : null;
        r.bus().flush();
        return publish(before);
    }

    /**
     * Hands the held events to the console up to the next story stop, and stops there (true).
     * {@code before}: the verdict and metrics before the newest of them, kept on show while any are held.
     */
    private boolean publish(SoFar before) {
        if (held.isEmpty()) {
            return false;
        }
        int n = gate.cut(held);
        if (n > 0) {
            List<Event> out = List.copyOf(held.subList(0, n));
            held.subList(0, n).clear();
            shown += n;
            nowMicros = Math.max(nowMicros, out.getLast().atMicros());
            feed.accept(out);
        }
        if (held.isEmpty()) {
            beforeHeld = null;
        } else if (beforeHeld == null && before != null) {
            beforeHeld = before;
        }
        StoryGate.Stop stop = gate.takeStop();
        if (stop != null) {
            stopAt(stop);
            return true;
        }
        return false;
    }

    /**
     * The console's pacing. Every executor step is flushed to the bus on its own, whatever the
     * speed, so the batches every consumer sees depend only on the run, never on the speed or on
     * pauses: a restart with the same seed gives the same log.
     */
    private void loop(Run r, SimulatedExecutor executor) {
        while (!executor.isOver() || pending || !held.isEmpty()) {
            Command c = nextCommand();
            if (c == null) {
                executor.stop();
                r.bus().flush();
                pending = false;
                return;
            }
            if (c.step()) {
                stepOnce(r, executor);
            } else {
                playOn(r, executor, c.speed());
            }
        }
    }

    /** An executed action whose events are held back until the playhead reaches it. */
    private boolean pending;

    /**
     * Hands over the held-back action's events, if any; the playhead moves to it (unless the story
     * stopped the run before all of them: true).
     */
    private boolean release(Run r, SimulatedExecutor executor) {
        boolean stopped = false;
        if (pending) {
            pending = false;
            stopped = flush(r);
        }
        if (held.isEmpty()) {
            nowMicros = Math.max(nowMicros, micros(executor));
        }
        return stopped;
    }

    /** Single step: until at least one more event has been shown (a deferred action publishes none). */
    private void stepOnce(Run r, SimulatedExecutor executor) {
        long before = shown;
        if (publish(null) || shown > before) {
            return;
        }
        if (release(r, executor) || shown > before) {
            return;
        }
        for (int guard = 0; guard < 1_000_000 && !executor.isOver() && shown == before; guard++) {
            if (stepAndFlush(r, executor)) {
                return;
            }
        }
        if (held.isEmpty()) {
            nowMicros = micros(executor);
        }
    }

    /**
     * Plays at {@code speed} (run seconds per real second, or as fast as possible) until a command
     * arrives or the run and its last events are over. The next action is executed at once (its
     * SQL runs at its virtual instant), but its events are held back until the {@link #pacer} says
     * that instant is due; meanwhile the playhead moves on smoothly, never past the held-back
     * action. As fast as possible, every instant is due at once.
     */
    private void playOn(Run r, SimulatedExecutor executor, double speed) {
        int seen = commands;
        pacer.play(nowMicros, speed);
        try {
            while ((!executor.isOver() || pending || !held.isEmpty()) && commands == seen) {
                if (!held.isEmpty()) {
                    // Events held at a story stop were due when they arrived: on with them first.
                    if (publish(null)) {
                        break;
                    }
                    continue;
                }
                if (!pending) {
                    long before = ticker.nanos();
                    executor.step();
                    pending = true;
                    if (ticker.nanos() - before > LAG_NANOS) {
                        // The database could not keep up: go on from here rather than rush to catch up.
                        pacer.play(nowMicros, speed);
                    }
                }
                long due = micros(executor);
                if (pacer.isDue(due)) {
                    if (release(r, executor)) {
                        break;
                    }
                } else {
                    nowMicros = Math.max(nowMicros, Math.min(pacer.runMicros(), due));
                    awaitDue(due, seen);
                }
            }
        } finally {
            pacer.pause();
        }
    }
}
