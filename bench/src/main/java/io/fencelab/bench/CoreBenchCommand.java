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
import io.fencelab.engine.resource.TargetKind;
import java.io.IOException;
import java.io.PrintWriter;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.concurrent.Callable;
import java.util.function.ToDoubleFunction;
import java.util.regex.Matcher;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * Engine-core benchmark: fenced writes and acquisitions through the engine's API, beside the very
 * same SQL statements driven by raw JDBC (same JVM and driver, no engine) and by pgbench, all against
 * one PostgreSQL in one run. Prints, for each point, the throughput and the client threads' CPU time
 * per operation, each with the spread of its rounds, and the engine's ratio to raw JDBC.
 *
 * <p>The CPU figure is the one the target is judged on: with clients and server on the same few
 * cores, throughput follows how the cores happen to be shared and swings from run to run, while the
 * CPU a client spends per operation is what the engine's layers add (see {@link Load}).
 */
@Command(name = "bench-core", mixinStandardHelpOptions = true,
        description = "Measure fenced writes and acquisitions through the engine against raw JDBC and "
                + "pgbench baselines running the same SQL: throughput and client CPU time per operation, "
                + "each with the spread of its rounds, and the engine's ratios.")
public final class CoreBenchCommand implements Callable<Integer> {

    /** The engine's client CPU per operation may be at most this multiple of raw JDBC's, at every point. */
    static final double TARGET_CPU_RATIO = 1.10;

    @Mixin
    DatabaseOptions database = new DatabaseOptions();

    @Option(names = "--operations", split = ",", defaultValue = "fenced_write,acquire",
            description = "Operations to measure, of ${COMPLETION-CANDIDATES} (default: ${DEFAULT-VALUE}).")
    List<Operation> operations;

    @Option(names = "--clients", split = ",", defaultValue = "1,4,16", description = "Client counts (default: ${DEFAULT-VALUE}).")
    List<Integer> clients;

    @Option(names = "--seconds", defaultValue = "3",
            description = "Measured seconds per driver and round (engine and raw JDBC take turns, so a round's "
                    + "window is twice this) (default: ${DEFAULT-VALUE}).")
    int seconds;

    @Option(names = "--warmup", defaultValue = "1", description = "Warm-up seconds per driver and round (default: ${DEFAULT-VALUE}).")
    int warmup;

    @Option(names = "--slice", defaultValue = "100",
            description = "Milliseconds the engine and raw JDBC each keep the turn within a round's window "
                    + "(default: ${DEFAULT-VALUE}).")
    int sliceMillis;

    @Option(names = "--jit-warmup", defaultValue = "4",
            description = "Unmeasured seconds, before the first point, that run every driver once so the JIT has "
                    + "compiled both hot paths; 0 for none (default: ${DEFAULT-VALUE}).")
    int jitWarmup;

