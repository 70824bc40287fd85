package io.fencelab.app.service;

import io.fencelab.engine.db.Database;
import io.fencelab.engine.db.DatabaseConfig;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.TimeUnit;

/**
 * How long N agents take to be ready (started, joined the database, exited): a program, not a test.
 * Run it on the program's own class path (jars only, so the agents' AOT cache can be made), as
 * docs/DISTRIBUTED.md shows:
 *
 * <pre>java -cp "dist/target/fencelab-dist.jar:dist/target/lib/*" \
 *     app/src/test/java/io/fencelab/app/service/AgentStartTimes.java 10 50</pre>
 *
 * For each N it starts N {@code fencelab agent --ready-check} JVMs at once, as a process run starts its
 * agents, with and without the AOT cache, against an embedded PostgreSQL in a throwaway directory,
 * and prints the time until the last is ready and the median agent's.
 */
public final class AgentStartTimes {

    public static void main(String[] args) throws Exception {
        Path dir = Files.createTempDirectory("fencelab-agent-start");
        try (Database db = Database.open(DatabaseConfig.embedded(dir), 4)) {
            JvmAgents agents = new JvmAgents();
            long t0 = System.nanoTime();
            agents.prepare();
            System.out.printf(Locale.ROOT, "AOT cache ready after %.1f s (0 if it was there)%n", seconds(t0));
            for (String arg : args.length == 0 ? new String[]{"10", "50"} : args) {
                int n = Integer.parseInt(arg);
                for (boolean cache : new boolean[]{true, false}) {
                    measure(db, agents, n, cache);
                }
            }
        }
    }

    private static void measure(Database db, JvmAgents agents, int n, boolean cache) throws Exception {
        List<Process> started = new ArrayList<>();
        long t0 = System.nanoTime();
        for (int i = 1; i <= n; i++) {
            List<String> command = new ArrayList<>(agents.agentCommand(1, "w" + i, null, 0));
            if (!cache) {
                command.removeIf(a -> a.startsWith("-XX:AOTCache="));
            }
            command.add("--ready-check");
            ProcessBuilder pb = new ProcessBuilder(command).redirectErrorStream(true)
                    .redirectOutput(ProcessBuilder.Redirect.DISCARD);
            pb.environment().put(DatabaseConfig.ENV_JDBC_URL, db.jdbcUrlWithoutSecret());
            pb.environment().put(DatabaseConfig.ENV_JDBC_USER, db.user().orElseThrow());
            pb.environment().put(DatabaseConfig.ENV_JDBC_PASSWORD, db.password().orElseThrow());
            started.add(pb.start());
        }
        long[] ready = new long[n];
        List<java.util.concurrent.CompletableFuture<?>> exits = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            int k = i;
            exits.add(started.get(i).onExit().thenRun(() -> ready[k] = System.nanoTime() - t0));
        }
        java.util.concurrent.CompletableFuture.allOf(exits.toArray(new java.util.concurrent.CompletableFuture[0]))
                .get(180, TimeUnit.SECONDS);
        long failed = started.stream().filter(p -> p.exitValue() != 0).count();
        double all = seconds(t0);
        java.util.Arrays.sort(ready);
        System.out.printf(Locale.ROOT, "%d agents %s AOT cache: all ready in %.2f s, median %.2f s%s%n", n,
                cache ? "with" : "without", all, ready[n / 2] / 1e9, failed == 0 ? "" : ", " + failed + " FAILED");
    }

    private static double seconds(long since) {
        return (System.nanoTime() - since) / 1e9;
    }
}
