package io.fencelab.app.process;

import io.fencelab.engine.agent.AgentTables;
import io.fencelab.engine.db.Database;
import io.fencelab.engine.db.DatabaseConfig;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/**
 * Agent hosts as processes of this machine, as a test of several machines: each {@code fencelab
 * agent-host} with an artificial clock offset, reached only through the database.
 */
final class AgentHosts implements AutoCloseable {

    private final List<Process> hosts = new ArrayList<>();
    private final AgentTables tables;
    private final Database db;
    private final Path logs;

    AgentHosts(Database db, Path logs) {
        this.db = db;
        this.tables = new AgentTables(db);
        this.logs = logs;
    }

    /** Starts host {@code name} with its clock {@code offset} from this machine's and waits until it has joined. */
    Process start(String name, Duration offset) throws Exception {
        List<String> command = new ArrayList<>(List.of(
                ProcessHandle.current().info().command().orElse("java"), "-Xmx128m", "-XX:TieredStopAtLevel=1",
                "-cp", System.getProperty("java.class.path"), "io.fencelab.app.cli.FencelabCommand",
                "agent-host", "--name", name, "--clock-offset", offset.toMillis() + "ms"));
        ProcessBuilder pb = new ProcessBuilder(command);
        // The URL with its secret goes in the environment, never on a command line.
        pb.environment().put(DatabaseConfig.ENV_JDBC_URL, db.jdbcUrl());
        pb.redirectErrorStream(true).redirectOutput(logs.resolve("host-" + name + ".log").toFile());
        Process p = pb.start();
        hosts.add(p);
        long deadline = System.nanoTime() + Duration.ofSeconds(60).toNanos();
        while (tables.host(name).map(h -> h.left()).orElse(true)) {
            if (!p.isAlive() || System.nanoTime() > deadline) {
                throw new IllegalStateException("agent host " + name + " did not join: "
                        + java.nio.file.Files.readString(logs.resolve("host-" + name + ".log")));
            }
            Thread.sleep(50);
        }
        return p;
    }

    @Override
    public void close() throws InterruptedException {
        for (Process p : hosts) {
            p.destroy();
        }
        for (Process p : hosts) {
            if (!p.waitFor(10, java.util.concurrent.TimeUnit.SECONDS)) {
                p.destroyForcibly();
            }
        }
    }
}
