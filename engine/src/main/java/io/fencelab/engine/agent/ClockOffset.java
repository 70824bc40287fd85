package io.fencelab.engine.agent;

import java.time.Clock;
import java.time.Instant;

/**
 * How far a host's clock is from the database's, measured the way NTP does: the database's
 * {@code clock_timestamp()} is read several times and the exchange with the shortest round trip is
 * kept; the offset is the database's time minus the midpoint of the local send and receive times, and
 * the uncertainty is half that round trip (the database's reading lies somewhere inside it).
 *
 * @param offsetMicros      database time minus local time, microseconds
 * @param uncertaintyMicros the true offset lies within {@code offsetMicros ± uncertaintyMicros}
 * @param at                when it was measured (database clock)
 */
public record ClockOffset(long offsetMicros, long uncertaintyMicros, Instant at) {

    /** No measurement: zero offset, zero uncertainty (the run's own machine before it measures). */
    public static final ClockOffset NONE = new ClockOffset(0, 0, Instant.EPOCH);

    /**
     * Measures {@code local} against the database of {@code connection} with {@code samples} exchanges.
     *
     * @throws java.sql.SQLException when the database does not answer
     */
    public static ClockOffset measure(java.sql.Connection connection, Clock local, int samples)
            throws java.sql.SQLException {
        throw new UnsupportedOperationException("not yet");
    }

    /** {@code local} corrected to the database's time by this offset. */
    public Clock corrected(Clock local) {
        return Clock.offset(local, java.time.Duration.ofNanos(offsetMicros * 1_000));
    }
}
