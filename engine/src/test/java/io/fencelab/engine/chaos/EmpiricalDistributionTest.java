package io.fencelab.engine.chaos;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.util.List;
import java.util.SplittableRandom;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;

/** Drawing from a real process's pauses. */
class EmpiricalDistributionTest {

    private static final List<Duration> PAUSES = List.of(Duration.ofMillis(30), Duration.ofMillis(2),
            Duration.ofMillis(5), Duration.ofMillis(400), Duration.ofMillis(5));
    private static final Distribution.Empirical EMPIRICAL = new Distribution.Empirical("g1.log", PAUSES,
            Duration.ofSeconds(10));

    private static List<Duration> draw(long seed, int n) {
        SplittableRandom random = new SplittableRandom(seed);
        return IntStream.range(0, n).mapToObj(i -> EMPIRICAL.sample(random)).toList();
    }

    @Test
    void everyDrawIsOneOfTheSamples() {
        assertThat(draw(7, 1_000)).allMatch(PAUSES::contains, "is one of the log's pauses")
                .as("with 1,000 draws from 4 distinct values, every one shows up").containsAll(PAUSES);
    }

    @Test
    void theSameSeedDrawsTheSameDurations() {
        assertThat(draw(42, 200)).isEqualTo(draw(42, 200));
        assertThat(draw(42, 200)).as("another seed, another sequence").isNotEqualTo(draw(43, 200));
    }

    @Test
    void summariesComeFromTheSortedSamples() {
        assertThat(EMPIRICAL.samples()).isSorted();
        assertThat(EMPIRICAL.mean()).isEqualTo(Duration.ofNanos(88_400_000));
        assertThat(EMPIRICAL.quantile(0.5)).isEqualTo(Duration.ofMillis(5));
        assertThat(EMPIRICAL.quantile(0.99)).isEqualTo(Duration.ofMillis(400));
        assertThat(EMPIRICAL.max()).isEqualTo(Duration.ofMillis(400));
        assertThat(EMPIRICAL.meanGap()).as("(10s - 442ms) / 5").contains(Duration.ofNanos(1_911_600_000L));
        assertThat(EMPIRICAL.describe()).isEqualTo("empirical g1.log (5 samples, median 5ms, max 400ms)");
    }

    @Test
    void anEmptySampleIsRefused() {
        assertThatThrownBy(() -> new Distribution.Empirical("x", List.of(), null))
                .isInstanceOf(IllegalArgumentException.class);
    }
}
