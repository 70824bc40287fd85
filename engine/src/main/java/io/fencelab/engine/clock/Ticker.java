package io.fencelab.engine.clock;

/**
 * Real time, as a {@link Pacer} reads it: nanoseconds from an arbitrary origin, only differences
 * mean anything (as Caffeine's {@code Ticker} or HikariCP's {@code ClockSource}). Tests pass a fake
 * one they move by hand, so pacing is tested without sleeping.
 */
@FunctionalInterface
public interface Ticker {

    /** Real time now, in nanoseconds from an arbitrary origin. */
    long nanos();

    /** The machine's monotonic clock ({@link System#nanoTime()}). */
    static Ticker system() {
        return System::nanoTime;
    }
}
