package io.fencelab.bench;

import io.fencelab.app.console.ConsoleProbe;
import java.util.ArrayList;
import java.util.List;

/**
 * Times every FX pulse of a console window: the FX thread's work (from the console's frame loop,
 * the first animation timer of a pulse, to the end of CSS and layout), the interval between pulses
 * (which includes the render thread's rasterizing), and the timeline canvas's redraw when it
 * redrew. Attach on the FX thread, after the console's own frame tasks are in place.
 */
final class PulseTimer {

    /** FX-thread work per pulse, the interval between pulses, and timeline redraws, in ms. */
    record Pulses(double[] workMillis, double[] intervalMillis, double[] drawMillis) {
        double workP50() {
            return ConsoleBenchCommand.percentile(workMillis, 50);
        }

        double workP99() {
            return ConsoleBenchCommand.percentile(workMillis, 99);
        }

        double intervalP50() {
            return ConsoleBenchCommand.percentile(intervalMillis, 50);
        }

        double intervalP99() {
            return ConsoleBenchCommand.percentile(intervalMillis, 99);
        }
    }

    private final List<Long> intervals = new ArrayList<>();
    private final List<Long> work = new ArrayList<>();
    private final List<Long> draws = new ArrayList<>();
    private volatile boolean recording;
    private long pulseStart;
    private long lastPulse;
    private long lastDraw;

    PulseTimer(ConsoleProbe console) {
        console.everyFrame(now -> {
            pulseStart = System.nanoTime();
            if (recording && lastPulse != 0) {
                synchronized (this) {
                    intervals.add(now - lastPulse);
                }
            }
            lastPulse = now;
        });
        console.scene().addPostLayoutPulseListener(() -> {
            long draw = console.lastTimelineDrawNanos();
            if (recording && pulseStart != 0) {
                synchronized (this) {
                    work.add(System.nanoTime() - pulseStart);
                    // The canvas keeps its last draw's time; a new value means it redrew in this pulse.
                    if (draw != lastDraw) {
                        draws.add(draw);
                    }
                }
            }
            lastDraw = draw;
        });
    }

    /** Forgets what was recorded and records from the next pulse on. */
    synchronized void start() {
        intervals.clear();
        work.clear();
        draws.clear();
        recording = true;
    }

    void stop() {
        recording = false;
    }

    /** Pulses recorded so far. */
    synchronized int frames() {
        return work.size();
    }

    synchronized Pulses pulses() {
        return new Pulses(millis(work), millis(intervals), millis(draws));
    }

    private static double[] millis(List<Long> nanos) {
        return nanos.stream().mapToDouble(n -> n / 1e6).toArray();
    }
}
