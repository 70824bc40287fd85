package io.fencelab.app.cli;

import io.fencelab.app.service.JvmAgents;
import io.fencelab.engine.db.Database;
import io.fencelab.engine.db.DatabaseConfig;
import io.fencelab.engine.run.AgentRun;
import java.io.IOException;
import java.io.InputStream;
import java.io.PrintWriter;
import java.time.Clock;
import java.time.Duration;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * {@code fencelab agent}: one worker of a process run as its own JVM, started by the run or by an agent
 * host, never by a person (hidden from the usage list). The database's URL and credentials come from
 * the environment only ({@code FENCELAB_JDBC_URL}, {@code _USER}, {@code _PASSWORD}), never from the
 * command line, where other accounts could read them. It never outlives its parent: when its standard
 * input ends (the parent closed it or is gone), it exits at once with code 3.
 */
@Command(name = "agent", hidden = true,
        description = "One worker of a process run as its own JVM (started by a run or an agent host).")
public final class AgentCommand implements Callable<Integer> {

    /** Exit code when the parent went away (standard input ended) before the run was over. */
    static final int PARENT_GONE = 3;

    @Spec
    CommandSpec spec;

    @Option(names = "--run", paramLabel = "ID", description = "The process run's id.")
    long runId;

    @Option(names = "--agent", paramLabel = "NAME", description = "The agent: its worker's name, #N for a restart.")
    String agent;

    @Option(names = "--host", paramLabel = "NAME", description = "The agent host that started it (none: the run's machine).")
    String host;

    @Option(names = "--clock-offset-ms", paramLabel = "MS",
            description = "An artificial offset of this agent's clock (tests of several hosts on one machine).")
    long clockOffsetMillis;

    @Option(names = "--new-identity", description = "A restarted agent acts under its own holder name (w1#2).")
    boolean newIdentity;

    @Option(names = "--ready-check", description = "Join the database and exit at once (measures start times).")
    boolean readyCheck;

    @Option(names = "--train", description = "The AOT cache's training run: an agent's start without a database.")
    boolean train;

    /**
     * The agent's own entry point, which {@code JvmAgents} starts: the same command as {@code fencelab
     * agent}, without building the whole program's command line (its subcommands, the console's
     * classes), which is most of a small JVM's start when fifty start at once on two cores.
     */
    public static void main(String[] args) {
        System.exit(FencelabCommand.configure(new picocli.CommandLine(new AgentCommand())).execute(args));
    }

    @Override
    public Integer call() {
        PrintWriter err = spec.commandLine().getErr();
        if (train) {
            JvmAgents.exercise();
            return ExitCodes.OK;
        }
        String who = "fencelab agent " + (agent == null ? "?" : agent) + " of run " + runId + ": ";
        AgentRun.Joining joining;
        try {
            joining = JvmAgents.joining(runId, agent, host, newIdentity);
        } catch (IllegalArgumentException e) {
            err.println(who + e.getMessage());
            return ExitCodes.BAD_INPUT;
        }
        DatabaseConfig config = DatabaseConfig.fromEnvironment(System.getenv());
        if (config.isEmbedded()) {
            err.println(who + "no " + DatabaseConfig.ENV_JDBC_URL + " in the environment: an agent is started by a "
                    + "process run or an agent host, which pass the database to it");
            return ExitCodes.BAD_INPUT;
        }
        watchParent(System.in);
        try (Database db = Database.join(config, 4)) {
            if (readyCheck) {
                return ExitCodes.OK;
            }
            Clock clock = Clock.offset(Clock.systemUTC(), Duration.ofMillis(clockOffsetMillis));
            return AgentRun.run(db, joining, JvmAgents::compile, clock);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            err.println(who + "interrupted");
            return ExitCodes.RUN_INCOMPLETE;
        } catch (RuntimeException e) {
            // One line, credentials removed (DatabaseConfig.redactAll): the run's log keeps the agent's stderr.
            err.println(who + DatabaseConfig.redactAll(String.valueOf(e.getMessage())));
            return ExitCodes.RUN_INCOMPLETE;
        }
    }

    /**
     * A daemon thread that ends this JVM when {@code in} ends: the run (or agent host) that started the
     * agent holds the other end of the pipe, and the kernel closes it however the parent ends, even by
     * SIGKILL, so an agent never runs on for a run that is gone.
     */
    static void watchParent(InputStream in) {
        Thread watcher = new Thread(() -> {
            try {
                while (in.read() >= 0) {
                    // Nothing is sent on it; anything that is is ignored.
                }
            } catch (IOException e) {
                // A broken pipe is the parent gone too.
            }
            Runtime.getRuntime().halt(PARENT_GONE);
        }, "parent-watch");
        watcher.setDaemon(true);
        watcher.start();
    }
}
