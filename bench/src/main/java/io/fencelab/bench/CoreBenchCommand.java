package io.fencelab.bench;

import io.fencelab.app.cli.DatabaseOptions;
import io.fencelab.app.cli.ExitCodes;
import io.fencelab.engine.clock.LiveClock;
import io.fencelab.engine.db.Database;
import io.fencelab.engine.db.RunContext;
import io.fencelab.engine.db.Session;
import io.fencelab.engine.fence.FencedTarget;
import io.fencelab.engine.fence.FencingMode;
import io.fencelab.engine.fence.FirstWritePolicy;
import io.fencelab.engine.lease.LeaseService;
import java.io.IOException;
import java.io.PrintWriter;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.OptionalDouble;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * Engine-core benchmark: fenced writes and acquisitions per second through the engine's API, beside
 * the very same SQL statements driven by raw JDBC (same JVM and driver, no engine) and by pgbench,
 * all against one PostgreSQL in one run. Prints each ratio.
 */
@Command(name = "bench-core", mixinStandardHelpOptions = true,
        description = "Measure fenced writes/s and acquisitions/s through the engine against raw JDBC and "
                + "pgbench baselines running the same SQL, and print the ratios.")
public final class CoreBenchCommand implements Callable<Integer> {

    /** The engine must reach this fraction of the baseline at every client count. */
    static final double TARGET_RATIO = 0.9;

    @Mixin
    DatabaseOptions database = new DatabaseOptions();

    @Option(names = "--clients", split = ",", defaultValue = "1,4,16", description = "Client counts (default: ${DEFAULT-VALUE}).")
    List<Integer> clients;

    @Option(names = "--seconds", defaultValue = "3", description = "Measured seconds per point (default: ${DEFAULT-VALUE}).")
    int seconds;

    @Option(names = "--warmup", defaultValue = "1", description = "Warm-up seconds per point (default: ${DEFAULT-VALUE}).")
    int warmup;

    @Option(names = "--rounds", defaultValue = "5",
            description = "Alternating rounds per point; each figure is the median (default: ${DEFAULT-VALUE}).")
    int rounds;

    @Option(names = {"-v", "--verbose"}, description = "Print every round's figures.")
    boolean verbose;

    @Option(names = "--pgbench", defaultValue = "pgbench", description = "pgbench executable; 'none' to skip (default: ${DEFAULT-VALUE}).")
    String pgbench;

    @Spec
    CommandSpec spec;

    @Override
    public Integer call() throws IOException {
        PrintWriter out = spec.commandLine().getOut();
        try (BenchDatabase bench = BenchDatabase.open(database)) {
            Database db = bench.db();
            RunContext run = db.newRun("bench-core");
            Duration measure = Duration.ofSeconds(seconds);
            Duration warm = Duration.ofSeconds(warmup);
            Pgbench pg = "none".equals(pgbench) ? null : new Pgbench(pgbench, db);
            out.printf(Locale.ROOT, "Fencelab core bench: PostgreSQL %s (%s); median of %d alternating rounds of "
                            + "%d s after %d s warm-up%n",
                    db.serverVersion(), db.isEmbedded() ? "embedded, TCP localhost" : "external", rounds, seconds, warmup);
            out.printf(Locale.ROOT, "%-13s %7s %11s %11s %11s %12s %14s%n",
                    "operation", "clients", "engine/s", "jdbc/s", "pgbench/s", "engine÷jdbc", "engine÷pgbench");
            boolean allMet = true;
            for (Operation op : Operation.values()) {
                for (int c : clients) {
                    // Alternate the three drivers so drift in the server (table growth, caches) hits all alike.
                    List<Double> engines = new ArrayList<>();
                    List<Double> jdbcs = new ArrayList<>();
                    List<Double> pgbenches = new ArrayList<>();
                    for (int r = 0; r < rounds; r++) {
                        engines.add(Load.run(c, warm, measure, client -> op.engineLoop(run, client)));
                        jdbcs.add(Load.run(c, warm, measure, client -> op.jdbcLoop(db, run, client)));
                        if (pg != null) {
                            pg.tps(op.pgbenchScript(run), c, warm, measure).ifPresent(pgbenches::add);
                        }
                    }
                    if (verbose) {
                        out.printf(Locale.ROOT, "  rounds: engine %s, jdbc %s, pgbench %s%n", engines, jdbcs, pgbenches);
                    }
                    double engine = median(engines);
                    double jdbc = median(jdbcs);
                    OptionalDouble viaPgbench = pgbenches.isEmpty() ? OptionalDouble.empty()
                            : OptionalDouble.of(median(pgbenches));
                    double ratio = engine / jdbc;
                    allMet &= ratio >= TARGET_RATIO;
                    out.printf(Locale.ROOT, "%-13s %7d %11.0f %11.0f %11s %12.2f %14s%n",
                            op.label, c, engine, jdbc,
                            viaPgbench.isPresent() ? String.format(Locale.ROOT, "%.0f", viaPgbench.getAsDouble()) : "-",
                            ratio,
                            viaPgbench.isPresent() ? String.format(Locale.ROOT, "%.2f", engine / viaPgbench.getAsDouble()) : "-");
                    out.flush();
                }
            }
            out.printf(Locale.ROOT, "target: engine ≥ %.1f× the raw JDBC baseline at every point: %s%n",
                    TARGET_RATIO, allMet ? "met" : "NOT met");
            return ExitCodes.OK;
        }
    }

