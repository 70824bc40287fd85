package io.fencelab.app.console.timeline;

import io.fencelab.engine.check.Judgement;
import io.fencelab.engine.event.Event;
import io.fencelab.report.Timeline;
import io.fencelab.report.TimelineBuilder;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicReference;

/**
 * Keeps the report's {@link Timeline} model of a run's events up to date off the FX thread: a
 * {@link TimelineBuilder} reads each new batch of events once (as the checker does) and hands out
 * the timeline so far, remaking only the lanes that changed. One build runs at a time per run shown;
 * the frame loop asks for a new one when events have arrived and the last one is done, and picks
 * up the result on a later frame.
 */
public final class TimelineRebuilder {

    private static final ExecutorService BUILDERS = Executors.newSingleThreadExecutor(
            Thread.ofPlatform().daemon().name("fencelab-timeline").factory());

    /** A finished build: the timeline of the first {@code events} events of generation {@code generation}. */
    public record Built(int generation, int events, Timeline timeline, Judgement judgement, long buildNanos) {}

    private final AtomicReference<Built> done = new AtomicReference<>();
    /** Touched only on the builder thread, one request after another. */
    private final TimelineBuilder builder = new TimelineBuilder();
    /** Events handed to the builder so far (FX thread). */
    private int fed;
    private volatile boolean busy;

    /** Whether a build is running (then asking again waits for the next frame). */
    public boolean busy() {
        return busy;
    }

    /**
     * Starts bringing the timeline up to {@code events} (all of the run's so far, a list that does
     * not change, beginning with the events of every earlier request) with their {@code judgement}
     * unless a build is running.
     */
    public boolean request(int generation, List<Event> events, Judgement judgement) {
        if (busy) {
            return false;
        }
        busy = true;
        List<Event> batch = events.subList(fed, events.size());
        fed = events.size();
        BUILDERS.execute(() -> {
            try {
                long t0 = System.nanoTime();
                Timeline timeline = builder.accept(batch, judgement).timeline(judgement);
                done.set(new Built(generation, events.size(), timeline, judgement, System.nanoTime() - t0));
            } catch (RuntimeException e) {
                // A log the timeline cannot draw (a bug) must not take the console down; the table still shows it.
                org.slf4j.LoggerFactory.getLogger(TimelineRebuilder.class).warn("timeline build failed", e);
            } finally {
                busy = false;
            }
        });
        return true;
    }

    /** The latest finished build, once (null if none since the last call). */
    public Built take() {
        return done.getAndSet(null);
    }
}