    @Option(names = "--rounds", defaultValue = "5",
            description = "Rounds per point; each figure is printed as min/median/max over them "
                    + "(default: ${DEFAULT-VALUE}).")
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
        if (rounds < 1 || seconds < 1 || sliceMillis < 1 || warmup < 0 || jitWarmup < 0 || clients.stream().anyMatch(c -> c < 1)) {
            spec.commandLine().getErr().println("bench-core: --rounds, --seconds, --slice and every --clients count "
                    + "must be at least 1, --warmup and --jit-warmup at least 0");
            return ExitCodes.BAD_INPUT;
        }
        try (BenchDatabase bench = BenchDatabase.open(database)) {
            Database db = bench.db();
            RunContext run = db.newRun("bench-core");
            Duration measure = Duration.ofSeconds(seconds);
            Duration warm = Duration.ofSeconds(warmup);
            Pgbench pg = "none".equals(pgbench) ? null : new Pgbench(pgbench, db);
            out.printf(Locale.ROOT, "Fencelab core bench: PostgreSQL %s (%s), %d cores; %d rounds per point, each "
                            + "%d s measured per driver after %d s warm-up; engine and raw JDBC take turns in %d ms "
                            + "slices of one window, pgbench runs after them%n",
                    db.serverVersion(), db.isEmbedded() ? "embedded, TCP localhost" : "external",
                    Runtime.getRuntime().availableProcessors(), rounds, seconds, warmup, sliceMillis);
            out.println("Figures are min/median/max over the rounds; engine÷jdbc is taken round by round "
                    + "(median, or min/median/max), engine÷pgbench compares medians.");
            out.println();
            warmJit(run, db);
            out.println("Throughput, operations per second (follows how the cores are shared when they are saturated)");
            out.printf(Locale.ROOT, "%-13s %7s %19s %19s %19s %12s %15s%n",
                    "operation", "clients", "engine/s", "jdbc/s", "pgbench/s", "engine÷jdbc", "engine÷pgbench");
            List<Point> points = new ArrayList<>();
            for (Operation op : operations) {
                for (int c : clients) {
                    Point point = measure(op, c, run, db, pg, warm, measure, out);
                    points.add(point);
                    Spread engine = point.engineRate();
                    Spread jdbc = point.jdbcRate();
                    Optional<Spread> viaPgbench = point.pgbenchRate();
                    out.printf(Locale.ROOT, "%-13s %7d %19s %19s %19s %12.2f %15s%n",
                            op.label, c, engine.format(0), jdbc.format(0),
                            viaPgbench.map(s -> s.format(0)).orElse("-"),
                            point.rateRatio(),
                            viaPgbench.map(s -> String.format(Locale.ROOT, "%.2f", engine.median() / s.median())).orElse("-"));
                    out.flush();
                }
            }
            out.println();
            out.println("Client CPU per operation, µs (the client threads' own CPU time over the operations they did)");
            out.printf(Locale.ROOT, "%-13s %7s %19s %19s %16s %12s %10s%n",
                    "operation", "clients", "engine µs/op", "jdbc µs/op", "engine÷jdbc", "engine B/op", "jdbc B/op");
            boolean allMet = true;
            for (Point p : points) {
                Spread ratio = p.cpuRatio();
                allMet &= ratio.median() <= TARGET_CPU_RATIO;
                out.printf(Locale.ROOT, "%-13s %7d %19s %19s %16s %12s %10s%n",
                        p.op().label, p.clients(), p.engineCpu().format(1), p.jdbcCpu().format(1), ratio.format(2),
                        bytes(p.engine()), bytes(p.jdbc()));
            }
            out.printf(Locale.ROOT, "target: engine's client CPU per operation ≤ %.2f× raw JDBC's at every point: %s%n",
                    TARGET_CPU_RATIO, allMet ? "met" : "NOT met");
            return ExitCodes.OK;
        }
    }

    /** One operation at one client count: engine and raw JDBC taking turns in one window, then pgbench, round after round. */
    private Point measure(Operation op, int c, RunContext run, Database db, Pgbench pg, Duration warm, Duration measure,
                          PrintWriter out) throws IOException {
        List<Load.Measurement> engine = new ArrayList<>();
        List<Load.Measurement> jdbc = new ArrayList<>();
        List<Double> pgbenches = new ArrayList<>();
        for (int r = 0; r < rounds; r++) {
            List<Load.Measurement> both = Load.interleaved(c, warm, measure, Duration.ofMillis(sliceMillis),
                    List.of(client -> op.engineLoop(run, client), client -> op.jdbcLoop(db, run, client)));
            engine.add(both.get(0));
            jdbc.add(both.get(1));
            if (pg != null) {
                pg.tps(op.pgbenchScript(run), c, warm, measure).ifPresent(pgbenches::add);
            }
        }
        Point point = new Point(op, c, engine, jdbc, pgbenches);
        if (verbose) {
            out.printf(Locale.ROOT, "  %s, %d clients, per round: engine/s %s, jdbc/s %s, pgbench/s %s; "
                            + "engine µs/op %s, jdbc µs/op %s%n",
                    op.label, c, rounded(engine, Load.Measurement::perSecond, 0), rounded(jdbc, Load.Measurement::perSecond, 0),
                    pgbenches.stream().map(v -> String.format(Locale.ROOT, "%.0f", v)).toList(),
                    rounded(engine, Load.Measurement::cpuMicrosPerOperation, 1),
                    rounded(jdbc, Load.Measurement::cpuMicrosPerOperation, 1));
        }
        return point;
    }

    /**
     * Runs every operation's engine and baseline drivers, unmeasured, so the JIT has compiled both
     * hot paths before the first point: otherwise that point measures the interpreter.
     */
    private void warmJit(RunContext run, Database db) {
        if (jitWarmup <= 0) {
            return;
        }
        Duration each = Duration.ofMillis(jitWarmup * 1000L / operations.size() / 2);
        for (Operation op : operations) {
            Load.interleaved(1, Duration.ZERO, each, Duration.ofMillis(sliceMillis),
                    List.of(client -> op.engineLoop(run, client), client -> op.jdbcLoop(db, run, client)));
        }
    }

    private static List<String> rounded(List<Load.Measurement> rounds, ToDoubleFunction<Load.Measurement> figure, int decimals) {
        return rounds.stream().map(m -> String.format(Locale.ROOT, "%." + decimals + "f", figure.applyAsDouble(m))).toList();
    }

    /** The median bytes allocated per operation, or "-" if the JVM does not count them. */
    private static String bytes(List<Load.Measurement> rounds) {
        Spread s = Spread.of(rounds.stream().map(Load.Measurement::bytesPerOperation).toList());
        return Double.isNaN(s.median()) ? "-" : String.format(Locale.ROOT, "%.0f", s.median());
    }

    /** The rounds of one point. */
    private record Point(Operation op, int clients, List<Load.Measurement> engine, List<Load.Measurement> jdbc,
                         List<Double> pgbench) {

        Spread engineRate() {
            return spread(engine, Load.Measurement::perSecond);
        }

        Spread jdbcRate() {
            return spread(jdbc, Load.Measurement::perSecond);
        }

        Optional<Spread> pgbenchRate() {
            return pgbench.isEmpty() ? Optional.empty() : Optional.of(Spread.of(pgbench));
        }

        Spread engineCpu() {
            return spread(engine, Load.Measurement::cpuMicrosPerOperation);
        }

        Spread jdbcCpu() {
            return spread(jdbc, Load.Measurement::cpuMicrosPerOperation);
        }

        /** The engine's CPU per operation over raw JDBC's, round by round (each round measured both in one window). */
        Spread cpuRatio() {
            List<Double> ratios = new ArrayList<>();
            for (int r = 0; r < engine.size(); r++) {
                ratios.add(engine.get(r).cpuMicrosPerOperation() / jdbc.get(r).cpuMicrosPerOperation());
            }
            return Spread.of(ratios);
        }

        /** The engine's throughput over raw JDBC's, round by round. */
        double rateRatio() {
            List<Double> ratios = new ArrayList<>();
            for (int r = 0; r < engine.size(); r++) {
                ratios.add(engine.get(r).perSecond() / jdbc.get(r).perSecond());
            }
            return Spread.of(ratios).median();
        }

        private static Spread spread(List<Load.Measurement> rounds, ToDoubleFunction<Load.Measurement> figure) {
            return Spread.of(rounds.stream().map(figure::applyAsDouble).toList());
        }
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
                String[] values = {Long.toString(run.runId()), "'bench'", "'pgbench-' || :client_id", "1", "NULL",
                        "true", "'body'"};
                return script(FencedTarget.fencedWriteStatement(TargetKind.ROW), values);
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
                return script(LeaseService.ACQUIRE, values);
            }
        };

        final String label;

        Operation(String label) {
            this.label = label;
        }

        abstract Load.ClientLoop engineLoop(RunContext run, int client);

        abstract Load.ClientLoop jdbcLoop(Database db, RunContext run, int client);

        abstract String pgbenchScript(RunContext run);

        /** {@code sql} as a one-line pgbench script, its parameters replaced by {@code values} in order. */
        private static String script(String sql, String[] values) {
            String filled = sql;
            for (String value : values) {
                filled = filled.replaceFirst("\\?", Matcher.quoteReplacement(value));
            }
            return filled.replaceAll("\\s*\\n\\s*", " ") + ";\n";
        }
    }
}
