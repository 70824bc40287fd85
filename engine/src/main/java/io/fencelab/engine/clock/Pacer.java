package io.fencelab.engine.clock;

/**
 * Lets a simulated run advance in step with real time at a chosen speed (0.01x to 100x), or as fast
 * as possible. The one place outside the virtual clock where a simulated run looks at real time.
 */
public final class Pacer {

    /** Speed meaning "do not wait at all". */
    public static final double AS_FAST_AS_POSSIBLE = Double.POSITIVE_INFINITY;
    public static final double MIN_SPEED = 0.01;
    public static final double MAX_SPEED = 100;

    private volatile double speed = AS_FAST_AS_POSSIBLE;
    private long anchorRealNanos;
    private long anchorVirtualMicros;
    private boolean anchored;

    public double speed() {
        return speed;
    }

    public synchronized void setSpeed(double newSpeed) {
        if (newSpeed != AS_FAST_AS_POSSIBLE && (newSpeed < MIN_SPEED || newSpeed > MAX_SPEED)) {
            throw new IllegalArgumentException("speed must be between " + MIN_SPEED + "x and " + MAX_SPEED
                    + "x, or as fast as possible; was " + newSpeed);
        }
        speed = newSpeed;
        anchored = false;
    }

    /** Forget the anchor (after a pause or single step): pacing restarts from the next event. */
    public synchronized void reanchor() {
        anchored = false;
    }

    /** Waits until real time catches up with virtual time {@code virtualMicros} at the current speed. */
    public void awaitVirtual(long virtualMicros) throws InterruptedException {
        long sleepNanos;
        synchronized (this) {
            if (speed == AS_FAST_AS_POSSIBLE) {
                return;
            }
            if (!anchored) {
                anchorRealNanos = System.nanoTime();
                anchorVirtualMicros = virtualMicros;
                anchored = true;
                return;
            }
            long dueReal = anchorRealNanos + (long) ((virtualMicros - anchorVirtualMicros) * 1_000 / speed);
            sleepNanos = dueReal - System.nanoTime();
        }
        if (sleepNanos > 0) {
            Thread.sleep(sleepNanos / 1_000_000, (int) (sleepNanos % 1_000_000));
        }
    }
}
