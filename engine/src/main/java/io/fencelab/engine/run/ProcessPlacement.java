package io.fencelab.engine.run;

import io.fencelab.engine.agent.AgentNames;
import io.fencelab.engine.agent.AgentTables;
import io.fencelab.engine.agent.AgentTables.OrderKind;
import io.fencelab.engine.agent.ProcessSignals;
import io.fencelab.engine.chaos.FaultSpec;
import io.fencelab.engine.db.Database;
import io.fencelab.engine.db.DatabaseConfig;
import io.fencelab.engine.worker.WorkerEnv;
import io.fencelab.engine.worker.WorkerSpec;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.function.BiConsumer;

/**
 * Workers as agent processes: each {@link Agent} is one worker's JVM, started on this machine with
 * {@link ProcessBuilder} or on its agent host by an order through the database. What a fault does to a
 * holder it does to that process: a freeze is SIGSTOP (confirmed from {@code /proc}), a crash SIGKILL,
 * a restart a new agent of the same worker; the rest is sent to the agent as an order.
 */
final class ProcessPlacement implements WorkerPlacement {

    private static final org.slf4j.Logger log = org.slf4j.LoggerFactory.getLogger(ProcessPlacement.class);

    /** How long a freeze may take to be confirmed, here or on a host. */
    private static final Duration FREEZE_LIMIT = Duration.ofSeconds(3);

    private final Database db;
    private final AgentTables tables;
    private final AgentSupport support;
    /** Told when an agent's process ends without a fault having killed it. */
    private final BiConsumer<String, String> gone;
    /** Told which agents run, so it knows who could still send a grant it waits for. */
    private final EventMerge merge;
    private final Map<String, Agent> agents = new ConcurrentHashMap<>();
    private final RunSpec spec;
    private long runId;
    private Path logs;
    private volatile boolean ending;

    ProcessPlacement(Database db, RunSpec spec, AgentTables tables, AgentSupport support, EventMerge merge,
                     BiConsumer<String, String> gone) {
        this.spec = spec;
        this.merge = merge;
        this.db = db;
        this.tables = tables;
        this.support = support;
        this.gone = gone;
    }

    /**
     * Refuses a spec that places workers on hosts that are not running, naming them and how to start one.
     *
     * @throws IllegalArgumentException naming the missing hosts
     */
    void checkHosts() {
        Set<String> wanted = new java.util.TreeSet<>(spec.hosts().values());
        if (wanted.isEmpty()) {
            return;
        }
        Set<String> live = new HashSet<>();
        tables.liveHosts(ProcessExecutor.HOST_SILENCE).forEach(h -> live.add(h.name()));
        wanted.removeAll(live);
        if (!wanted.isEmpty()) {
            throw new IllegalArgumentException("no agent host named " + String.join(", ", wanted)
                    + " is running against this database; start one with "
                    + "`fencelab agent-host --jdbc-url URL --name " + wanted.iterator().next() + "` on that machine");
        }
    }

    /** The run the agents join, once its store made it. */
    void bind(long id) {
        this.runId = id;
    }

    @Override
    public boolean actsHere() {
        return false;
    }

    @Override
    public Placed place(WorkerSpec worker, WorkerEnv env) {
        Agent agent = new Agent(worker, spec.hostOf(worker.name()).orElse(null));
        agents.put(worker.name(), agent);
        return agent;
    }

    /**
     * The agent of {@code holder} while it runs and is not frozen: the one that may still report what it did
     * before now; empty when it cannot (frozen, killed, exited, unknown).
     */
    Optional<String> reportingAgent(String holder) {
        Agent a = agents.get(worker(holder));
        return a == null || a.frozen || !a.running() ? Optional.empty() : Optional.of(a.agentName());
    }

    String hostName(String holder) {
        Agent a = agents.get(worker(holder));
        return a == null || a.host == null ? AgentNames.LOCAL : a.host;
    }

    private static String worker(String holder) {
        int hash = holder.indexOf('#');
        return hash < 0 ? holder : holder.substring(0, hash);
    }

