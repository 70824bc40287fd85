package io.fencelab.app.cli;

import io.fencelab.app.service.CalibrationRuns;
import io.fencelab.engine.db.Database;
import io.fencelab.engine.files.FileProblem;
import io.fencelab.engine.lease.ServiceKind;
import io.fencelab.engine.run.ExecutorKind;
import io.fencelab.engine.run.RunResult;
import io.fencelab.engine.run.RunSpec;
import io.fencelab.engine.store.RealServices;
import io.fencelab.engine.tune.AxisValue;
import io.fencelab.report.Calibration;
import io.fencelab.report.CalibrationJson;
import io.fencelab.report.CalibrationPage;
import io.fencelab.report.SweepReport;
import io.fencelab.scenarios.Catalog;
import io.fencelab.scenarios.Scenario;
import io.fencelab.scenarios.ScenarioSource;
import io.fencelab.scenarios.ScenarioVariation;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Callable;
import java.util.stream.LongStream;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/**
 * {@code fencelab calibrate}: runs a scenario on a lease service's model (its profile on Fencelab's
 * lease table, simulated, many seeds) and on the real service (each worker its own JVM, a few seeds)
 * at every pause length of a grid, and shows the figures tuning relies on side by side, saying where
 * they differ.
 */
@Command(name = "calibrate", mixinStandardHelpOptions = true,
        description = "Compare a lease service's model with the real service: failover, notice time, lease losses, "
                + "load, and the longest pause that keeps the lease.",
        footer = {"", "Examples:",
            "  fencelab calibrate paused-holder --service redis",
            "  fencelab calibrate my-story.yaml --service etcd --model-seeds 50 --real-runs 3 --pauses 2s,6s,10s "
                + "--report cal/",
            "", "docs/TUNING.md (Calibration) explains the figures and the rule for 'differs'.",
            "", "Exit codes: 0 done, 2 bad input or usage, 3 the runs could not complete (for example the service "
                + "or the database went away)."})
public final class CalibrateCommand implements Callable<Integer> {

    @Parameters(paramLabel = "SCENARIO", description = "A catalog name (see 'fencelab list') or a scenario file, with "
            + "a PAUSE fault (the first one's length is varied).")
    String scenario;

    @Option(names = "--service", paramLabel = "SERVICE", required = true,
            description = "The real service to compare with its model: etcd, zookeeper or redis.")
    String service;

    @Option(names = "--model-seeds", paramLabel = "N", defaultValue = "50",
            description = "Model runs per pause length, seeds from the scenario's own on (default: ${DEFAULT-VALUE}).")
    int modelSeeds;

    @Option(names = "--real-runs", paramLabel = "N", defaultValue = "3",
            description = "Real runs per pause length, seeds from the scenario's own on (default: ${DEFAULT-VALUE}).")
    int realRuns;

    @Option(names = "--pauses", paramLabel = "D1,D2,…",
            description = "The lengths given to the scenario's first PAUSE fault (default: 0.5, 0.8, 1.2 and 2 times "
                    + "the lease's lifetime).")
    String pauses;

    @Option(names = "--report", paramLabel = "DIR", description = "Write calibration.html and calibration.json into DIR.")
    Path reportDir;

    @Mixin
    DatabaseOptions database = new DatabaseOptions();

    /** Where the service is (--etcd-endpoints, --zookeeper, --redis-url) and its token, as for a run. */
    @Mixin
    ServiceOptions services = new ServiceOptions();

    @Spec
    CommandSpec spec;

