package io.fencelab.scenarios;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.fencelab.engine.chaos.Distribution;
import io.fencelab.engine.chaos.FaultKind;
import io.fencelab.engine.chaos.FaultSpec;
import io.fencelab.engine.chaos.FaultStart;
import io.fencelab.engine.check.Verdict;
import io.fencelab.engine.run.ExecutorKind;
import io.fencelab.engine.run.RunSpec;
import io.fencelab.engine.run.UserFences;
import io.fencelab.engine.soak.Soak;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class ScenarioWriterTest {

    private static final TeachingNotes NOTES = new TeachingNotes("A generated run", "Written by a test.",
            List.of(StoryStep.plain("It runs.")));

    @Test
    void everySoakScheduleCompilesBackToTheSameSpec() {
        for (int i = 0; i < 600; i++) {
            RunSpec spec = Soak.schedule(7, i, i % 4 == 0, 0.05);

            Scenario back = ScenarioLoader.load("soak-" + i, ScenarioWriter.write(spec, NOTES, Verdict.Kind.SAFE));

            assertThat(back.spec()).as("schedule %d written and compiled again", i).isEqualTo(named(spec, "soak-" + i));
            assertThat(back.expectation().verdict()).isEqualTo(Verdict.Kind.SAFE);
        }
    }

    @Test
    void catalogScenariosWithoutDataFilesRoundTrip() {
        List<String> checked = new ArrayList<>();
        for (String name : Catalog.shipped().names()) {
            Scenario sc = Catalog.shipped().load(name);
            boolean empirical = sc.spec().faults().stream().anyMatch(f -> f.duration() instanceof Distribution.Empirical
                    || f.start() instanceof FaultStart.Every e && e.gap() instanceof Distribution.Empirical);
            if (empirical) {
                continue;
            }
            Scenario back = ScenarioLoader.load(sc.name(), ScenarioWriter.write(sc.spec(), sc.notes(),
                    sc.expectation().verdict()));
            assertThat(withoutPositions(back.spec())).as(sc.name()).isEqualTo(withoutPositions(sc.spec()));
            assertThat(withoutLines(back.notes())).as(sc.name()).isEqualTo(withoutLines(sc.notes()));
            checked.add(sc.name());
        }
        assertThat(checked).as("catalog scenarios round-tripped").hasSizeGreaterThan(10);
    }

    @Test
    void aProcessRunsHostsRoundTripByName() {
        for (int i = 0; i < 50; i++) {
            RunSpec soak = Soak.schedule(7, i, i % 4 == 0, 0.05);
            // Every other worker on one of two hosts, the rest on the run's machine.
            Map<String, String> hosts = new HashMap<>();
            for (int w = 0; w < soak.workers().size(); w += 2) {
                hosts.put(soak.workers().get(w).name(), w % 4 == 0 ? "host-a" : "b.example");
            }
            RunSpec spec = soak.toBuilder().executor(ExecutorKind.PROCESS).hosts(hosts).build();

            Scenario back = ScenarioLoader.load("soak-" + i, ScenarioWriter.write(spec, NOTES, Verdict.Kind.SAFE));

            assertThat(back.spec()).as("schedule %d on hosts %s", i, hosts).isEqualTo(named(spec, "soak-" + i));
            assertThat(back.spec().hosts()).isEqualTo(hosts);
        }
    }

    @Test
    void aDistributionFromADataFileIsRefusedWithItsSource() {
        RunSpec spec = Soak.schedule(7, 0, false, 1.0);
        RunSpec withEmpirical = spec.toBuilder().faults(List.of(new FaultSpec(FaultKind.PAUSE, "all",
                new FaultStart.At(Duration.ofSeconds(1)),
                new Distribution.Empirical("g1.log", List.of(Duration.ofMillis(5)), Duration.ofSeconds(1)),
                Duration.ZERO))).build();

        assertThatThrownBy(() -> ScenarioWriter.write(withEmpirical, NOTES, Verdict.Kind.SAFE))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("g1.log");
    }

    private static RunSpec named(RunSpec s, String name) {
        return new RunSpec(name, s.workers(), s.firstTokens(), s.lease(), s.fencing(), s.tokenScheme(), s.firstWrite(),
                s.faults(), s.seed(), s.duration(), s.executor(), s.timeScale(), s.userFences(), s.hosts());
    }

    /** The spec with its SQL fences' statements as written, without where (a written file lays them out anew). */
    private static RunSpec withoutPositions(RunSpec spec) {
        return spec.toBuilder().userFences(new UserFences(TargetCompilerTest.withoutPositions(spec.userFences().fences()),
                spec.userFences().keep())).build();
    }

    /** The notes as written, without where each step was written (a written file lays them out anew). */
    private static TeachingNotes withoutLines(TeachingNotes notes) {
        return new TeachingNotes(notes.title(), notes.summary(), notes.steps().stream()
                .map(st -> new StoryStep(st.text(), st.cue(), st.question(), st.notes(), 0)).toList());
    }
}