    /**
     * Starts every agent: those on hosts at once (each host starts its own), those of this machine a few
     * at a time, the next as soon as an earlier one is up. Fifty JVMs starting together on two cores take
     * longer, each, than they do one after another: they fight for the same cores and memory.
     */
    void startAll(int startingAtOnce, Duration limit) throws InterruptedException {
        List<Agent> local = new ArrayList<>();
        for (Agent a : agents.values()) {
            if (a.host == null) {
                local.add(a);
            } else {
                a.start();
            }
        }
        long deadline = System.nanoTime() + limit.toNanos();
        int launched = 0;
        while (launched < local.size() && System.nanoTime() < deadline) {
            Set<String> up = upNow();
            long starting = local.subList(0, launched).stream().filter(a -> !up.contains(a.agentName())
                    && a.process != null && a.process.isAlive()).count();
            while (starting < startingAtOnce && launched < local.size()) {
                local.get(launched++).start();
                starting++;
            }
            if (launched < local.size()) {
                Thread.sleep(25);
            }
        }
        // Past the limit: the rest start anyway, and awaitUp says who never came.
        while (launched < local.size()) {
            local.get(launched++).start();
        }
    }

    private Set<String> upNow() {
        Set<String> up = new HashSet<>();
        for (AgentTables.AgentRow row : tables.agents(runId)) {
            if (row.pid() != null) {
                up.add(row.name());
            }
        }
        return up;
    }

    /** Waits until every agent said it is up; returns what is missing (one line), or null when all are. */
    String awaitUp(Duration limit) throws InterruptedException {
        long deadline = System.nanoTime() + limit.toNanos();
        while (true) {
            Set<String> up = upNow();
            List<String> missing = agents.values().stream().filter(a -> !up.contains(a.agentName()))
                    .map(Agent::agentName).sorted().toList();
            if (missing.isEmpty()) {
                return null;
            }
            for (Agent a : agents.values()) {
                if (a.process != null && !a.process.isAlive()) {
                    return "agent " + a.agentName() + " exited with code " + a.process.exitValue()
                            + " before the run started (its log: " + a.logFile + ")";
                }
            }
            if (System.nanoTime() > deadline) {
                return "agent" + (missing.size() == 1 ? " " : "s ") + String.join(", ", missing)
                        + " did not start within " + limit.toSeconds() + " s";
            }
            Thread.sleep(25);
        }
    }

    /** A host of this run whose heartbeat stopped, if any. */
    Optional<String> lostHost(Duration silence) {
        Set<String> used = new java.util.TreeSet<>(spec.hosts().values());
        if (used.isEmpty()) {
            return Optional.empty();
        }
        Set<String> live = new HashSet<>();
        tables.liveHosts(silence).forEach(h -> live.add(h.name()));
        return used.stream().filter(h -> !live.contains(h)).findFirst();
    }

    FaultScheduler.Frozen freeze(String holder, RealTimeScheduler scheduler) {
        Agent a = agents.get(worker(holder));
        if (a == null || !a.running()) {
            return new FaultScheduler.Frozen(scheduler.nowMicros(), "no process to freeze, " + holder + " is down");
        }
        return a.freeze(scheduler);
    }

    void thaw(String holder) {
        Agent a = agents.get(worker(holder));
        if (a != null) {
            a.thaw();
        }
    }

    /** A fault that acts inside a holder's process: to its agent, or to every agent for the database. */
    void forward(PlannedFault fault) {
        String body = ProcessExecutor.faultOrder(fault.occurrence);
        if (FaultSpec.DATABASE.equals(fault.occurrence.target())) {
            // Every agent must know before the database stops, or it would take the stop for a loss.
            List<Long> ids = new ArrayList<>();
            for (Agent a : agents.values()) {
                if (a.running()) {
                    ids.add(tables.order(AgentTables.Order.toAgent(runId, a.agentName(), OrderKind.FAULT, body)));
                }
            }
            for (long id : ids) {
                try {
                    tables.awaitOrder(id, Duration.ofSeconds(2));
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    return;
                }
            }
        } else {
            order(fault.occurrence.target(), OrderKind.FAULT, body);
        }
    }

