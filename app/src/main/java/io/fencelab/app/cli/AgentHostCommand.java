package io.fencelab.app.cli;

import io.fencelab.app.service.JvmAgents;
import io.fencelab.engine.agent.AgentTables;
import io.fencelab.engine.agent.AgentTables.Order;
import io.fencelab.engine.agent.AgentTables.OrderResult;
import io.fencelab.engine.agent.ClockOffset;
import io.fencelab.engine.agent.ProcessSignals;
import io.fencelab.engine.db.Database;
import io.fencelab.engine.db.DatabaseConfig;
import java.io.IOException;
import java.io.PrintWriter;
import java.net.InetAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.sql.Connection;
import java.sql.SQLException;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.concurrent.ConcurrentHashMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import picocli.CommandLine.Command;
import picocli.CommandLine.ITypeConverter;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * {@code fencelab agent-host}: this machine joins process runs through their database. It says it is
 * here ({@code agent_host}), beats every second with a fresh measurement of its clock against the
 * database's, wakes on {@code NOTIFY fencelab_orders} (or every 500 ms), and does the orders addressed
 * to it: START starts Fencelab's own agent for a run's worker (a run id and an agent name, both
 * checked; never a command read from the database), FREEZE / THAW / KILL signal an agent it started
 * itself (any other process is refused). Each order's result goes back with the times on the
 * database's clock. On Ctrl-C or SIGTERM it kills its agents and marks itself left.
 */
@Command(name = "agent-host",
        description = "Join process runs from this machine: start the agents a run places here and freeze, "
                + "thaw and kill them on the run's orders. Only PostgreSQL needs to be reachable. "
                + "See docs/DISTRIBUTED.md.")
public final class AgentHostCommand implements Callable<Integer> {

    /** How often the host says it is alive (a run counts a host lost after a few missed beats). */
    static final Duration HEARTBEAT = Duration.ofSeconds(1);
    /** How long it sleeps between looks at its orders when no NOTIFY wakes it. */
    static final Duration POLL = Duration.ofMillis(500);
    /** How long a freeze may take to show in /proc before it counts as failed. */
    private static final Duration SIGNAL_LIMIT = Duration.ofSeconds(2);
    /** Exchanges per clock measurement; the shortest round trip is kept. */
    private static final int CLOCK_SAMPLES = 8;

    @Spec
    CommandSpec spec;

    @Mixin
    DatabaseOptions database;

    @Option(names = "--user", paramLabel = "USER",
            description = "The database user (default: $${FENCELAB_JDBC_USER}, else the URL's).")
    String user;

    @Option(names = "--password-file", paramLabel = "FILE",
            description = "A file whose first line is the database password (default: $${FENCELAB_JDBC_PASSWORD}, "
                    + "else the URL's). Never give a password on the command line.")
    Path passwordFile;

    @Option(names = "--name", required = true, paramLabel = "H",
            description = "This host's name, as scenarios place workers on it (hosts: {H: 2}).")
    String name;

    @Option(names = "--clock-offset", hidden = true, paramLabel = "DURATION", converter = SignedDuration.class,
            description = "Tests only: shift this host's clock (-5s, 7s, 250ms).")
    Duration clockOffset = Duration.ZERO;

    /** The agents this host started, by run and agent name: the only processes it ever signals. */
    private final Map<String, Process> agents = new ConcurrentHashMap<>();
    private final JvmAgents jvm = new JvmAgents();
    private Database db;
    private AgentTables tables;
    private Clock clock;
    private volatile ClockOffset offset = ClockOffset.NONE;
    private Path logDir;
    private PrintWriter out;

