package io.fencelab.engine.metrics;

import static org.assertj.core.api.Assertions.assertThat;

import io.fencelab.engine.event.Event;
import io.fencelab.testing.RandomLog;
import java.util.List;
import java.util.SplittableRandom;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;

/** However a log is cut into batches, and however often a chart asks, the metrics equal the offline ones. */
class OnlineMetricsProperties {

    @Property(tries = 200)
    void onlineInRandomBatchesEqualsOffline(@ForAll long seed, @ForAll @IntRange(min = 0, max = 300) int length) {
        List<Event> log = RandomLog.generate(seed, length);
        SplittableRandom random = new SplittableRandom(seed ^ 0x9E3779B97F4A7C15L);

        MetricsCollector online = new MetricsCollector();
        for (List<Event> batch : RandomLog.batches(log, random)) {
            online.accept(batch);
            if (random.nextBoolean()) {
                online.snapshot();   // as a live chart would, between batches
            }
        }

        assertThat(online.snapshot()).as("online snapshot after random batches, seed %d", seed)
                .isEqualTo(MetricsCollector.summarize(log));
    }
}
