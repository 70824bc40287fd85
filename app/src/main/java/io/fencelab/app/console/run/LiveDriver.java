package io.fencelab.app.console.run;

import io.fencelab.app.console.feed.EventFeed;
import io.fencelab.app.console.feed.Notice;
import io.fencelab.app.console.model.RunInfo;
import io.fencelab.app.console.model.RunPhase;
import io.fencelab.engine.chaos.FaultKind;
import io.fencelab.engine.db.Database;
import io.fencelab.engine.run.LiveExecutor;
import io.fencelab.engine.run.Run;
import io.fencelab.engine.run.RunResult;
import io.fencelab.engine.run.RunSpec;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.CountDownLatch;

/**
 * Drives a live run: real threads, real time. It is prepared on the driver's thread
 * ({@code fencelab-live}) and starts when the user presses play; from then on it cannot be paused
 * or stepped (real workers do not wait), only stopped, given faults by hand and changed: both apply
 * to the running run from that moment on. The run's asynchronous bus delivers events to the
 * console from its dispatcher thread.
 */
public final class LiveDriver extends ThreadedDriver {

    private static final org.slf4j.Logger LOG = org.slf4j.LoggerFactory.getLogger(LiveDriver.class);

    private final Database db;
    private final RunSpec spec;
    private final Path eventLog;
    private final CountDownLatch go = new CountDownLatch(1);
    private volatile boolean stopRequested;
    private volatile long startNanos;
    private volatile long endMicros = -1;

    public LiveDriver(Database db, RunSpec spec, Path eventLog, EventFeed feed) {
        super(feed, "fencelab-live");
        this.db = db;
        this.spec = spec;
        this.eventLog = eventLog;
    }

    @Override
    public void play() {
        go.countDown();
    }

    @Override
    public void pause() {
        // real workers do not wait
    }

    @Override
    public void step() {
        // nor step
    }

    @Override
    public void setSpeed(double speed) {
        // a live run's pace is its time scale, fixed when it starts
    }

    @Override
    public void stop() {
        stopRequested = true;
        Run r = run;
        if (r != null && startNanos != 0) {
            r.stop();
        }
        go.countDown();
    }

    @Override
    public Capabilities capabilities() {
        return new Capabilities(false, true, true);
    }

    @Override
    public boolean underway() {
        return startNanos != 0 && endMicros < 0 && !stopRequested;
    }

    /** Cheap: the executor registers the fault and schedules it on its own timer. */
    @Override
    public void injectFault(FaultKind kind, String holder, Duration length, Duration amount) {
        executor().inject(kind, holder, length, amount);
    }

    /** Cheap: the executor swaps its settings and publishes the changes on the run's bus. */
    @Override
    public void change(RunSpec next) {
        executor().change(next);
    }

    private LiveExecutor executor() {
        Run r = run;
        if (r == null || startNanos == 0) {
            throw new IllegalStateException("the live run has not started");
        }
        return r.liveExecutor().orElseThrow();
    }

    @Override
    public long nowMicros() {
        if (endMicros >= 0) {
            return endMicros;
        }
        long start = startNanos;
        if (start == 0) {
            return 0;
        }
        long micros = (long) ((System.nanoTime() - start) / 1_000.0 / spec.timeScale());
        return Math.min(micros, spec.duration().toNanos() / 1_000);
    }

    @Override
    protected void drive() {
        Run prepared = prepare(db, spec, eventLog, "the live run");
        if (prepared == null) {
            return;
        }
        try (Run r = prepared) {
            feed.notice(new Notice.Prepared(RunInfo.of(spec)));
            feed.notice(new Notice.Phase(RunPhase.PAUSED));
            go.await();
            if (stopRequested) {
                return;
            }
            feed.notice(new Notice.Phase(RunPhase.PLAYING));
            startNanos = System.nanoTime();
            if (stopRequested) {
                r.stop();
            }
            RunResult result = r.runToEnd();
            endMicros = Math.max(0, nowMicros());
            feed.notice(new Notice.Finished(result));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } catch (RuntimeException e) {
            LOG.warn("live run stopped on an error", e);
            feed.notice(new Notice.Failed(Problems.describe("the live run stopped on an error", e), null));
        }
    }
}
