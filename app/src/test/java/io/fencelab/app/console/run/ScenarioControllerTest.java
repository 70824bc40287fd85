package io.fencelab.app.console.run;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import org.junit.jupiter.api.Test;

class ScenarioControllerTest {

    @Test
    void aBadScenarioFilesProblemsAreCountedAndNameTheFileWithoutItsFolder() {
        Path file = Path.of("/home/teacher/scenarios/bad.yaml");
        String loader = "/home/teacher/scenarios/bad.yaml:3:5: lease.ttl: must be positive\n"
                + "/home/teacher/scenarios/bad.yaml:9:1: workers: at least one worker is needed";

        String shown = ScenarioController.fileProblems(file, loader);

        assertThat(shown).isEqualTo("""
                bad.yaml is not a valid scenario (2 problems; the scenario on show is unchanged):
                bad.yaml:3:5: lease.ttl: must be positive
                bad.yaml:9:1: workers: at least one worker is needed""");
    }
}
