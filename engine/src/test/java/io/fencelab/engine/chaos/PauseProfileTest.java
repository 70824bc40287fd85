package io.fencelab.engine.chaos;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import io.fencelab.engine.chaos.pauses.PauseLog;
import io.fencelab.engine.chaos.pauses.PauseSample;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The pause profile: what pauses a run's holders get, in the figures an operator tunes a lease by. */
class PauseProfileTest {

    private static final List<String> REPLICAS = List.of("replica-1", "replica-2", "replica-3");
    private static final Duration TEN_MINUTES = Duration.ofMinutes(10);

    /** 200 pauses of 1 ms, 2 ms, … 200 ms, one starting every second: a span of 199 s. */
    private static PauseSample knownFile(Path dir) throws IOException {
        StringBuilder csv = new StringBuilder("time,duration\n");
        for (int i = 0; i < 200; i++) {
            csv.append(i).append("s,").append(i + 1).append("ms\n");
        }
        Path file = dir.resolve("pauses.csv");
        Files.writeString(file, csv);
        return PauseLog.read(file, "pauses.csv");
    }

    /** A PAUSE fault on every holder drawing lengths from the file, at the file's own rate (empiricalRate). */
    private static FaultSpec fromFile(PauseSample sample) {
        Distribution.Empirical lengths = sample.distribution();
        return new FaultSpec(FaultKind.PAUSE, FaultSpec.ALL,
                new FaultStart.Every(new Distribution.Exponential(lengths.meanGap().orElseThrow())), lengths,
                Duration.ZERO);
    }

    @Test
    void aFilesMedianP99AndMaxAreByNearestRank(@TempDir Path dir) throws IOException {
        PauseProfile.Pauses pauses = PauseProfile.of(List.of(fromFile(knownFile(dir))), REPLICAS, TEN_MINUTES)
                .groups().getFirst().pauses().getFirst();

        assertThat(pauses.source()).as("the file as the scenario named it").isEqualTo("pauses.csv");
        assertThat(pauses.samples()).isEqualTo(200);
        assertThat(pauses.median()).as("the 100th of 200 sorted pauses").isEqualTo(Duration.ofMillis(100));
        assertThat(pauses.p99()).as("the 198th of 200: ceil(0.99 × 200)").isEqualTo(Duration.ofMillis(198));
        assertThat(pauses.max()).isEqualTo(Duration.ofMillis(200));
    }

    @Test
    void pausesAtTheFilesOwnRateComeAsOftenAsInTheFile(@TempDir Path dir) throws IOException {
        PauseProfile.Pauses pauses = PauseProfile.of(List.of(fromFile(knownFile(dir))), REPLICAS, TEN_MINUTES)
                .groups().getFirst().pauses().getFirst();

        assertThat(pauses.perHour()).as("200 pauses in 199 s, per hour, for each holder")
                .isCloseTo(200 / 199.0 * 3600, within(0.5));
    }

    @Test
    void holdersWithTheSamePausesShareOneLineNamingThem(@TempDir Path dir) throws IOException {
        PauseProfile profile = PauseProfile.of(List.of(fromFile(knownFile(dir))), REPLICAS, TEN_MINUTES);

        assertThat(profile.lines()).containsExactly("replica-1, replica-2, replica-3: pauses.csv: 200 samples, median 100 ms, "
                + "p99 198 ms, max 200 ms; 60 a minute per holder");
    }

    @Test
    void holdersWithDifferentPausesGetALineEach() {
        FaultSpec everyone = new FaultSpec(FaultKind.PAUSE, FaultSpec.ALL,
                new FaultStart.Every(new Distribution.Exponential(Duration.ofSeconds(30))),
                new Distribution.Pareto(Duration.ofMillis(200), 1, Duration.ofSeconds(5)), Duration.ZERO);
        FaultSpec fullGc = FaultSpec.pause("jvm-1", Duration.ofSeconds(121), Duration.ofSeconds(45));

        PauseProfile profile = PauseProfile.of(List.of(everyone, fullGc), List.of("jvm-1", "jvm-2", "jvm-3"),
                TEN_MINUTES);

        assertThat(profile.lines()).as("jvm-1 also has the full GC; the others only the pareto pauses").containsExactly(
                "jvm-1: pareto from 200ms (shape 1.0, cap 5s): median 400 ms, p99 5 s, max 5 s; 1.9 a minute per holder; "
                        + "and a 45s pause at 121s",
                "jvm-2, jvm-3: pareto from 200ms (shape 1.0, cap 5s): median 400 ms, p99 5 s, max 5 s; "
                        + "1.9 a minute per holder");
    }

    @Test
    void exponentialLengthsHaveNoLongest() {
        FaultSpec exponential = new FaultSpec(FaultKind.PAUSE, "A",
                new FaultStart.Every(new Distribution.Exponential(Duration.ofSeconds(59))),
                new Distribution.Exponential(Duration.ofSeconds(1)), Duration.ZERO);

        PauseProfile profile = PauseProfile.of(List.of(exponential), List.of("A"), TEN_MINUTES);

        assertThat(profile.lines()).as("median ln 2 s, p99 ln 100 s; one pause a minute")
                .containsExactly("A: ~1s exponential: median 693.147 ms, p99 4.605 s, max unbounded; 1 a minute per holder");
    }

    @Test
    void aRunWithoutPausesSaysSo() {
        FaultSpec crash = FaultSpec.crash("A", Duration.ofSeconds(5), Duration.ZERO, FaultSpec.Identity.SAME);

        PauseProfile profile = PauseProfile.of(List.of(crash), List.of("A", "B"), TEN_MINUTES);

        assertThat(profile.none()).isTrue();
        assertThat(profile.lines()).containsExactly("no pauses");
    }

    @Test
    void aPauseDueAfterTheRunEndsIsLeftOut() {
        FaultSpec late = FaultSpec.pause("A", Duration.ofMinutes(11), Duration.ofSeconds(35));

        assertThat(PauseProfile.of(List.of(late), List.of("A"), TEN_MINUTES).lines()).containsExactly("no pauses");
    }

    @Test
    void aHolderWithoutPausesBesideOneWithThemIsNamed() {
        FaultSpec story = FaultSpec.pause("A", Duration.ofSeconds(10), Duration.ofSeconds(35));

        assertThat(PauseProfile.of(List.of(story), List.of("A", "B"), TEN_MINUTES).lines())
                .containsExactly("A: a 35s pause at 10s", "B: no pauses");
    }

    @Test
    void manyHoldersAreCountedRatherThanListed() {
        List<String> workers = java.util.stream.IntStream.rangeClosed(1, 9).mapToObj(i -> "w" + i).toList();
        FaultSpec everyone = new FaultSpec(FaultKind.PAUSE, FaultSpec.ALL,
                new FaultStart.Every(new Distribution.Exponential(Duration.ofSeconds(9))),
                new Distribution.Fixed(Duration.ofSeconds(1)), Duration.ZERO);
        FaultSpec first = FaultSpec.pause("w1", Duration.ofSeconds(5), Duration.ofSeconds(20));

        assertThat(PauseProfile.of(List.of(everyone), workers, TEN_MINUTES).lines())
                .containsExactly("all 9 workers: 1s pauses; 6 a minute per holder");
        assertThat(PauseProfile.of(List.of(everyone, first), workers, TEN_MINUTES).lines().get(1))
                .startsWith("w2, w3, w4, w5, w6, w7 and 2 more: ");
    }
}
