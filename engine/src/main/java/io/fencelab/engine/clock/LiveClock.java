package io.fencelab.engine.clock;

import java.time.Clock;
import java.time.Instant;
import java.util.Optional;

/** Real time for live runs. Lease expiry is judged by the database's clock, not this one. */
public final class LiveClock implements RunClock {

    private final Clock system;

    public LiveClock() {
        this(Clock.systemUTC());
    }

    public LiveClock(Clock system) {
        this.system = system;
    }

    @Override
    public Instant now() {
        return system.instant();
    }

    @Override
    public Optional<Instant> expiryJudgedAt() {
        return Optional.empty();
    }
}
