package io.fencelab.app.service;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.fencelab.engine.run.AgentRun;
import io.fencelab.engine.run.AgentSupport;
import io.fencelab.engine.run.ExecutorKind;
import io.fencelab.engine.run.RunSpec;
import io.fencelab.engine.worker.WorkerSpec;
import io.fencelab.scenarios.Catalog;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class JvmAgentsTest {

    private final JvmAgents agents = new JvmAgents(AgentCache.none());

    @ParameterizedTest
    @ValueSource(strings = {"paused-holder", "gc-storm"})
    void aCatalogScenarioComesBackFromItsPlanAsTheSameSpec(String name) {
        RunSpec spec = Catalog.shipped().load(name).spec().withExecutor(ExecutorKind.PROCESS);
        String first = spec.workers().getFirst().name();
        RunSpec placed = spec.toBuilder().hosts(Map.of(first, "host-b")).build();

        RunSpec back = JvmAgents.compile(agents.plan(placed));

        assertThat(back).as("%s written as a plan and compiled by an agent", name).isEqualTo(placed);
        assertThat(back.hosts()).as("the placement on hosts travels with the plan").containsEntry(first, "host-b");
    }

    @Test
    void textThatIsNotAPlanIsRefusedInOneLine() {
        assertThatThrownBy(() -> JvmAgents.compile("title: x\n"))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("not a process run's plan");
    }

    @Test
    void theAppProvidesTheAgentSupportTheEngineLooksFor() {
        assertThat(AgentSupport.installed()).as("META-INF/services names JvmAgents").get()
                .isInstanceOf(JvmAgents.class);
    }

    @Test
    void theCommandStartsFencelabsOwnAgentAsASmallJvmWithNoCredentials() {
        List<String> command = agents.agentCommand(7, "w1#2", "host-b", -5000, true);

        assertThat(command.getFirst()).as("this JVM's java").endsWith("java");
        assertThat(command).containsSubsequence("-cp", System.getProperty("java.class.path"), "io.fencelab.app.cli.AgentCommand",
                        "--run=7", "--agent=w1#2", "--host=host-b", "--clock-offset-ms=-5000", "--new-identity")
                .contains("-XX:TieredStopAtLevel=1", "-XX:+UseSerialGC", "-Xmx96m");
        assertThat(String.join(" ", command)).as("the database reaches the agent by its environment only")
                .doesNotContainIgnoringCase("jdbc").doesNotContainIgnoringCase("password");
    }

    @Test
    void anAgentOnTheRunsOwnMachineHasNoHostAndNoOffset() {
        List<String> command = agents.agentCommand(7, "w1", null, 0, false);

        assertThat(command).endsWith("io.fencelab.app.cli.AgentCommand", "--run=7", "--agent=w1");
    }

    @Test
    void argumentsOutsideTheAllowedFormsAreRefusedSayingWhatIsAllowed() {
        assertThatThrownBy(() -> agents.agentCommand(0, "w1", null, 0, false))
                .hasMessage("run id must be a positive number, was 0");
        assertThatThrownBy(() -> agents.agentCommand(3, "w1; rm -rf ~", null, 0, false))
                .hasMessage("agent name must be 1 to 64 of A-Z a-z 0-9 _ . # -, beginning with a letter, digit or _, was \"w1; rm -rf ~\"");
        assertThatThrownBy(() -> agents.agentCommand(3, "--help", null, 0, false))
                .as("a name that would read as an option").hasMessageContaining("was \"--help\"");
        assertThatThrownBy(() -> agents.agentCommand(3, "w1", "b\nc", 0, false))
                .hasMessage("host name must be 1 to 64 of A-Z a-z 0-9 _ . -, beginning with a letter, digit or _, and not "
                        + "'local' (the run's own machine), was \"b\\u000ac\"");
    }

    @Test
    void anAgentNameSaysWhichWorkerAndWhichProcessOfIt() {
        assertThat(JvmAgents.joining(7, "w1", "a", false)).isEqualTo(new AgentRun.Joining(7, "w1", "a", 1, false));
        AgentRun.Joining restarted = JvmAgents.joining(7, "w1#3", null, true);
        assertThat(restarted).isEqualTo(new AgentRun.Joining(7, "w1", null, 3, true));
        assertThat(restarted.agent()).as("the name the run gave it").isEqualTo("w1#3");
    }

    @Test
    void aWorkerNamedLikeAnOptionIsNoAgentName() {
        WorkerSpec anyWorker = Catalog.shipped().load("paused-holder").spec().workers().getFirst();
        assertThat(JvmAgents.AGENT_NAME.matcher(anyWorker.name()).matches()).as("catalog names are agent names").isTrue();
    }
}
