package io.fencelab.scenarios;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import io.fencelab.engine.chaos.Distribution;
import io.fencelab.engine.chaos.FaultSpec;
import io.fencelab.engine.chaos.FaultStart;
import io.fencelab.engine.db.Database;
import io.fencelab.engine.event.Event;
import io.fencelab.engine.event.EventLogReader;
import io.fencelab.engine.run.RunResult;
import io.fencelab.testing.EmbeddedDatabase;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/** {@code {empirical: FILE}} and {@code {empiricalRate: FILE}}: faults shaped by a real process's pauses. */
@ExtendWith(EmbeddedDatabase.class)
class EmpiricalScenarioTest {

    static final String CATALOG_LOG = Catalog.RESOURCE_DIR + "data/g1-service.log";
    static final String EXAMPLE = "io/fencelab/scenarios/empirical/g1-pauses.yaml";

    /** The catalog's sample G1 log: 65 pauses from 0.020s to 60.758s (Temurin 25, -Xlog:gc). */
    static byte[] catalogLog() throws IOException {
        try (InputStream in = EmpiricalScenarioTest.class.getClassLoader().getResourceAsStream(CATALOG_LOG)) {
            return in.readAllBytes();
        }
    }

    /** A scenario in {@code dir} whose first fault is {@code fault}; data files beside it. */
    static Path scenario(Path dir, String fault) throws IOException {
        String text = ScenarioValidationTest.MINIMAL.replace("expect:", "faults:\n  - " + fault + "\nexpect:");
        return Files.writeString(dir.resolve("t.yaml"), text, StandardCharsets.UTF_8);
    }

    static List<String> problems(Path file) {
        ScenarioException e = catchThrowableOfType(ScenarioException.class, () -> ScenarioLoader.load(file));
        assertThat(e).as("the file should be refused").isNotNull();
        return e.problems().stream().map(p -> p.line() + ":" + p.column() + ": " + p.path() + ": " + p.message())
                .toList();
    }

    @Test
    void anEmpiricalDurationAndRateAreReadRelativeToTheScenarioFile(@TempDir Path dir) throws IOException {
        Files.createDirectories(dir.resolve("logs"));
        Files.write(dir.resolve("logs/g1.log"), catalogLog());
        Path file = scenario(dir, "{kind: PAUSE, target: A, every: {empiricalRate: logs/g1.log}, "
                + "duration: {empirical: logs/g1.log}}");

        FaultSpec fault = ScenarioLoader.load(file).spec().faults().getFirst();

        Distribution.Empirical pauses = (Distribution.Empirical) fault.duration();
        assertThat(pauses.source()).as("named as the scenario wrote it, not by an absolute path")
                .isEqualTo("logs/g1.log");
        assertThat(pauses.samples()).hasSize(65).contains(Duration.ofNanos(29_973_000), Duration.ofNanos(2_013_000));
        Distribution gap = ((FaultStart.Every) fault.start()).gap();
        assertThat(gap).as("exponential gaps at the log's own rate").isInstanceOf(Distribution.Exponential.class);
        assertThat(((Distribution.Exponential) gap).mean()).isEqualTo(pauses.meanGap().orElseThrow());
        assertThat(pauses.meanGap().orElseThrow()).as("(60.738s - the 65 pauses) / 65: about 0.9s")
                .isBetween(Duration.ofMillis(800), Duration.ofMillis(950));
    }

    @Test
    void aShippedScenarioFindsItsDataBesideItOnTheClassPath() {
        Scenario s = ScenarioLoader.fromResource(EXAMPLE);

        Distribution.Empirical pauses = (Distribution.Empirical) s.spec().faults().getFirst().duration();
        assertThat(pauses.source()).isEqualTo("../catalog/data/g1-service.log");
        assertThat(pauses.samples()).hasSize(65);
    }

