package io.fencelab.engine.clock;

import java.math.BigDecimal;
import java.util.Locale;

/**
 * Plays a simulated run (or a saved log) against real time: the one place that maps real time to
 * run time at a speed (run seconds per real second, {@link #MIN_SPEED} to {@link #MAX_SPEED}, or
 * {@link #AS_FAST_AS_POSSIBLE}) and says how long to wait until a run instant is due.
 *
 * <p>{@link #play} anchors run time {@code from} at real time now; from then on run time moves at
 * the speed until {@link #pause}. A new speed, a pause, or a playhead moved by other means (a
 * single step, a slow database) is a new anchor: pacing goes on from there and never rushes to
 * catch up. Real time is read only through the {@link Ticker} and waited for only through a
 * {@link Waiter}, so tests drive a pacer with a fake ticker and never sleep.
 *
 * <p>Not thread-safe: one thread (a console driver's) uses it.
 */
public final class Pacer {

    /** Speed meaning "do not wait at all": every run instant is due at once. */
    public static final double AS_FAST_AS_POSSIBLE = Double.POSITIVE_INFINITY;
    /** The slowest speed: one run second takes 100 real seconds. */
    public static final double MIN_SPEED = 0.01;
    /** The fastest paced speed: 100 run seconds per real second. */
    public static final double MAX_SPEED = 100;

    /**
     * Waits for up to the given real nanoseconds; may return early (a console driver returns as
     * soon as a command arrives, so pause and speed changes take effect at once).
     */
    @FunctionalInterface
    public interface Waiter {
        void await(long nanos) throws InterruptedException;
    }

    private final Ticker ticker;
    private double speed = 1;
    private boolean playing;
    private long anchorNanos;
    private long anchorRunMicros;

    /** A paused pacer at run time 0. */
    public Pacer(Ticker ticker) {
        this.ticker = ticker;
    }

    /** Whether {@code speed} is one a run may play at: {@link #MIN_SPEED} to {@link #MAX_SPEED}, or as fast as possible. */
    public static boolean isAllowed(double speed) {
        return speed == AS_FAST_AS_POSSIBLE || speed >= MIN_SPEED && speed <= MAX_SPEED;
    }

    /**
     * Returns {@code speed} if {@link #isAllowed allowed}.
     *
     * @throws IllegalArgumentException naming the allowed speeds otherwise
     */
    public static double requireAllowed(double speed) {
        if (!isAllowed(speed)) {
            throw new IllegalArgumentException(String.format(Locale.ROOT,
                    "speed must be between %sx and %sx, or as fast as possible; was %s",
                    plain(MIN_SPEED), plain(MAX_SPEED), plain(speed)));
        }
        return speed;
    }

    private static String plain(double value) {
        return Double.isFinite(value) ? BigDecimal.valueOf(value).stripTrailingZeros().toPlainString()
                : String.valueOf(value);
    }

    /**
     * Plays on from run time {@code fromRunMicros}, which is where the run stands now, at
     * {@code speed}: the anchor every later answer is measured from.
     *
     * @throws IllegalArgumentException for a speed that is not {@link #isAllowed allowed}
     */
    public void play(long fromRunMicros, double speed) {
        this.speed = requireAllowed(speed);
        anchorRunMicros = fromRunMicros;
        anchorNanos = ticker.nanos();
        playing = true;
    }

    /** Stops run time where real time has brought it; nothing is due until the next {@link #play}. */
    public void pause() {
        if (playing && speed != AS_FAST_AS_POSSIBLE) {
            anchorRunMicros = runMicros();
        }
        playing = false;
    }

    public boolean isPlaying() {
        return playing;
    }

    public double speed() {
        return speed;
    }

    /**
     * The run time real time has reached: the anchor plus the real time since, at the speed. While
     * paused, where it stopped; as fast as possible, {@link Long#MAX_VALUE} (everything is due).
     */
    public long runMicros() {
        if (!playing) {
            return anchorRunMicros;
        }
        if (speed == AS_FAST_AS_POSSIBLE) {
            return Long.MAX_VALUE;
        }
        return anchorRunMicros + (long) Math.floor((ticker.nanos() - anchorNanos) / 1_000.0 * speed);
    }

    /**
     * Real nanoseconds until run instant {@code runMicros} is due: 0 once it is (always, as fast as
     * possible), {@link Long#MAX_VALUE} while paused.
     */
    public long nanosUntil(long runMicros) {
        if (!playing) {
            return Long.MAX_VALUE;
        }
        if (speed == AS_FAST_AS_POSSIBLE || runMicros <= anchorRunMicros) {
            return 0;
        }
        double dueNanos = anchorNanos + Math.ceil((runMicros - anchorRunMicros) * 1_000.0 / speed);
        return Math.max(0, (long) Math.min(Long.MAX_VALUE, dueNanos - ticker.nanos()));
    }

    /** Whether run instant {@code runMicros} is due: real time has reached it at the speed. */
    public boolean isDue(long runMicros) {
        return nanosUntil(runMicros) == 0;
    }

    /**
     * Waits through {@code waiter} until {@code runMicros} is due, but at most {@code maxNanos} (so
     * the caller can move its playhead and look at its commands in between); returns at once if it
     * is already due. The waiter may return early; the caller asks {@link #isDue} again.
     */
    public void awaitDue(long runMicros, long maxNanos, Waiter waiter) throws InterruptedException {
        long wait = Math.min(maxNanos, nanosUntil(runMicros));
        if (wait > 0) {
            waiter.await(wait);
        }
    }
}
