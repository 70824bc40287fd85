package io.fencelab.app.console.run;

import io.fencelab.app.console.feed.EventFeed;
import io.fencelab.app.console.feed.Notice;
import io.fencelab.app.console.model.RunPhase;
import io.fencelab.engine.clock.Pacer;
import io.fencelab.engine.clock.Ticker;
import io.fencelab.scenarios.StoryStep;
import java.util.List;

/**
 * What the two drivers that can be paused and stepped (a simulated run and a replayed log) share:
 * the commands from the FX thread, kept under one lock that the driver's own thread waits on, and
 * the {@link Pacer} that plays the run against real time (used on the driver's thread only; it
 * waits on the same lock, so a command ends a wait at once). Subclasses implement
 * {@link #drive()} and read the command state under {@link #lock}.
 *
 * <p>Both can follow a story ({@link #followStory}): their events pass a {@link StoryGate} on the
 * driver's thread before they reach the console, so guided mode stops exactly at a step's event
 * and a seek stops exactly at the step sought.
 */
abstract class PlayerDriver extends ThreadedDriver {

    /** Longest wait of a playing run between two looks at the clock (the playhead moves on after each). */
    private static final long SLICE_NANOS = 8_000_000;

    protected final Object lock = new Object();
    protected boolean playing;
    protected int stepsRequested;
    protected double speed = 1.0;
    protected boolean stopRequested;
    /** Bumped on every command, so a busy loop notices one with a single volatile read. */
    protected volatile int commands;
    protected volatile long nowMicros;
    /** Guided mode asked for (the gate takes it on the driver's thread at the next command). */
    protected boolean guided;
    /** A step to seek to, not yet taken by the driver's thread (-1: none). */
    protected int seekStep = -1;
    /** Where the story stops the run; the driver's thread only (set before the thread starts). */
    protected StoryGate gate = StoryGate.none();
    /** Real time for everything the driver's thread times (pacing included); a fake one in tests. */
    protected final Ticker ticker;
    protected final Pacer pacer;

    protected PlayerDriver(EventFeed feed, String threadName, Ticker ticker) {
        super(feed, threadName);
        this.ticker = ticker;
        this.pacer = new Pacer(ticker);
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
        Pacer.requireAllowed(newSpeed);
        command(() -> speed = newSpeed);
    }

    @Override
    public void stop() {
        command(() -> stopRequested = true);
    }

    @Override
    public void followStory(List<StoryStep> steps, boolean guidedFromStart) {
        gate = new StoryGate(steps);
        synchronized (lock) {
            guided = guidedFromStart;
        }
    }

    @Override
    public void setGuided(boolean on) {
        command(() -> guided = on);
    }

    @Override
    public boolean seek(int step) {
        if (step < gate.reached()) {
            return false;
        }
        command(() -> {
            seekStep = step;
            stepsRequested = 0;
            playing = true;
        });
        return true;
    }

    @Override
    public int storyReached() {
        return gate.reached();
    }

    @Override
    public long nowMicros() {
        return nowMicros;
    }

    /** What the driver's thread does next: one step, or play on at {@code speed}. */
    protected record Command(boolean step, double speed) {}

    /** Whether the console was last told the run is playing (the driver's thread only). */
    private boolean toldPlaying;

    /**
     * On the driver's thread: waits until play or a step is asked for, tells the console when the
     * run starts or stops playing, and says what to do; null once a stop is asked for (or the
     * thread is interrupted, which counts as one).
     */
    protected Command nextCommand() {
        boolean play;
        Command next;
        synchronized (lock) {
            if (toldPlaying && !playing && !stopRequested) {
                feed.notice(new Notice.Phase(RunPhase.PAUSED));
                toldPlaying = false;
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
                return null;
            }
            play = playing;
            boolean step = !play && stepsRequested > 0;
            if (step) {
                stepsRequested--;
            }
            gate.guided(guided);
            if (seekStep >= 0) {
                gate.seekTo(seekStep);
                seekStep = -1;
            }
            // A seek plays as fast as it can to its step.
            next = new Command(step, gate.seekingTo() >= 0 ? Pacer.AS_FAST_AS_POSSIBLE : speed);
        }
        if (play != toldPlaying) {
            feed.notice(new Notice.Phase(play ? RunPhase.PLAYING : RunPhase.PAUSED));
            toldPlaying = play;
        }
        return next;
    }

    /**
     * On the driver's thread, while playing: waits until the pacer says run instant
     * {@code runMicros} is due, but at most a few milliseconds (so the playhead moves smoothly),
     * and not a moment longer once a command has come since {@code seen} (an interruption counts
     * as a stop).
     */
    protected void awaitDue(long runMicros, int seen) {
        try {
            pacer.awaitDue(runMicros, SLICE_NANOS, nanos -> {
                synchronized (lock) {
                    if (commands == seen) {
                        lock.wait(nanos / 1_000_000, (int) (nanos % 1_000_000));
                    }
                }
            });
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            stop();
        }
    }

    /**
     * On the driver's thread: the story stopped the run at {@code stop} (its events up to there are
     * shown, none after): pause, as if the user had, with the playhead at the stop.
     */
    protected void stopAt(StoryGate.Stop stop) {
        nowMicros = stop.atMicros();
        command(() -> {
            playing = false;
            stepsRequested = 0;
        });
    }

    private void command(Runnable change) {
        synchronized (lock) {
            change.run();
            commands++;
            lock.notifyAll();
        }
    }
}