    @Test
    void aSimulatedRunPausesOnlyForDurationsFromTheLogAndRepeatsPerSeed(Database db, @TempDir Path dir)
            throws Exception {
        Scenario s = ScenarioLoader.fromResource(EXAMPLE);
        Set<Long> logged = new HashSet<>();
        ((Distribution.Empirical) s.spec().faults().getFirst().duration()).samples()
                .forEach(d -> logged.add(d.toNanos() / 1_000));

        RunResult first = PausedHolderScenarioTest.run(db, s, Files.createDirectories(dir.resolve("one")));
        List<Event> events = EventLogReader.read(first.eventLog());
        List<Long> paused = events.stream().filter(e -> e instanceof Event.PauseStarted)
                .map(e -> ((Event.PauseStarted) e).durationMicros()).toList();

        assertThat(paused).as("about one pause a second per holder over 60s").hasSizeGreaterThan(60)
                .allMatch(logged::contains, "is one of the log's pauses");
        assertThat(new HashSet<>(paused)).as("drawn from many of the log's values, not one").hasSizeGreaterThan(20);
        assertThat(s.expectation().mismatches(first, events)).isEmpty();

        RunResult again = PausedHolderScenarioTest.run(db, s, Files.createDirectories(dir.resolve("two")));
        assertThat(Files.readString(again.eventLog())).as("the same seed gives the same log, byte for byte")
                .isEqualTo(Files.readString(first.eventLog()));
    }

    @Test
    void aMissingDataFileIsLocatedInTheScenario(@TempDir Path dir) throws IOException {
        Path file = scenario(dir, "{kind: PAUSE, target: A, every: 5s, duration: {empirical: gc.log}}");

        assertThat(problems(file)).containsExactly("13:63: faults[0].duration.empirical: gc.log: no such file "
                + "(looked for " + dir.toAbsolutePath().normalize().resolve("gc.log") + ")");
    }

    @Test
    void aDataFileThatIsNoPauseLogIsLocatedInBothFiles(@TempDir Path dir) throws IOException {
        Files.writeString(dir.resolve("notes.txt"), "# our GC\nsome pauses were long\n");
        Path file = scenario(dir, "{kind: PAUSE, target: A, every: 5s, duration: {empirical: notes.txt}}");

        assertThat(problems(file)).singleElement().asString()
                .startsWith("13:63: faults[0].duration.empirical: notes.txt:2: 'some pauses were long' is not a "
                        + "line of any accepted format; accepted: a JDK unified log of GC pauses (-Xlog:gc");
    }

    @Test
    void empiricalInEveryPointsToEmpiricalRate(@TempDir Path dir) throws IOException {
        Path file = scenario(dir, "{kind: PAUSE, target: A, every: {empirical: gc.log}, duration: 1s}");

        assertThat(problems(file)).containsExactly("13:49: faults[0].every.empirical: an empirical file gives pause "
                + "durations, not the gaps between them; for the file's own pause rate write every: "
                + "{empiricalRate: gc.log}");
    }

    @Test
    void empiricalRateNeedsAFileWithTimes(@TempDir Path dir) throws IOException {
        Files.writeString(dir.resolve("pauses.txt"), "12ms\n300ms\n");
        Path file = scenario(dir, "{kind: PAUSE, target: A, every: {empiricalRate: pauses.txt}, "
                + "duration: {empirical: pauses.txt}}");

        assertThat(problems(file)).containsExactly("13:53: faults[0].every.empiricalRate: pauses.txt has no times "
                + "(a list of durations), so no pause rate; give a CSV file a time column, or write every: "
                + "{exponential: …} yourself");
    }

    @Test
    void empiricalRateIsNoDuration(@TempDir Path dir) throws IOException {
        Path file = scenario(dir, "{kind: PAUSE, target: A, every: 5s, duration: {empiricalRate: gc.log}}");

        assertThat(problems(file)).containsExactly("13:67: faults[0].duration.empiricalRate: empiricalRate gives "
                + "the gaps between pauses (for every); for the pauses' durations write duration: {empirical: gc.log}");
    }
}
