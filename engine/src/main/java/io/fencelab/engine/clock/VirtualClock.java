package io.fencelab.engine.clock;

import java.time.Duration;
import java.time.Instant;
import java.util.Objects;
import java.util.Optional;

/**
 * Simulated time: moves only when the scheduler advances it, and is passed to the database as the
 * instant at which lease expiry is judged. Not thread-safe: one scheduler thread owns it.
 */
public final class VirtualClock implements RunClock {

    /** Where simulated runs start, so event logs are identical from run to run. */
    public static final Instant DEFAULT_EPOCH = Instant.parse("2026-01-01T00:00:00Z");

    private final Instant start;
    private Instant now;

    public VirtualClock() {
        this(DEFAULT_EPOCH);
    }

    public VirtualClock(Instant start) {
        this.start = Objects.requireNonNull(start);
        this.now = start;
    }

    @Override
    public Instant now() {
        return now;
    }

    @Override
    public Optional<Instant> expiryJudgedAt() {
        return Optional.of(now);
    }

    public Instant start() {
        return start;
    }

    /** Time since the run started. */
    public Duration elapsed() {
        return Duration.between(start, now);
    }

    public void advance(Duration step) {
        if (step.isNegative()) {
            throw new IllegalArgumentException("virtual time never goes backwards: " + step);
        }
        now = now.plus(step);
    }

    public void advanceTo(Instant instant) {
        if (instant.isBefore(now)) {
            throw new IllegalArgumentException("virtual time never goes backwards: " + instant + " < " + now);
        }
        now = instant;
    }
}
