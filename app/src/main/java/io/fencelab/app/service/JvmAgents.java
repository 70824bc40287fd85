package io.fencelab.app.service;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.fencelab.engine.check.Verdict;
import io.fencelab.engine.agent.AgentNames;
import io.fencelab.engine.run.AgentRun;
import io.fencelab.engine.run.AgentSupport;
import io.fencelab.engine.run.RunSpec;
import io.fencelab.scenarios.Scenario;
import io.fencelab.scenarios.ScenarioLoader;
import io.fencelab.scenarios.ScenarioWriter;
import io.fencelab.scenarios.StoryStep;
import io.fencelab.scenarios.TeachingNotes;
import java.io.File;
import java.lang.management.ManagementFactory;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Fencelab's agents as JVMs on this machine ({@link AgentSupport} for the engine): the plan a process
 * run writes for its agents (the scenario text, which every agent compiles back into the same spec),
 * the fixed command that starts one agent ({@code fencelab agent}) as a small, fast-starting JVM on
 * this program's own class path, and the checks every agent's arguments pass before anything is started.
 * Nothing here takes a command, a flag or a path from the database: only a run id and an agent name,
 * both checked.
 */
public final class JvmAgents implements AgentSupport {

    /**
     * The agent's entry point: {@code fencelab agent}'s own class, whose {@code main} runs that command
     * alone (the same as {@code fencelab agent ...}, only without loading the rest of the program).
     */
    public static final String MAIN_CLASS = "io.fencelab.app.cli.AgentCommand";

    /**
     * A small JVM that starts fast: one agent runs one worker, so C1 alone, one compiler thread, the
     * serial collector and a small heap; many of them share the machine's cores while they start. No
     * {@code -Xshare} flag: the JVM refuses any beside {@code -XX:AOTCache} and {@code -XX:AOTCacheOutput}
     * (and shares its default archive without one).
     */
    static final List<String> FAST_START = List.of("-XX:TieredStopAtLevel=1", "-XX:CICompilerCount=1",
            "-XX:+UseSerialGC", "-Xss512k", "-Xmx96m");

    /** The flags of this JVM an agent is started with too (see {@link #inheritedFlags()}). */
    private static final List<String> COPIED_FLAGS = List.of("--enable-native-access",
            "--sun-misc-unsafe-memory-access", "--add-exports", "--add-opens");

    /**
     * An agent's name: its worker's name, {@code #N} after it for a restarted incarnation. Never
     * beginning with {@code -}, so that no name reads as an option.
     */
    public static final Pattern AGENT_NAME = AgentNames.AGENT;
    /** An agent host's name (shown in lanes and logs; no {@code #}, which marks incarnations). */
    public static final Pattern HOST_NAME = AgentNames.HOST;
    /** {@code w1#2}: worker w1's second process (a worker's own name never has a {@code #}). */
    private static final Pattern INCARNATION = Pattern.compile("([^#]+)#([0-9]{1,6})");

    /**
     * Set to {@code off}, agents start without the AOT cache: {@code bench-runs} measures their start
     * both ways in one JVM.
     */
    public static final String AOT_CACHE_PROPERTY = "fencelab.agents.aotCache";

    /** The first line of a plan: what the scenario text does not say (the spec's name and its hosts). */
    private static final String HEADER = "# fencelab plan ";
    private static final ObjectMapper JSON = new ObjectMapper();

    /** A plan is for agents, not for a person: its notes only say what it is. */
    private static final TeachingNotes PLAN_NOTES = new TeachingNotes("Process run plan",
            "The plan of a process run, written for its agents: each compiles it and runs its own worker.",
            List.of(StoryStep.plain("Each agent runs one worker of this plan.")));

    private final AgentCache cache;

    /** As {@link java.util.ServiceLoader} makes it: the AOT cache under the user's cache directory. */
    public JvmAgents() {
        this(AgentCache.forUserOnce());
    }

    JvmAgents(AgentCache cache) {
        this.cache = cache;
    }

    /**
     * Makes the agents' AOT cache now if it is missing (a training run of some seconds, once per
     * program), so that it does not delay the first agent; without one, agents start slower.
     */
    public void prepare() {
        cache.ready(this::trainingCommand);
    }

    // ---- the plan ------------------------------------------------------------------------------

