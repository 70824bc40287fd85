package io.fencelab.app.console.ui;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import javafx.animation.AnimationTimer;

/**
 * The console's one {@link AnimationTimer}: once per frame it lets every task drain its feed into
 * its model, then lets views that changed redraw. Nothing else in the console schedules work per
 * event on the FX thread.
 */
public final class FrameLoop {

    /** Work done once per frame on the FX thread. */
    @FunctionalInterface
    public interface Task {
        void frame(long nowNanos);
    }

    private final List<Task> updates = new CopyOnWriteArrayList<>();
    private final List<Task> draws = new CopyOnWriteArrayList<>();
    private final List<Long> pulseNanos = new ArrayList<>();
    private volatile boolean recording;
    private final AnimationTimer timer = new AnimationTimer() {
        @Override
        public void handle(long now) {
            long t0 = System.nanoTime();
            for (Task t : updates) {
                t.frame(now);
            }
            for (Task t : draws) {
                t.frame(now);
            }
            if (recording) {
                synchronized (pulseNanos) {
                    pulseNanos.add(System.nanoTime() - t0);
                }
            }
        }
    };

    public void start() {
        timer.start();
    }

    public void stop() {
        timer.stop();
    }

    /** Adds a task that updates models (run before every drawing task). */
    public void addUpdate(Task task) {
        updates.add(task);
    }

    public void removeUpdate(Task task) {
        updates.remove(task);
    }

    /** Adds a task that draws (a canvas redrawing when its model changed). */
    public void addDraw(Task task) {
        draws.add(task);
    }

    public void removeDraw(Task task) {
        draws.remove(task);
    }

    /** Starts (or stops) recording how long each frame's work takes, for the benchmark. */
    public void record(boolean on) {
        recording = on;
    }

    /** The recorded frame work times in nanoseconds, and forgets them. */
    public List<Long> takePulseNanos() {
        synchronized (pulseNanos) {
            List<Long> copy = List.copyOf(pulseNanos);
            pulseNanos.clear();
            return copy;
        }
    }
}
