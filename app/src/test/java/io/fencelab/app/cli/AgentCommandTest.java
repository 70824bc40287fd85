package io.fencelab.app.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.fencelab.app.service.JvmAgents;
import io.fencelab.engine.agent.AgentTables;
import io.fencelab.engine.db.Database;
import io.fencelab.engine.db.DatabaseConfig;
import io.fencelab.testing.EmbeddedDatabase;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/** {@code fencelab agent} as the real separate JVM {@link JvmAgents} starts. */
@ExtendWith(EmbeddedDatabase.class)
class AgentCommandTest {

    private final JvmAgents agents = new JvmAgents();

    @Test
    void anAgentWithoutTheDatabaseInItsEnvironmentSaysSoInOneLine() throws Exception {
        Process p = start(agents.agentCommand(5, "w1", null, 0, false), Map.of());

        assertThat(p.waitFor(60, TimeUnit.SECONDS)).isTrue();
        String err = new String(p.getErrorStream().readAllBytes(), StandardCharsets.UTF_8).strip();
        assertThat(p.exitValue()).as(err).isEqualTo(ExitCodes.BAD_INPUT);
        assertThat(err).isEqualTo("fencelab agent w1 of run 5: no FENCELAB_JDBC_URL in the environment: an agent "
                + "is started by a process run or an agent host, which pass the database to it");
    }

    @Test
    void anAgentJoinsTheDatabaseFromItsEnvironment(Database db) throws Exception {
        List<String> command = new java.util.ArrayList<>(agents.agentCommand(5, "w1", null, 0, false));
        command.add("--ready-check");

        Process p = start(command, environment(db));

        assertThat(p.waitFor(60, TimeUnit.SECONDS)).isTrue();
        String err = new String(p.getErrorStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(p.exitValue()).as(err).isEqualTo(ExitCodes.OK);
    }

    @Test
    void anAgentWhoseParentClosesItsInputLeavesAtOnce(Database db) throws Exception {
        AgentTables tables = new AgentTables(db);
        long run = db.newRun("parent-gone").runId();
        // Never started: the agent compiles its plan, says it is up, and would wait two minutes for time zero.
        tables.createRun(run, agents.plan(io.fencelab.scenarios.Catalog.shipped().load("paused-holder").spec()
                .withExecutor(io.fencelab.engine.run.ExecutorKind.PROCESS)));
        tables.addAgent(run, "A", null);
        Process p = start(agents.agentCommand(run, "A", null, 0, false), environment(db));
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
        while (tables.agents(run).getFirst().pid() == null) {
            assertThat(p.isAlive()).as("agent running").isTrue();
            assertThat(System.nanoTime() - deadline).as("agent up within 60 s").isNegative();
            Thread.sleep(50);
        }
        assertThat(tables.agents(run).getFirst().pid()).as("the agent said it is up").isEqualTo(p.pid());

        long closed = System.nanoTime();
        p.getOutputStream().close();

        assertThat(p.waitFor(10, TimeUnit.SECONDS)).as("the agent left when its input ended").isTrue();
        assertThat(p.exitValue()).isEqualTo(3);
        assertThat(TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - closed)).as("ms to leave").isLessThan(5_000);
    }

    private static Map<String, String> environment(Database db) {
        return Map.of(DatabaseConfig.ENV_JDBC_URL, db.jdbcUrlWithoutSecret(),
                DatabaseConfig.ENV_JDBC_USER, db.user().orElseThrow(),
                DatabaseConfig.ENV_JDBC_PASSWORD, db.password().orElseThrow());
    }

    private static Process start(List<String> command, Map<String, String> env) throws IOException {
        ProcessBuilder pb = new ProcessBuilder(command);
        pb.environment().keySet().removeIf(k -> k.startsWith("FENCELAB_"));
        pb.environment().putAll(env);
        pb.redirectOutput(ProcessBuilder.Redirect.DISCARD);
        return pb.start();
    }
}