    /** Queues an order for {@code holder}'s agent (if it is up). */
    void order(String holder, OrderKind kind, String body) {
        Agent a = agents.get(worker(holder));
        if (a != null && a.running()) {
            tables.order(AgentTables.Order.toAgent(runId, a.agentName(), kind, body));
        }
    }

    /** The run ends: every agent is told, thawed, and given {@code limit} to leave. */
    void endAll(Duration limit) throws InterruptedException {
        ending = true;
        try {
            tables.endRun(runId);
            for (Agent a : agents.values()) {
                if (a.running()) {
                    a.thaw();
                    tables.order(AgentTables.Order.toAgent(runId, a.agentName(), OrderKind.END, null));
                }
            }
        } catch (RuntimeException e) {
            log.warn("process run {}: the agents could not be told the run is over: {}", runId,
                    db.scrub(String.valueOf(e.getMessage())));
        }
        long deadline = System.nanoTime() + limit.toNanos();
        for (Agent a : agents.values()) {
            a.awaitExit(deadline);
        }
    }

    /** Kills whatever agent is left (the run is closed). */
    void killAll() {
        ending = true;
        for (Agent a : agents.values()) {
            a.killQuietly();
        }
    }

    /** One worker's agent process, through its incarnations. */
    final class Agent implements Placed {
        private final WorkerSpec worker;
        private final String host;
        private int incarnation = 1;
        private boolean newIdentity;
        private volatile Process process;
        private volatile Long remotePid;
        private volatile boolean up;
        private volatile boolean frozen;
        private Path logFile;

        Agent(WorkerSpec worker, String host) {
            this.worker = worker;
            this.host = host;
        }

        String agentName() {
            return AgentRun.agentName(worker.name(), incarnation);
        }

        @Override
        public String name() {
            return worker.name();
        }

        @Override
        public WorkerSpec spec() {
            return worker;
        }

        @Override
        public boolean running() {
            return up && (process == null || process.isAlive());
        }

        @Override
        public void start() {
            launch();
        }

        @Override
        public void startAfter(Duration delay) {
            launch(); // its worker waits for its start time itself
        }

        private synchronized void launch() {
            AgentRun.Joining joining = new AgentRun.Joining(runId, worker.name(), host == null ? AgentNames.LOCAL : host,
                    incarnation, newIdentity);
            String name = agentName();
            tables.addAgent(runId, name, host);
            merge.joined(name);
            up = true;
            if (host != null) {
                long order = tables.order(new AgentTables.Order(0, runId, host, agentName(), OrderKind.START,
                        newIdentity ? "new-identity" : null));
                log.debug("agent {} of run {}: START order {} to host {}", agentName(), runId, order, host);
                return;
            }
            ProcessBuilder pb = new ProcessBuilder(support.agentCommand(joining, 0));
            Map<String, String> env = pb.environment();
            env.put(DatabaseConfig.ENV_JDBC_URL, db.jdbcUrlWithoutSecret());
            db.user().ifPresent(u -> env.put(DatabaseConfig.ENV_JDBC_USER, u));
            db.password().ifPresent(p -> env.put(DatabaseConfig.ENV_JDBC_PASSWORD, p));
            env.remove(DatabaseConfig.ENV_DATA_DIR);
            logFile = logs().resolve(agentName().replace('#', '-') + ".log");
            pb.redirectErrorStream(true).redirectOutput(logFile.toFile());
            // stdin stays a pipe this process holds: when this JVM dies, the agent reads its end and leaves.
            pb.redirectInput(ProcessBuilder.Redirect.PIPE);
            try {
                Process p = pb.start();
                process = p;
                p.onExit().thenAccept(done -> {
                    if (!ending && process == done && up) {
                        up = false;
                        merge.left(name);
                        gone.accept(holderName(), "exited with code " + done.exitValue());
                    }
                });
            } catch (IOException e) {
                up = false;
                throw new UncheckedIOException("cannot start agent " + agentName() + ": " + e.getMessage(), e);
            }
        }

        private String holderName() {
            return newIdentity && incarnation > 1 ? worker.name() + "#" + incarnation : worker.name();
        }