    @Override
    public String plan(RunSpec spec) {
        Map<String, Object> header = new LinkedHashMap<>();
        header.put("name", spec.name());
        header.put("hosts", spec.hosts());
        // Where the run's lease service answers: the scenario text never holds it (it may hold a password).
        header.put("serviceEndpoints", spec.service().endpoints());
        try {
            return HEADER + JSON.writeValueAsString(header) + "\n"
                    + ScenarioWriter.write(spec, PLAN_NOTES, Verdict.Kind.SAFE);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("cannot write the plan's header: " + e.getMessage(), e);
        }
    }

    /**
     * The spec a plan (from {@link #plan}) was written from.
     *
     * @throws IllegalArgumentException if the text is not a plan
     * @throws io.fencelab.scenarios.ScenarioException if its scenario does not compile
     */
    public static RunSpec compile(String plan) {
        int eol = plan.indexOf('\n');
        if (!plan.startsWith(HEADER) || eol < 0) {
            throw new IllegalArgumentException("not a process run's plan (no \"" + HEADER.trim() + "\" line)");
        }
        Header header;
        try {
            header = JSON.readValue(plan.substring(HEADER.length(), eol), Header.class);
        } catch (JsonProcessingException e) {
            throw new IllegalArgumentException("a process run's plan with a broken first line: "
                    + e.getOriginalMessage(), e);
        }
        Scenario scenario = ScenarioLoader.load("plan.yaml", plan.substring(eol + 1));
        RunSpec s = scenario.spec();
        return new RunSpec(header.name(), s.workers(), s.firstTokens(), s.lease(), s.fencing(), s.tokenScheme(),
                s.firstWrite(), s.faults(), s.seed(), s.duration(), s.executor(), s.timeScale(), s.userFences(),
                header.hosts() == null ? Map.of() : header.hosts(), s.service().withEndpoints(header.serviceEndpoints()));
    }

    private record Header(String name, Map<String, String> hosts, String serviceEndpoints) {
    }

    // ---- the command ---------------------------------------------------------------------------

    @Override
    public List<String> agentCommand(AgentRun.Joining joining, long clockOffsetMillis) {
        return agentCommand(joining.runId(), joining.agent(), joining.host(), clockOffsetMillis,
                joining.newIdentity());
    }

    /**
     * The command for agent {@code agent} ({@code w1}, or {@code w1#2} restarted), acting under its own
     * holder name ({@code newIdentity}) instead of its worker's from its second process on.
     */
    public List<String> agentCommand(long runId, String agent, String host, long clockOffsetMillis,
                                     boolean newIdentity) {
        checkArguments(runId, agent, host);
        List<String> command = new ArrayList<>();
        command.add(javaCommand());
        command.addAll(FAST_START);
        command.addAll(inheritedFlags());
        if (!"off".equals(System.getProperty(AOT_CACHE_PROPERTY))) {
            cache.ready(this::trainingCommand).ifPresent(file -> command.add("-XX:AOTCache=" + file));
        }
        command.add("-cp");
        command.add(System.getProperty("java.class.path"));
        command.add(MAIN_CLASS);
        command.add("--run=" + runId);
        command.add("--agent=" + agent);
        if (host != null) {
            command.add("--host=" + host);
        }
        if (clockOffsetMillis != 0) {
            command.add("--clock-offset-ms=" + clockOffsetMillis);
        }
        if (newIdentity) {
            command.add("--new-identity");
        }
        return command;
    }

    /** The command of the AOT cache's training run: an agent that exercises its own start without a database. */
    private List<String> trainingCommand(Path output) {
        List<String> command = new ArrayList<>();
        command.add(javaCommand());
        command.addAll(FAST_START);
        command.addAll(inheritedFlags());
        command.add("-XX:AOTCacheOutput=" + output);
        command.add("-cp");
        command.add(System.getProperty("java.class.path"));
        command.add(MAIN_CLASS);
        command.add("--train");
        return command;
    }

    /**
     * What the AOT cache's training run does ({@code fencelab agent --train}): the start of an agent
     * without its database. It writes and compiles the plans of two catalog scenarios (the scenario
     * format, YAML, the engine's specs) and loads the classes that join a database and run a worker, so
     * an agent finds them in the cache.
     */
    public static void exercise() {
        JvmAgents agents = new JvmAgents(AgentCache.none());
        for (String name : List.of("paused-holder", "gc-storm")) {
            RunSpec spec = io.fencelab.scenarios.Catalog.shipped().load(name).spec();
            compile(agents.plan(spec.withExecutor(io.fencelab.engine.run.ExecutorKind.PROCESS)));
        }
        for (String name : List.of("org.postgresql.Driver", "com.zaxxer.hikari.HikariDataSource",
                "io.fencelab.engine.db.Database", "io.fencelab.engine.agent.AgentTables",
                "io.fencelab.engine.agent.ClockOffset", "io.fencelab.engine.run.AgentRun",
                "io.fencelab.engine.run.RunCore", "io.fencelab.engine.run.RealTimeScheduler",
                "io.fencelab.engine.worker.Worker", "io.fencelab.engine.event.EventJson",
                "io.fencelab.engine.postgres.PostgresRunStore", "org.jdbi.v3.core.Jdbi")) {
            try {
                Class.forName(name, true, JvmAgents.class.getClassLoader());
            } catch (ClassNotFoundException | LinkageError e) {
                // Training only: a class that cannot be loaded here is simply not cached.
            }
        }
    }

