package io.fencelab.engine.agent;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.fencelab.engine.db.Database;
import io.fencelab.testing.EmbeddedDatabase;
import java.sql.Connection;
import java.time.Clock;
import java.time.Duration;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.junit.jupiter.api.Test;

/** A host's clock measured against the embedded PostgreSQL's, with clocks set wrong on purpose. */
@ExtendWith(EmbeddedDatabase.class)
class ClockOffsetTest {

    /** The embedded server shares this machine's clock, so the true offset is minus the skew we add. */
    @ParameterizedTest
    @ValueSource(longs = {-7_000, 0, 5_000})
    void aSkewedClockIsMeasuredWithinItsUncertainty(long skewMillis, Database db) throws Exception {
        Clock skewed = Clock.offset(Clock.systemUTC(), Duration.ofMillis(skewMillis));
        ClockOffset measured;
        try (Connection c = db.dataSource().getConnection()) {
            measured = ClockOffset.measure(c, skewed, 8);
        }
        long expected = -skewMillis * 1_000;
        long slackMicros = 3_000; // the two clocks read at different instants inside one exchange
        assertThat(Math.abs(measured.offsetMicros() - expected))
                .as("offset %d µs, expected %d µs ± %d µs", measured.offsetMicros(), expected, measured.uncertaintyMicros())
                .isLessThanOrEqualTo(measured.uncertaintyMicros() + slackMicros);
        assertThat(measured.uncertaintyMicros()).as("small on a local server").isBetween(1L, 20_000L);
        assertThat(measured.corrected(skewed).millis())
                .as("the corrected clock reads the database's time")
                .isCloseTo(AgentTablesTest.dbNow(db).toEpochMilli(), org.assertj.core.data.Offset.offset(50L));
    }

    @Test
    void aMeasurementNeedsAtLeastOneExchange(Database db) throws Exception {
        try (Connection c = db.dataSource().getConnection()) {
            assertThatThrownBy(() -> ClockOffset.measure(c, Clock.systemUTC(), 0))
                    .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("at least one");
        }
    }
}
