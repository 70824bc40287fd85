package io.fencelab.app.console.run;

import io.fencelab.app.console.feed.EventFeed;
import io.fencelab.app.console.feed.Notice;
import io.fencelab.app.console.ui.Problems;
import io.fencelab.app.service.ServiceReach;
import io.fencelab.engine.check.Judgement;
import io.fencelab.engine.check.Verdict;
import io.fencelab.engine.db.Database;
import io.fencelab.engine.event.Event;
import io.fencelab.engine.metrics.MetricsSnapshot;
import io.fencelab.engine.metrics.TuningMetrics;
import io.fencelab.engine.run.Run;
import io.fencelab.engine.run.RunSpec;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;

/**
 * What every driver shares: a daemon thread of its own that moves the run and tells the console
 * through the feed, a latch counted down when that thread is done, and (for engine runs) the
 * {@link Run} whose verdict and metrics so far the console asks for.
 */
abstract class ThreadedDriver implements RunDriver {

    private static final org.slf4j.Logger LOG = org.slf4j.LoggerFactory.getLogger(ThreadedDriver.class);

    protected final EventFeed feed;
    protected final CountDownLatch closed = new CountDownLatch(1);
    private final Thread thread;
    /** The engine run, once the driver's thread has prepared it; null for a replayed log. */
    protected volatile Run run;

    protected ThreadedDriver(EventFeed feed, String threadName) {
        this.feed = feed;
        this.thread = Thread.ofPlatform().daemon().name(threadName).unstarted(() -> {
            try {
                drive();
            } finally {
                closed.countDown();
            }
        });
    }

    /** The driver's thread: runs until the end, a stop or a failure ({@link #closed} counts down after). */
    protected abstract void drive();

    /**
     * Prepares the engine run on the driver's thread and subscribes the console's feed to it; on
     * failure tells the console, in {@code what}'s words, and returns null.
     */
    protected Run prepare(Database db, RunSpec spec, Path eventLog, String what) {
        // Asked here, off the FX thread: a server that does not answer takes seconds to say so.
        Optional<String> unreachable = ServiceReach.problem(spec.service());
        if (unreachable.isPresent()) {
            feed.notice(new Notice.Failed("could not prepare " + what + ": " + unreachable.get(), null));
            return null;
        }
        Run prepared;
        try {
            prepared = Run.prepare(db, spec, eventLog);
        } catch (RuntimeException e) {
            LOG.warn("could not prepare {}", what, e);
            feed.notice(new Notice.Failed(Problems.describe("could not prepare " + what, e), null));
            return null;
        }
        prepared.bus().subscribe("console", sink());
        run = prepared;
        return prepared;
    }

    /** Where the run's bus delivers the console's events: the feed, unless a driver holds some back first. */
    protected Consumer<List<Event>> sink() {
        return feed;
    }

    @Override
    public void start() {
        thread.start();
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
    public Verdict verdictSoFar() {
        Run r = run;
        return r == null ? RunDriver.super.verdictSoFar() : r.verdictSoFar();
    }

    @Override
    public Judgement judgementSoFar() {
        Run r = run;
        return r == null ? RunDriver.super.judgementSoFar() : r.judgementSoFar();
    }

    @Override
    public MetricsSnapshot metricsSoFar() {
        Run r = run;
        return r == null ? RunDriver.super.metricsSoFar() : r.metricsSoFar();
    }

    @Override
    public TuningMetrics tuningSoFar() {
        Run r = run;
        return r == null ? RunDriver.super.tuningSoFar() : r.tuningSoFar();
    }
}
