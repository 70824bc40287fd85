package io.fencelab.app.console.run;

import io.fencelab.app.console.feed.EventFeed;
import io.fencelab.app.console.feed.Notice;
import io.fencelab.app.console.model.Capabilities;
import io.fencelab.app.console.model.RunInfo;
import io.fencelab.app.console.model.RunPhase;
import io.fencelab.app.console.ui.Problems;
import io.fencelab.engine.chaos.FaultKind;
import io.fencelab.engine.check.Judgement;
import io.fencelab.engine.check.Verdict;
import io.fencelab.engine.db.Database;
import io.fencelab.engine.event.Event;
import io.fencelab.engine.metrics.MetricsSnapshot;
import io.fencelab.engine.metrics.TuningMetrics;
import io.fencelab.engine.run.ByHand;
import io.fencelab.engine.run.Run;
import io.fencelab.engine.run.RunResult;
import io.fencelab.engine.run.RunSpec;
import io.fencelab.scenarios.StoryStep;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.function.Consumer;

/**
 * Drives a live run: real threads, real time. It is prepared on the driver's thread
 * ({@code fencelab-live}) and starts when the user presses play; from then on its workers cannot be
 * paused or stepped (real workers do not wait), only stopped, given faults by hand and changed:
 * both apply to the running run from that moment on. The run's asynchronous bus delivers events to
 * the console from its dispatcher thread.
 *
 * <p>A live run that tells a story shows its events on a clock of its own, the <em>shown</em> clock:
 * run time less the time the console has held. Its events pass a {@link StoryGate} on a thread of
 * their own ({@code fencelab-live-story}) as that clock reaches them, so guided mode holds exactly
 * at a step's event: the shown clock stops there (pause too stops it), the run goes on recording
 * underneath, and Continue starts the shown clock again from the stop, so what came meanwhile is
 * shown at its own pace, not all at once. While events are held, the verdict, metrics and
 * judgement shown are those of the events shown, so nothing gives an answer away early.
 */
public final class LiveDriver extends ThreadedDriver {

    private static final org.slf4j.Logger LOG = org.slf4j.LoggerFactory.getLogger(LiveDriver.class);
    /** Longest wait of the story thread between two looks at the shown clock. */
    private static final long SLICE_MILLIS = 5;

    private final Database db;
    private final RunSpec spec;
    private final Path eventLog;
    private final CountDownLatch go = new CountDownLatch(1);
    private volatile boolean stopRequested;
    private volatile long startNanos;
    private volatile long endMicros = -1;

    /** The figures as of a batch's last event, taken as the bus hands the console that batch. */
    private record SoFar(Verdict verdict, MetricsSnapshot metrics, TuningMetrics tuning, Judgement judgement) {}

    /** A batch of the run's events not shown yet, with the figures as of its last event. */
    private static final class Held {
        List<Event> events;
        final SoFar after;

        Held(List<Event> events, SoFar after) {
            this.events = events;
            this.after = after;
        }
    }

    /** Guards the story's state below; the story thread waits on it. */
    private final Object lock = new Object();
    private StoryGate gate = StoryGate.none();
    private boolean storied;
    private volatile boolean guided;
    private final ArrayDeque<Held> held = new ArrayDeque<>();
    /** What the console is shown while events are held (null: the run's own figures). */
    private volatile SoFar shown;
    private SoFar lastShown;
    /** Whether the shown clock is stopped, at which run time, and the run time held so far in all. */
    private boolean holding;
    private long holdAtMicros;
    private long heldMicros;
    private boolean runOver;
    private Thread storyThread;

    public LiveDriver(Database db, RunSpec spec, Path eventLog, EventFeed feed) {
        super(feed, "fencelab-live");
        this.db = db;
        this.spec = spec;
        this.eventLog = eventLog;
    }
    /** Starts the run; at a hold, starts the shown clock again from where it stopped. */
    @Override
    public void play() {
        synchronized (lock) {
            if (holding) {
                heldMicros = Math.max(0, realMicros() - holdAtMicros);
                holding = false;
                feed.notice(new Notice.Phase(RunPhase.PLAYING));
                lock.notifyAll();
            }
        }
        go.countDown();
    }

    /** Real workers do not wait; a run that tells a story stops its shown clock instead. */
    @Override
    public void pause() {
        synchronized (lock) {
            if (storied && startNanos != 0 && !holding && endMicros < 0) {
                hold(shownNowLocked());
            }
        }
    }

    @Override
    public void followStory(List<StoryStep> steps, boolean guidedFromStart) {
        synchronized (lock) {
            gate = new StoryGate(steps);
            storied = !steps.isEmpty();
            guided = guidedFromStart;
        }
    }

    @Override
    public void setGuided(boolean on) {
        synchronized (lock) {
            guided = on;
            lock.notifyAll();
        }
    }

    @Override
    public int storyReached() {
        return gate.reached();
    }

    @Override
    protected Consumer<List<Event>> sink() {
        if (!storied) {
            return feed;
        }
        return batch -> {
            // The console's subscriber comes after the checker and the metrics: they have seen this batch.
            Run r = run;
            SoFar after = guided && r != null ? new SoFar(r.verdictSoFar(), r.metricsSoFar(), r.tuningSoFar(),
                    r.judgementSoFar()) : null;
            if (batch.isEmpty()) {
                return;
            }
            synchronized (lock) {
                held.add(new Held(new ArrayList<>(batch), after));
                lock.notifyAll();
            }
        };
    }

