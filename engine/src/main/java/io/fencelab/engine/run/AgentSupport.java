package io.fencelab.engine.run;

import java.util.List;
import java.util.ServiceLoader;

/**
 * What a process run needs from the program around the engine: how its spec is written as the plan
 * every agent reads (the scenario text, which the agent compiles back), and the command that starts
 * one agent JVM on this machine. The app provides it ({@code META-INF/services}); the engine alone
 * cannot start agents.
 */
public interface AgentSupport {

    /** The plan for {@code spec}: text that {@code fencelab agent} turns back into the same spec. */
    String plan(RunSpec spec);

    /**
     * The command that starts the agent {@code joining} describes on this machine: Fencelab's own
     * program with fixed arguments, never one read from the database. The database's URL and
     * credentials go to the agent in its environment ({@code FENCELAB_JDBC_URL}, {@code _USER},
     * {@code _PASSWORD}), never on its command line, where other accounts could read them.
     *
     * @param clockOffsetMillis an artificial offset of the agent's clock (tests of several hosts on one machine)
     */
    List<String> agentCommand(AgentRun.Joining joining, long clockOffsetMillis);

    /** The one installed, or empty when only the engine is on the class path. */
    static java.util.Optional<AgentSupport> installed() {
        return ServiceLoader.load(AgentSupport.class).findFirst();
    }
}
