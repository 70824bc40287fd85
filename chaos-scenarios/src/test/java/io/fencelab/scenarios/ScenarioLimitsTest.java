package io.fencelab.scenarios;

import static io.fencelab.scenarios.ScenarioValidationTest.MINIMAL;
import static io.fencelab.scenarios.ScenarioValidationTest.problems;
import static org.assertj.core.api.Assertions.assertThat;

import io.fencelab.engine.fence.FencingMode;
import io.fencelab.engine.run.EventEstimate;
import io.fencelab.engine.run.RunSpec;
import io.fencelab.engine.run.Workloads;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Resource limits at compile time (docs/SCENARIOS.md, Limits): a scenario that would flood memory
 * and disk is refused by {@code validate}, at the line that makes it so, before it runs.
 */
class ScenarioLimitsTest {

    static Stream<String> catalog() {
        return Catalog.shipped().names().stream();
    }

    @Test
    void aFaultEveryMicrosecondIsRefusedAtItsEvery() {
        // Before: validated, then an OutOfMemoryError after 96 s and an empty log.
        assertThat(problems(MINIMAL + "faults:\n  - {kind: PAUSE, target: A, every: {fixed: 0.000001s}}\n"))
                .as("a gap far below the engine's smallest is refused where it is written")
                .containsExactly("t.yaml:15:37: faults[0].every: the gaps average 0.000001s, below the smallest a "
                        + "repeating fault may have, 1ms on average (for one occurrence write at: instead)");
    }

    @Test
    void aGapBelowAMillisecondOnAverageIsRefusedWhateverItsDistribution() {
        assertThat(problems(MINIMAL + "faults:\n  - {kind: REQUEST_DELAY, target: A, amount: 1ms, "
                + "every: {uniform: [0s, 1ms]}}\n"))
                .as("a uniform gap averaging 0.5ms is below the floor")
                .singleElement().asString().contains("faults[0].every: the gaps average 0.0005s");
    }

    @Test
    void aGapOfOneMillisecondOnAverageIsAllowed() {
        Scenario s = ScenarioLoader.load("t.yaml", MINIMAL.replace("duration: 60s", "duration: 10s")
                + "faults:\n  - {kind: PAUSE, target: A, every: {exponential: 1ms}}\n");

        assertThat(s.spec().faults()).as("the floor itself is allowed").hasSize(1);
    }

    @Test
    void fiftyWorkersWithAFaultEveryMillisecondForTenMinutesAreRefusedWithTheEstimate() {
        // Before: validated, then nothing in 120 s of a run.
        String yaml = MINIMAL.replace("duration: 60s", "duration: 10m").replace("  - name: A\n",
                "  - name: A\n    count: 50\n") + "faults:\n  - {kind: REQUEST_DELAY, target: all, amount: 1ms, "
                + "every: {exponential: 1ms}}\n";

        assertThat(problems(yaml)).as("the run's estimate, the fault's share and the limit, at the fault's every")
                .containsExactly("t.yaml:16:60: faults[0].every: the run would log about 60,090,002 events in 600s, "
                        + "60,000,000 of them from this fault; at most 1,000,000 are allowed (docs/SCENARIOS.md, "
                        + "Limits): make its gaps or its duration longer, the run shorter or its target narrower");
    }

    @Test
    void aWorkerGroupThatWouldLogTooMuchIsRefusedAtItsEntry() {
        String yaml = MINIMAL.replace("duration: 60s", "duration: 1h").replace("  - name: A\n",
                "  - name: A\n    count: 1000\n    workTime: 0s\n    idleTime: 1ms\n");

        assertThat(problems(yaml)).as("the group that logs the most is named, with what to change")
                .singleElement().asString()
                .startsWith("t.yaml:8:5: workers[0]: the run would log about ")
                .contains("of them from these 1000 workers; at most 1,000,000 are allowed")
                .endsWith("make workTime or idleTime longer, the run shorter or the group smaller");
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("catalog")
    void everyCatalogScenarioIsWellWithinTheLimit(String name) {
        RunSpec spec = Catalog.shipped().load(name).spec();

        assertThat(EventEstimate.of(spec)).as("%s's estimate leaves room for a sweep to vary it", name)
                .isLessThan(Defaults.MAX_EVENTS / 5);
    }

    @Test
    void theBenchStormsAreWithinTheLimit() {
        // RunBenchCommand's defaults: 50 simulated workers for 120 s, 1,000 live workers for 10 s.
        RunSpec simulated = Workloads.storm(50, 5, FencingMode.FENCED, 1, Duration.ofSeconds(120));
        RunSpec live = Workloads.storm(1000, 50, FencingMode.FENCED, 1, Duration.ofSeconds(10));

        assertThat(EventEstimate.of(simulated)).as("the simulated storm").isLessThan(Defaults.MAX_EVENTS);
        assertThat(EventEstimate.of(live)).as("the live storm").isLessThan(Defaults.MAX_EVENTS);
    }

    @Test
    void anEmpiricalDeviceIsRefusedAtItsLineWithoutBeingRead(@TempDir Path dir) throws IOException {
        // Before: {empirical: /dev/zero} read zeros until an OutOfMemoryError.
        Path file = EmpiricalScenarioTest.scenario(dir, "{kind: PAUSE, target: A, at: 10s, "
                + "duration: {empirical: /dev/zero}}");

        assertThat(EmpiricalScenarioTest.problems(file)).as("the device is named as one, at the scenario's line")
                .containsExactly("13:61: faults[0].duration.empirical: /dev/zero: is a character device, not a "
                        + "regular file; a pause file is a regular file");
    }

    @Test
    void anEmpiricalFileOfProcIsRefusedWithoutAnyOfItsContent(@TempDir Path dir) throws IOException {
        // Before: /proc/self/environ printed environment variables in the error.
        Path file = EmpiricalScenarioTest.scenario(dir, "{kind: PAUSE, target: A, at: 10s, "
                + "duration: {empirical: /proc/self/environ}}");

        assertThat(EmpiricalScenarioTest.problems(file)).as("refused by where it lives; nothing of it is shown")
                .containsExactly("13:61: faults[0].duration.empirical: /proc/self/environ: is a file of the kernel's "
                        + "proc file system (as under /proc and /sys), not a pause file");
    }

    @Test
    void anEmpiricalFileThatIsNoPauseFileShowsAShortPrefixOfItsLineAtMost(@TempDir Path dir) throws IOException {
        // Before: {empirical: ../../../../etc/shadow} printed the file's first line whole.
        Path secrets = Files.createDirectories(dir.resolve("etc"));
        Files.writeString(secrets.resolve("shadow"), "root:$6$Q9yXb1xT$2bKq8V7mJtY0cLr4N5sPzUeWdAfGhIkOl3:19700:0:::\n");
        Path scenarios = Files.createDirectories(dir.resolve("a/b"));
        Path file = EmpiricalScenarioTest.scenario(scenarios, "{kind: PAUSE, target: A, at: 10s, "
                + "duration: {empirical: ../../etc/shadow}}");

        assertThat(EmpiricalScenarioTest.problems(file)).singleElement().asString()
                .as("the file named as written, its line, and 32 characters of it at most")
                .startsWith("13:61: faults[0].duration.empirical: ../../etc/shadow:1: 'root:$6$Q9yXb1xT$2bKq8V7mJtY0cLr…' "
                        + "is not a line of any accepted format")
                .doesNotContain("19700");
    }
}