        Long pid() {
            Process p = process;
            return p != null ? Long.valueOf(p.pid()) : remotePid;
        }

        FaultScheduler.Frozen freeze(RealTimeScheduler scheduler) {
            if (host == null) {
                ProcessSignals.Frozen f = ProcessSignals.freeze(process.pid(), FREEZE_LIMIT);
                frozen = true;
                long confirmedAgoMicros = (System.nanoTime() - f.confirmedNanos()) / 1_000;
                return new FaultScheduler.Frozen(scheduler.nowMicros() - confirmedAgoMicros,
                        "SIGSTOP to process " + f.pid() + " on this machine, stopped (state T) "
                                + micros((f.confirmedNanos() - f.deliveredNanos()) / 1_000) + " after the signal");
            }
            long id = tables.order(new AgentTables.Order(0, runId, host, agentName(), OrderKind.FREEZE, null));
            try {
                AgentTables.OrderResult r = tables.awaitOrder(id, FREEZE_LIMIT).orElse(null);
                if (r == null || !r.ok() || r.confirmed() == null) {
                    return new FaultScheduler.Frozen(scheduler.nowMicros(), "SIGSTOP to " + agentName() + " on host "
                            + host + " not confirmed" + (r == null ? " in time" : ": " + r.detail()));
                }
                frozen = true;
                remotePid = r.pid();
                return new FaultScheduler.Frozen(scheduler.toRunMicros(r.confirmed()),
                        "SIGSTOP to process " + r.pid() + " on host " + host + ", stopped (state T) "
                                + micros(java.time.Duration.between(r.delivered(), r.confirmed()).toNanos() / 1_000)
                                + " after the signal");
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return new FaultScheduler.Frozen(scheduler.nowMicros(), "freeze interrupted");
            }
        }

        void thaw() {
            if (!frozen) {
                return;
            }
            frozen = false;
            if (host == null) {
                Process p = process;
                if (p != null) {
                    ProcessSignals.thaw(p.pid());
                }
            } else {
                tables.order(new AgentTables.Order(0, runId, host, agentName(), OrderKind.THAW, null));
            }
        }

        @Override
        public synchronized void crash() {
            up = false;
            frozen = false;
            merge.left(agentName());
            if (host == null) {
                Process p = process;
                if (p != null) {
                    ProcessSignals.kill(p.pid(), Duration.ofSeconds(3));
                }
                return;
            }
            long id = tables.order(new AgentTables.Order(0, runId, host, agentName(), OrderKind.KILL, null));
            try {
                tables.awaitOrder(id, Duration.ofSeconds(3));
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }

        @Override
        public synchronized void restart(boolean asNewIdentity) {
            incarnation++;
            newIdentity = asNewIdentity;
            launch();
        }

        @Override
        public void retire() {
            if (running()) {
                tables.order(AgentTables.Order.toAgent(runId, agentName(), OrderKind.END, null));
            }
        }

        void awaitExit(long deadlineNanos) throws InterruptedException {
            Process p = process;
            if (p != null) {
                long left = deadlineNanos - System.nanoTime();
                if (left > 0) {
                    p.waitFor(left, TimeUnit.NANOSECONDS);
                }
            }
        }

        void killQuietly() {
            Process p = process;
            if (p != null && p.isAlive()) {
                ProcessSignals.thaw(p.pid());
                p.destroyForcibly();
            } else if (host != null && up) {
                try {
                    tables.order(new AgentTables.Order(0, runId, host, agentName(), OrderKind.KILL, null));
                } catch (RuntimeException e) {
                    // the host or the database is gone; the host kills its agents when it leaves
                }
            }
        }
    }

    private static String micros(long micros) {
        return io.fencelab.engine.clock.RunTimes.precise(micros);
    }

    /** A private directory for the agents' output (their logs may name the run's tables). */
    private synchronized Path logs() {
        if (logs == null) {
            try {
                logs = Files.createTempDirectory("fencelab-agents-" + runId + "-",
                        PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rwx------")));
            } catch (IOException e) {
                throw new UncheckedIOException("cannot make a directory for the agents' logs: " + e.getMessage(), e);
            }
        }
        return logs;
    }
}
