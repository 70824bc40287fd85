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
        if (samples < 1) {
            throw new IllegalArgumentException("a clock measurement takes at least one exchange, asked " + samples);
        }
        long bestRound = Long.MAX_VALUE;
        long bestDb = 0;
        long bestMid = 0;
        try (java.sql.PreparedStatement query = connection.prepareStatement("SELECT clock_timestamp()")) {
            for (int i = 0; i < samples; i++) {
                long t0 = micros(local.instant());
                long db;
                try (java.sql.ResultSet rs = query.executeQuery()) {
                    rs.next();
                    db = micros(rs.getObject(1, java.time.OffsetDateTime.class).toInstant());
                }
                long t1 = micros(local.instant());
                // The shortest exchange bounds the database's reading most tightly (the first one also
                // pays for planning the statement, and is rarely kept).
                if (t1 - t0 < bestRound) {
                    bestRound = t1 - t0;
                    bestDb = db;
                    bestMid = t0 + (t1 - t0) / 2;
                }
            }
        }
        // + 1 µs: the database reads its clock to the microsecond.
        return new ClockOffset(bestDb - bestMid, (bestRound + 1) / 2 + 1,
                Instant.ofEpochSecond(0, bestDb * 1_000));
    }

    private static long micros(Instant t) {
        return Math.addExact(Math.multiplyExact(t.getEpochSecond(), 1_000_000L), t.getNano() / 1_000);
    }

    /** {@code local} corrected to the database's time by this offset. */
    public Clock corrected(Clock local) {
        return Clock.offset(local, java.time.Duration.ofNanos(offsetMicros * 1_000));
    }
}