    /**
     * Refuses what an agent may not be started with: a run id that is not a positive number, an agent
     * name outside {@link #AGENT_NAME}, a host name outside {@link #HOST_NAME}. The one check both the
     * run's machine and an agent host apply.
     *
     * @throws IllegalArgumentException saying which argument and what is allowed
     */
    public static void checkArguments(long runId, String agent, String host) {
        if (runId <= 0) {
            throw new IllegalArgumentException("run id must be a positive number, was " + runId);
        }
        if (agent == null || !AGENT_NAME.matcher(agent).matches()) {
            throw new IllegalArgumentException("agent name must be 1 to 64 of A-Z a-z 0-9 _ . # -, beginning with a letter, digit or _, was "
                    + shown(agent));
        }
        // The run's own machine passes its agents "local"; an agent host may never call itself that.
        if (host != null && !AgentNames.LOCAL.equals(host) && AgentNames.hostProblem(host).isPresent()) {
            throw new IllegalArgumentException("host name must be " + AgentNames.HOST_RULE + ", was " + shown(host));
        }
    }

    /**
     * What an agent named {@code agent} joins as: {@code w1} is worker w1's first process, {@code w1#2}
     * its second (after a crash; {@link AgentRun#agentName}), under the holder name {@code w1#2} if
     * {@code newIdentity}, else as {@code w1}.
     */
    public static AgentRun.Joining joining(long runId, String agent, String host, boolean newIdentity) {
        checkArguments(runId, agent, host);
        Matcher m = INCARNATION.matcher(agent);
        if (m.matches() && Integer.parseInt(m.group(2)) >= 2) {
            return new AgentRun.Joining(runId, m.group(1), host, Integer.parseInt(m.group(2)), newIdentity);
        }
        return new AgentRun.Joining(runId, agent, host, 1, false);
    }

    /** A refused name as a person can read it: quoted, control characters shown, cut to a line. */
    private static String shown(String s) {
        if (s == null) {
            return "nothing";
        }
        String cut = s.length() > 80 ? s.substring(0, 80) + "…" : s;
        StringBuilder b = new StringBuilder("\"");
        cut.codePoints().forEach(c -> b.append(Character.isISOControl(c) ? String.format("\\u%04x", c)
                : new String(Character.toChars(c))));
        return b.append('"').toString();
    }

    /** This JVM's {@code java}: the one that runs this program (a packaged launcher's runtime has one too). */
    static String javaCommand() {
        Path own = Path.of(System.getProperty("java.home"), "bin", "java");
        if (own.toFile().canExecute()) {
            return own.toString();
        }
        Optional<String> running = ProcessHandle.current().info().command().filter(c -> c.endsWith(File.separator + "java"));
        return running.orElse("java");
    }

    /**
     * The module-access flags this JVM was started with (the {@code fencelab} script's and the packaged
     * launcher's {@code --enable-native-access}, {@code --sun-misc-unsafe-memory-access}, {@code --add-*}),
     * so an agent loads the same native code and libraries without warnings. Nothing else is copied: not
     * the parent's heap, agents, debug or AOT options.
     */
    static List<String> inheritedFlags() {
        List<String> flags = new ArrayList<>();
        List<String> args = ManagementFactory.getRuntimeMXBean().getInputArguments();
        for (int i = 0; i < args.size(); i++) {
            String arg = args.get(i);
            boolean copied = COPIED_FLAGS.stream().anyMatch(f -> arg.equals(f) || arg.startsWith(f + "="));
            if (copied) {
                // "--add-exports X" as two words is passed on as one, "--add-exports=X".
                flags.add(arg.contains("=") || i + 1 == args.size() ? arg : arg + "=" + args.get(++i));
            }
        }
        return flags;
    }
}