    private static double median(List<Double> values) {
        List<Double> sorted = values.stream().sorted().toList();
        int n = sorted.size();
        return n % 2 == 1 ? sorted.get(n / 2) : (sorted.get(n / 2 - 1) + sorted.get(n / 2)) / 2;
    }

    /** The two measured operations, each as engine call, raw JDBC statement and pgbench script. */
    enum Operation {
        FENCED_WRITE("fenced write") {
            @Override
            Load.ClientLoop engineLoop(RunContext run, int client) {
                FencedTarget<String> row = FencedTarget.row(run, FencingMode.FENCED, FirstWritePolicy.CREATE);
                String key = "engine-" + client;
                Session session = run.database().openSession();
                // An equal token is accepted, so every write takes the accepted path.
                return Load.ClientLoop.closing(session, () -> row.write(session, "bench", key, 1, null, "body"));
            }

            @Override
            Load.ClientLoop jdbcLoop(Database db, RunContext run, int client) {
                return RawJdbc.fencedWrite(db, run.runId(), "jdbc-" + client);
            }

            @Override
            String pgbenchScript(RunContext run) {
                return "SELECT outcome, highest, highest_seq FROM fenced_write_row(" + run.runId()
                        + ", 'bench', 'pgbench-' || :client_id, 1, NULL, true, 'body');\n";
            }
        },
        ACQUIRE("acquire") {
            @Override
            Load.ClientLoop engineLoop(RunContext run, int client) {
                LeaseService leases = new LeaseService(run, new LiveClock());
                String scope = "engine-" + client;
                Session session = run.database().openSession();
                // A 1 µs lease has expired by the next statement, so every call is a real grant.
                return Load.ClientLoop.closing(session,
                        () -> leases.acquire(session, scope, "holder", Duration.ofNanos(1_000)));
            }

            @Override
            Load.ClientLoop jdbcLoop(Database db, RunContext run, int client) {
                return RawJdbc.acquire(db, run.runId(), "jdbc-" + client);
            }

            @Override
            String pgbenchScript(RunContext run) {
                // pgbench's own variables stand where the engine binds parameters, in the same order.
                String[] values = {Long.toString(run.runId()), "'pgbench-' || :client_id", "'holder'", "1", "NULL"};
                String sql = LeaseService.ACQUIRE;
                for (String value : values) {
                    sql = sql.replaceFirst("\\?", java.util.regex.Matcher.quoteReplacement(value));
                }
                return sql.replaceAll("\\s*\\n\\s*", " ") + ";\n";
            }
        };

        final String label;

        Operation(String label) {
            this.label = label;
        }

        abstract Load.ClientLoop engineLoop(RunContext run, int client);

        abstract Load.ClientLoop jdbcLoop(Database db, RunContext run, int client);

        abstract String pgbenchScript(RunContext run);
    }
}
