package io.fencelab.engine.event;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class EventLogDurabilityTest {

    private static final Event EVENT = new Event.RunEnded(1, 0, Event.RunEnded.Reason.COMPLETED);

    @TempDir
    Path dir;

    /** Real time moved by hand. */
    private final AtomicLong nanos = new AtomicLong();

    @Test
    void aDurableLogIsForcedEveryIntervalOfRealTimeAndAtClose() throws IOException {
        EventLog log = EventLog.createDurable(dir.resolve("events.jsonl"), Duration.ofSeconds(1), nanos::get);

        log.append(List.of(EVENT));
        nanos.addAndGet(500_000_000);
        log.append(List.of(EVENT));
        assertThat(log.forces()).as("no force before a second has passed").isZero();

        nanos.addAndGet(500_000_000);
        log.append(List.of(EVENT));
        assertThat(log.forces()).as("forced after the batch that came a second after the start").isEqualTo(1);

        nanos.addAndGet(900_000_000);
        log.append(List.of(EVENT));
        assertThat(log.forces()).as("the interval counts from the last force").isEqualTo(1);

        log.close();
        assertThat(log.forces()).as("forced once more at close").isEqualTo(2);
        assertThat(EventLogReader.read(log.file())).hasSize(4);
    }

    @Test
    void aZeroIntervalForcesAfterEveryBatch() throws IOException {
        try (EventLog log = EventLog.createDurable(dir.resolve("events.jsonl"), Duration.ZERO, nanos::get)) {
            log.append(List.of(EVENT));
            log.append(List.of(EVENT, EVENT));
            assertThat(log.forces()).isEqualTo(2);
        }
    }

    @Test
    void theDefaultLogIsNeverForced() throws IOException {
        EventLog log = EventLog.create(dir.resolve("events.jsonl"));
        log.append(List.of(EVENT));
        log.close();
        assertThat(log.forces()).as("no fsync on the default path").isZero();
    }
}