    @Override
    public Verdict verdictSoFar() {
        SoFar s = shown;
        return s != null ? s.verdict() : super.verdictSoFar();
    }

    @Override
    public MetricsSnapshot metricsSoFar() {
        SoFar s = shown;
        return s != null ? s.metrics() : super.metricsSoFar();
    }

    @Override
    public TuningMetrics tuningSoFar() {
        SoFar s = shown;
        return s != null ? s.tuning() : super.tuningSoFar();
    }

    @Override
    public Judgement judgementSoFar() {
        SoFar s = shown;
        return s != null ? s.judgement() : super.judgementSoFar();
    }

    /** Run time now by the real clock (0 before the start), not capped at the run's end: the shown clock runs on. */
    private long realMicros() {
        long start = startNanos;
        return start == 0 ? 0 : (long) ((System.nanoTime() - start) / 1_000.0 / spec.timeScale());
    }

    private long durationMicros() {
        return spec.duration().toNanos() / 1_000;
    }

    /** The shown clock: run time less the time held, stopped while holding (under the lock). */
    private long shownNowLocked() {
        return holding ? holdAtMicros : Math.max(0, realMicros() - heldMicros);
    }

    private void hold(long atMicros) {
        holding = true;
        holdAtMicros = atMicros;
        feed.notice(new Notice.Phase(RunPhase.PAUSED));
    }

    /**
     * The story thread: hands the held events to the console as the shown clock reaches them, up to
     * the next story stop, and holds there until Continue. Ends once the run is over and all is shown.
     */
    private void tellStory() {
        while (true) {
            List<Event> due;
            Held first;
            synchronized (lock) {
                while (true) {
                    first = held.peek();
                    if (first == null && runOver) {
                        return;
                    }
                    if (first != null && (stopRequested
                            || !holding && first.events.getFirst().atMicros() <= shownNowLocked())) {
                        break;
                    }
                    try {
                        lock.wait(SLICE_MILLIS);
                    } catch (InterruptedException e) {
                        Thread.currentThread().interrupt();
                        return;
                    }
                }
                if (stopRequested) {
                    // A stopped run shows everything it recorded, its end included, at once: the
                    // story is over, and its events must all reach the screen and the event table.
                    List<Event> rest = new ArrayList<>();
                    for (Held h; (h = held.poll()) != null; ) {
                        rest.addAll(h.events);
                    }
                    holding = false;
                    shown = null;
                    lastShown = null;
                    feed.accept(rest);
                    continue;
                }
                first = held.peek();
                long now = shownNowLocked();
                int n = 0;
                while (n < first.events.size() && first.events.get(n).atMicros() <= now) {
                    n++;
                }
                due = first.events.subList(0, n);
                gate.guided(guided);
            }
            int cut = gate.cut(due);
            synchronized (lock) {
                if (cut > 0) {
                    List<Event> out = List.copyOf(first.events.subList(0, cut));
                    first.events = new ArrayList<>(first.events.subList(cut, first.events.size()));
                    feed.accept(out);
                }
                if (first.events.isEmpty()) {
                    held.poll();
                    lastShown = first.after;
                }
                // Until a batch is shown whole, the figures before it stand (none taken: not guided, the run's own).
                shown = lastShown;
                StoryGate.Stop stop = gate.takeStop();
                if (stop != null) {
                    hold(stop.atMicros());
                }
            }
        }
    }


    @Override
    public void stop() {
        stopRequested = true;
        synchronized (lock) {
            lock.notifyAll();
        }
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

    private ByHand executor() {
        Run r = run;
        if (r == null || startNanos == 0) {
            throw new IllegalStateException("the live run has not started");
        }
        return r.byHand().orElseThrow();
    }

    @Override
    public long nowMicros() {
        if (endMicros >= 0) {
            return endMicros;
        }
        if (!storied) {
            return Math.min(realMicros(), durationMicros());
        }
        synchronized (lock) {
            return Math.min(shownNowLocked(), durationMicros());
        }
    }

    @Override
    protected void drive() {
        Run prepared = prepare(db, spec, eventLog, "the live run");
        if (prepared == null) {
            return;
        }
        try (Run r = prepared) {
            feed.notice(new Notice.Prepared(RunInfo.of(spec, r.store())));
            feed.notice(new Notice.Phase(RunPhase.PAUSED));
            go.await();
            if (stopRequested) {
                return;
            }
            feed.notice(new Notice.Phase(RunPhase.PLAYING));
            if (spec.executor() == io.fencelab.engine.run.ExecutorKind.PROCESS) {
                // Its agents start first (seconds): the clock starts with the run's time zero, at RunStarted.
                r.bus().subscribe("fencelab-process-clock", batch -> {
                    if (startNanos == 0 && batch.stream().anyMatch(e -> e instanceof Event.RunStarted)) {
                        startNanos = System.nanoTime();
                    }
                });
            } else {
                startNanos = System.nanoTime();
            }
            if (storied) {
                storyThread = Thread.ofPlatform().daemon().name("fencelab-live-story").start(this::tellStory);
            }
            if (stopRequested) {
                r.stop();
            }
            RunResult result = r.runToEnd();
            if (storyThread != null) {
                // The end is told once everything before it has been shown (after any hold).
                synchronized (lock) {
                    runOver = true;
                    lock.notifyAll();
                }
                storyThread.join();
                shown = null;
            }
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