    @Override
    public Integer call() throws Exception {
        out = spec.commandLine().getOut();
        io.fencelab.engine.agent.AgentNames.hostProblem(name).ifPresent(why -> {
            throw new IllegalArgumentException("--name '" + name + "': " + why);
        });
        DatabaseConfig config = config();
        if (config.isEmbedded()) {
            throw new IllegalArgumentException("agent-host needs the run's database: --jdbc-url URL "
                    + "(or " + DatabaseConfig.ENV_JDBC_URL + ")");
        }
        clock = Clock.offset(Clock.systemUTC(), clockOffset);
        // Before joining: a first training run of the agents' AOT cache must not hold up heartbeats.
        jvm.prepare();
        logDir = Files.createTempDirectory("fencelab-agent-host-",
                PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rwx------")));
        try (Database joined = Database.join(config, 4)) {
            db = joined;
            tables = new AgentTables(db);
            measure();
            tables.hostJoined(name, machine(), ProcessHandle.current().pid(), offset);
            say("agent host " + name + " joined " + DatabaseConfig.shown(db.jdbcUrlWithoutSecret())
                    + ", clock offset " + micros(offset.offsetMicros()) + " ± " + micros(offset.uncertaintyMicros())
                    + " (agent logs in " + logDir + ")");
            Thread hook = new Thread(this::leave, "agent-host-leave");
            Runtime.getRuntime().addShutdownHook(hook);
            try {
                serve();
            } finally {
                leave();
                try {
                    Runtime.getRuntime().removeShutdownHook(hook);
                } catch (IllegalStateException shuttingDown) {
                    // The hook runs (or ran) anyway; leave() does its work once.
                }
            }
        }
        return ExitCodes.OK;
    }

    /** The database: the URL as every command takes it, the user and password as given here. */
    private DatabaseConfig config() throws IOException {
        DatabaseConfig c = database.resolve();
        String password = c.password().orElse(null);
        if (passwordFile != null) {
            List<String> lines = Files.readAllLines(passwordFile, StandardCharsets.UTF_8);
            password = lines.isEmpty() ? "" : lines.getFirst();
        }
        String who = user != null ? user : c.user().orElse(null);
        return c.isEmbedded() ? c : new DatabaseConfig(c.jdbcUrl(), java.util.Optional.ofNullable(who),
                java.util.Optional.ofNullable(password), c.dataDirectory(), c.port());
    }

    /** Until interrupted (or the JVM ends): orders when woken or every {@link #POLL}, a heartbeat every second. */
    private void serve() {
        long nextBeat = System.nanoTime() + HEARTBEAT.toNanos();
        boolean reachable = true;
        AgentTables.Listener listener = null;
        try {
            while (!Thread.currentThread().isInterrupted()) {
                try {
                    if (listener == null) {
                        listener = tables.listen();
                    }
                    for (Order order : tables.ordersForHost(name)) {
                        tables.done(order.id(), perform(order));
                    }
                    if (System.nanoTime() - nextBeat >= 0) {
                        measure();
                        tables.heartbeat(name, offset);
                        nextBeat = System.nanoTime() + HEARTBEAT.toNanos();
                    }
                    if (!reachable) {
                        say("agent host " + name + ": the database answers again");
                        reachable = true;
                    }
                    listener.awaitNotification(POLL);
                } catch (RuntimeException e) {
                    if (reachable) {
                        say("agent host " + name + ": " + DatabaseConfig.redactAll(String.valueOf(e.getMessage()))
                                + " (trying again every second)");
                        reachable = false;
                    }
                    if (listener != null) {
                        listener.close();
                        listener = null;
                    }
                    Thread.sleep(HEARTBEAT.toMillis());
                }
                reapEnded();
            }
        } catch (InterruptedException e) {
            // The interrupt is this host's stop, handled here: leaving and closing the pool need a thread
            // that is not interrupted.
        } finally {
            Thread.interrupted();
            if (listener != null) {
                listener.close();
            }
        }
    }

    /** Does one order and says what it did, in one line. */
    OrderResult perform(Order order) {
        OrderResult result;
        try {
            result = switch (order.kind()) {
                case START -> start(order);
                case FREEZE, THAW, KILL -> signal(order);
                default -> refused(order.kind() + " is an order for an agent, not for a host");
            };
        } catch (RuntimeException e) {
            result = refused(DatabaseConfig.redactAll(String.valueOf(e.getMessage())));
        }
        say("agent host " + name + ": " + order.kind().name().toLowerCase(Locale.ROOT) + " " + order.agent()
                + " of run " + order.runId() + ": " + (result.ok() ? "ok" : "refused") + (result.pid() == null ? ""
                : ", pid " + result.pid()) + (result.detail() == null ? "" : ", " + result.detail()));
        return result;
    }

    /** Starts Fencelab's own agent for the order's run and agent: nothing of the order but those two, checked. */
    private OrderResult start(Order order) {
        try {
            JvmAgents.checkArguments(order.runId(), order.agent(), name);
        } catch (IllegalArgumentException e) {
            return refused(e.getMessage());
        }
        String key = key(order.runId(), order.agent());
        Process running = agents.get(key);
        if (running != null && running.isAlive()) {
            return new OrderResult(false, running.pid(), null, null, "agent already running here");
        }
        boolean newIdentity = "new-identity".equals(order.body());
        List<String> command = jvm.agentCommand(order.runId(), order.agent(), name,
                clockOffset.toMillis(), newIdentity);
        ProcessBuilder pb = new ProcessBuilder(command);
        Map<String, String> env = pb.environment();
        // The database for the agent: in its environment, which only this account can read.
        env.put(DatabaseConfig.ENV_JDBC_URL, db.jdbcUrlWithoutSecret());
        db.user().ifPresentOrElse(u -> env.put(DatabaseConfig.ENV_JDBC_USER, u),
                () -> env.remove(DatabaseConfig.ENV_JDBC_USER));
        db.password().ifPresentOrElse(p -> env.put(DatabaseConfig.ENV_JDBC_PASSWORD, p),
                () -> env.remove(DatabaseConfig.ENV_JDBC_PASSWORD));
        Path log = logDir.resolve("run-" + order.runId() + "-" + order.agent() + ".log");
        pb.redirectErrorStream(true).redirectOutput(ProcessBuilder.Redirect.appendTo(log.toFile()));
        // stdin stays a pipe this host holds open: when the host ends, however it ends, the agent does too.
        pb.redirectInput(ProcessBuilder.Redirect.PIPE);
        try {
            Process p = pb.start();
            agents.put(key, p);
            return new OrderResult(true, p.pid(), null, null, "log " + log.getFileName());
        } catch (IOException e) {
            return refused("could not start the agent: " + e.getMessage());
        }
    }

    /** Freezes, thaws or kills an agent this host started; times of a freeze on the database's clock. */
    private OrderResult signal(Order order) {
        Process p = order.agent() == null ? null : agents.get(key(order.runId(), order.agent()));
        if (p == null) {
            return refused("no agent " + order.agent() + " of run " + order.runId() + " was started by this host");
        }
        if (!p.isAlive()) {
            return new OrderResult(false, p.pid(), null, null, "the agent's process has ended");
        }
        return switch (order.kind()) {
            case FREEZE -> {
                ProcessSignals.Frozen f = ProcessSignals.freeze(p.pid(), SIGNAL_LIMIT);
                yield new OrderResult(true, p.pid(), databaseTime(f.deliveredNanos()), databaseTime(f.confirmedNanos()),
                        "stopped (state T)");
            }
            case THAW -> {
                long at = System.nanoTime();
                ProcessSignals.thaw(p.pid());
                yield new OrderResult(true, p.pid(), databaseTime(at), null, "continued");
            }
            default -> {
                long at = System.nanoTime();
                ProcessSignals.kill(p.pid(), SIGNAL_LIMIT);
                // Reaped here, so the pid is free at once rather than a zombie until Java's reaper gets to it.
                waitGone(p);
                long gone = System.nanoTime();
                agents.remove(key(order.runId(), order.agent()));
                yield new OrderResult(true, p.pid(), databaseTime(at), databaseTime(gone), "killed");
            }
        };
    }

    private static void waitGone(Process p) {
        try {
            p.waitFor(SIGNAL_LIMIT.toMillis(), java.util.concurrent.TimeUnit.MILLISECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /** A {@code System.nanoTime()} reading as the database's time: this host's clock then, plus its offset. */
    private Instant databaseTime(long nanos) {
        Instant local = clock.instant().minusNanos(System.nanoTime() - nanos);
        return local.plusNanos(offset.offsetMicros() * 1_000);
    }

    private void measure() {
        try (Connection c = db.dataSource().getConnection()) {
            offset = ClockOffset.measure(c, clock, CLOCK_SAMPLES);
        } catch (SQLException e) {
            throw new IllegalStateException("could not measure the clock: " + db.scrub(e.getMessage()), e);
        }
    }

    /** Forgets agents whose process has ended on its own (their run is over). */
    private void reapEnded() {
        agents.values().removeIf(p -> !p.isAlive());
    }

    private boolean left;

    /** Kills this host's agents and marks it left; once, whether by the loop's end or the shutdown hook. */
    private synchronized void leave() {
        if (left) {
            return;
        }
        left = true;
        for (Process p : agents.values()) {
            p.destroyForcibly();
        }
        agents.clear();
        try {
            tables.hostLeft(name);
            say("agent host " + name + " left");
        } catch (RuntimeException e) {
            say("agent host " + name + " could not mark itself left: "
                    + DatabaseConfig.redactAll(String.valueOf(e.getMessage())));
        }
    }

    private void say(String line) {
        synchronized (out) {
            out.println(line);
            out.flush();
        }
    }

    private static OrderResult refused(String why) {
        return new OrderResult(false, null, null, null, why);
    }

    private static String key(long runId, String agent) {
        return runId + "/" + agent;
    }

    private static String machine() {
        try {
            return InetAddress.getLocalHost().getHostName();
        } catch (IOException e) {
            return "unknown";
        }
    }

    /** Microseconds as a person reads an offset: {@code +7000.123 ms}, {@code -0.042 ms}. */
    static String micros(long us) {
        return String.format(Locale.ROOT, "%+.3f ms", us / 1000.0);
    }

    /** {@code -5s}, {@code 7s}, {@code +250ms}: a signed whole or decimal number of seconds or milliseconds. */
    static final class SignedDuration implements ITypeConverter<Duration> {
        private static final Pattern FORM = Pattern.compile("([+-]?)(\\d{1,9}(?:\\.\\d{1,3})?)(ms|s)");

        @Override
        public Duration convert(String value) {
            Matcher m = FORM.matcher(value.strip());
            if (!m.matches()) {
                throw new picocli.CommandLine.TypeConversionException(
                        "'" + value + "' is not a clock offset: a signed number and ms or s (-5s, 7s, 250ms)");
            }
            double millis = Double.parseDouble(m.group(2)) * (m.group(3).equals("s") ? 1000 : 1);
            long signed = Math.round(m.group(1).equals("-") ? -millis : millis);
            return Duration.ofMillis(signed);
        }
    }
}