    @Override
    public Integer call() throws Exception {
        PrintWriter out = spec.commandLine().getOut();
        PrintWriter err = spec.commandLine().getErr();
        ServiceKind kind = ServiceKind.named(service).filter(k -> k != ServiceKind.POSTGRES).orElseThrow(() ->
                new IllegalArgumentException("--service must be etcd, zookeeper or redis, was '" + service + "'"));
        if (services.service != null) {
            throw new IllegalArgumentException("calibrate takes the service as --service, not --lease-service");
        }
        if (modelSeeds < 1 || realRuns < 1) {
            throw new IllegalArgumentException("--model-seeds and --real-runs must be at least 1, were " + modelSeeds
                    + " and " + realRuns);
        }
        if (reportDir != null) {
            FileProblem.requireDirectoryOrAbsent("--report", reportDir);
        }
        ScenarioSource source = Catalog.shipped().source(scenario);
        Scenario sc = source.compile();
        services.service = kind.key();
        RunSpec real = services.apply(sc.spec()).withExecutor(ExecutorKind.PROCESS);
        int fault = CalibrationRuns.pauseFault(real);
        List<Duration> grid = pauses == null ? CalibrationRuns.defaultPauses(real.lease().grantTtl())
                : grid(source, fault, pauses);
        List<Long> modelList = LongStream.range(0, modelSeeds).map(i -> real.seed() + i).boxed().toList();
        List<Long> realList = LongStream.range(0, realRuns).map(i -> real.seed() + i).boxed().toList();

        out.printf(Locale.ROOT, "calibrating %s on %s: %s; pauses %s (%s)%n", sc.name(), kind.key(),
                real.lease().describe(), String.join(", ", grid.stream().map(CalibrateCommand::seconds).toList()),
                "the length of the scenario's first PAUSE fault");
        out.printf(Locale.ROOT, "model: %d simulated runs per pause; real: %d process runs per pause%n", modelSeeds,
                realRuns);
        out.flush();
        RealServices.Server server = null;
        String source1;
        try (Database db = Database.open(database.resolve(), 64)) {
            RunSpec onServer = real;
            if (real.service().needsServer()) {
                server = RealServices.require().start(kind, real.service().members());
                onServer = real.withService(real.service().withEndpoints(server.endpoints()));
                source1 = "started by Fencelab from this machine's " + kind.key() + " package for these runs";
            } else {
                source1 = "yours (" + switch (kind) {
                    case ETCD -> "--etcd-endpoints";
                    case ZOOKEEPER -> "--zookeeper";
                    default -> services.redisUrl != null ? "--redis-url" : ServiceOptions.ENV_REDIS_URL;
                } + "; the address is not written here)";
            }
            CalibrationRuns runs = new CalibrationRuns(onServer, grid, modelList, realList);
            Calibration c = runs.run(db, (isReal, pause, seed, result, missed) -> progress(err, isReal, pause, seed, result, missed),
                    new CalibrationRuns.CalibrationHeader(sc.name(), source1));
            print(out, c);
            if (reportDir != null) {
                Files.createDirectories(reportDir);
                CalibrationPage.write(reportDir.resolve("calibration.html"), c);
                CalibrationJson.write(reportDir.resolve("calibration.json"), c);
                out.printf("report: %s%n", reportDir.resolve("calibration.html"));
            }
            out.flush();
            return ExitCodes.OK;
        } catch (IllegalStateException e) {
            // A server that would not start, or a run that failed: the work could not complete.
            err.println("fencelab: " + e.getMessage());
            err.flush();
            return ExitCodes.RUN_INCOMPLETE;
        } finally {
            if (server != null) {
                server.close();
            }
        }
    }

    /** {@code --pauses} in the scenario's own duration syntax, read as a sweep reads its values. */
    static List<Duration> grid(ScenarioSource source, int fault, String pauses) {
        try {
            List<AxisValue> values = ScenarioVariation.of(source).axis("faults[" + fault + "].duration=" + pauses)
                    .values();
            return values.stream().map(v -> Duration.ofNanos(Math.round(v.value() * 1e9))).sorted().toList();
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("--pauses '" + pauses + "': " + e.getMessage(), e);
        }
    }

    private static void progress(PrintWriter err, boolean real, Duration pause, long seed, RunResult r,
            boolean missed) {
        if (real) {
            err.printf(Locale.ROOT, "  real run, pause %s, seed %d: %s, %d lease losses%s%n", seconds(pause), seed,
                    r.endReason(), r.tuning().episodes().leaseLosses().size(),
                    missed ? " (the pause found its holder holding no lease: this run says nothing of the pause)" : "");
            err.flush();
        }
    }

    /** The text table: model and real median / p90 per figure, "differs" where the rule says so. */
    static void print(PrintWriter out, Calibration c) {
        out.printf("service: %s; server: %s%n", c.serviceVersion(), c.serverSource());
        out.printf("%-46s %-22s %-22s%n", "figure", "model median / p90 (n)", "real median / p90 (n)");
        for (Calibration.Figure f : c.figures()) {
            out.printf("%-46s %-22s %-22s %s%n", f.title() + " (" + f.unit() + ")", f.modelSpread().brief(),
                    f.realSpread().brief(), f.differs().map(w -> "differs: " + w).orElse(""));
        }
        out.printf("%-46s %-22s %-22s%n", "pause: runs that lost a lease", "model", "real");
        for (Calibration.PauseRow p : c.pauses()) {
            out.printf("%-46s %-22s %-22s %s%n", SweepReport.fmt(p.pauseSeconds()) + " s", p.modelLost() + " of "
                    + p.modelRuns(), p.realLost() + " of " + p.realRuns(), p.agrees() ? "" : "differs");
        }
        out.printf("survivable-pause edge: model %s; real %s%s%n", c.modelEdge().words(), c.realEdge().words(),
                c.edgesAgree() ? " (they agree)" : " (they DIFFER)");
        out.printf(Locale.ROOT, "differs: one side's median outside the other's least..greatest, widened by the larger of "
                + "the figure's tolerance and %d %% of the other's median; or only one side with values%n",
                Math.round(Calibration.RELATIVE_SLACK * 100));
    }

    private static String seconds(Duration d) {
        return SweepReport.fmt(d.toMillis() / 1e3) + "s";
    }
}
