package io.fencelab.bench;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.IntFunction;
import org.junit.jupiter.api.Test;

class LoadTest {

    /** A loop that burns a little CPU per call and counts its calls. */
    private static IntFunction<Load.ClientLoop> counting(AtomicLong calls) {
        return client -> () -> {
            long x = 0;
            for (int i = 0; i < 2_000; i++) {
                x += i * 31L;
            }
            if (x == 42) {
                throw new AssertionError("never");
            }
            calls.incrementAndGet();
        };
    }

    @Test
    void driversTakingTurnsAreEachMeasuredOnTheirOwnOperations() {
        AtomicLong callsA = new AtomicLong();
        AtomicLong callsB = new AtomicLong();
        List<Load.Measurement> both = Load.interleaved(2, Duration.ofMillis(50), Duration.ofMillis(300),
                Duration.ofMillis(20), List.of(counting(callsA), counting(callsB)));

        assertThat(both).hasSize(2);
        for (int d = 0; d < 2; d++) {
            Load.Measurement m = both.get(d);
            assertThat(m.operations()).as("driver %d counted operations in its turns", d).isPositive();
            assertThat(m.cpuNanos()).as("driver %d's clients spent CPU", d).isPositive();
            assertThat(m.elapsedNanos()).as("driver %d's turns add up to about its measured time", d)
                    .isGreaterThanOrEqualTo(Duration.ofMillis(250).toNanos());
        }
        assertThat(both.get(0).operations()).as("only operations done in the measured turns count")
                .isLessThanOrEqualTo(callsA.get());
        assertThat(both.get(1).operations()).isLessThanOrEqualTo(callsB.get());
    }

    @Test
    void aFailingClientIsReportedWithItsCause() {
        IntFunction<Load.ClientLoop> broken = client -> {
            throw new IllegalStateException("no connection");
        };
        assertThatThrownBy(() -> Load.interleaved(1, Duration.ZERO, Duration.ofMillis(50), Duration.ofMillis(10),
                List.of(broken)))
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("a bench client failed")
                .hasMessageContaining("no connection");
    }
}
