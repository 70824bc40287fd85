package io.fencelab.engine.clock;

import java.time.Instant;
import java.util.Optional;

/**
 * The one clock of a run. The engine reads time only through it: a {@link VirtualClock} makes a
 * simulated run deterministic; a {@link LiveClock} is real time with the database judging expiry.
 */
public interface RunClock {

    /** The run's current time. */
    Instant now();

    /**
     * The instant at which the database must judge lease expiry, or empty to let the database use
     * its own clock ({@code statement_timestamp()}). Never a worker's local clock.
     */
    Optional<Instant> expiryJudgedAt();
}
