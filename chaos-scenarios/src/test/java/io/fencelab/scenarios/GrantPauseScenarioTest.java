package io.fencelab.scenarios;

import static io.fencelab.scenarios.ScenarioValidationTest.MINIMAL;
import static io.fencelab.scenarios.ScenarioValidationTest.problems;
import static org.assertj.core.api.Assertions.assertThat;

import io.fencelab.engine.chaos.FaultSpec;
import io.fencelab.engine.chaos.FaultStart;
import io.fencelab.engine.check.Verdict;
import org.junit.jupiter.api.Test;

/** {@code at: grant}: a PAUSE of named workers at their next grant; everything else refused where it is written. */
class GrantPauseScenarioTest {

    private static String withFault(String fault) {
        return MINIMAL + "faults:\n  - " + fault + "\n";
    }

    @Test
    void aPauseAtGrantCompilesDescribesItselfAndRoundTrips() {
        Scenario s = ScenarioLoader.load("t.yaml", withFault("{kind: PAUSE, target: A, at: grant, duration: 5s}"));
        FaultSpec pause = s.spec().faults().getFirst();

        assertThat(pause.start()).isEqualTo(new FaultStart.OnGrant());
        assertThat(pause.describe()).isEqualTo("PAUSE on A at its next grant for 5s");
        String written = ScenarioWriter.write(s.spec(), s.notes(), Verdict.Kind.SAFE);
        assertThat(written).contains("at: grant");
        assertThat(ScenarioLoader.load("t.yaml", written).spec().faults()).isEqualTo(s.spec().faults());
    }

    @Test
    void atGrantIsRefusedWithEveryOnAllAndForOtherKinds() {
        assertThat(problems(withFault("{kind: PAUSE, target: A, at: grant, every: {exponential: 2s}, duration: 1s}")))
                .singleElement().asString().startsWith("t.yaml:15:").contains("faults[0].every")
                .contains("at: grant happens once");
        assertThat(problems(withFault("{kind: PAUSE, target: all, at: grant, duration: 1s}")))
                .singleElement().asString().contains("faults[0].target").contains("name one instead of 'all'");
        assertThat(problems(withFault("{kind: CRASH, target: A, at: grant}")))
                .singleElement().asString().contains("faults[0].at").contains("at: grant is for a PAUSE only");
        assertThat(problems(withFault("{kind: DATABASE_RESTART, target: database, at: grant, duration: 1s}")))
                .singleElement().asString().contains("at: grant is for a PAUSE only");
        assertThat(problems(withFault("{kind: SERVICE_PAUSE, target: service, at: grant, duration: 1s}")))
                .anySatisfy(p -> assertThat(p).contains("at: grant is for a PAUSE only"));
        assertThat(problems(withFault("{kind: PAUSE, target: A, at: grnat, duration: 1s}")))
                .singleElement().asString().contains("faults[0].at")
                .contains("expected a run time (at: 10s) or the word grant");
    }
}
