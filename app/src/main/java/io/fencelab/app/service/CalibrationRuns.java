package io.fencelab.app.service;

import io.fencelab.engine.chaos.Distribution;
import io.fencelab.engine.chaos.FaultKind;
import io.fencelab.engine.chaos.FaultSpec;
import io.fencelab.engine.chaos.FaultStart;
import io.fencelab.engine.db.Database;
import io.fencelab.engine.event.Event;
import io.fencelab.engine.event.EventLogReader;
import io.fencelab.engine.lease.LeaseServiceSpec;
import io.fencelab.engine.metrics.Failover;
import io.fencelab.engine.metrics.LeaseLoss;
import io.fencelab.engine.metrics.TuningEpisodes;
import io.fencelab.engine.run.Backend;
import io.fencelab.engine.run.ExecutorKind;
import io.fencelab.engine.run.Run;
import io.fencelab.engine.run.RunResult;
import io.fencelab.engine.run.RunSpec;
import io.fencelab.report.Calibration;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * {@code fencelab calibrate}'s runs: one scenario run on the model (its service's profile on
 * Fencelab's lease table, simulated, fastest backend) with many seeds, and on the real service
 * (each worker its own JVM) with a few, at every pause length of a grid (the length of the
 * scenario's first {@code PAUSE} fault). Gathers the figures tuning relies on from each run's own
 * tuning episodes and totals ({@code TuningCollector}, the one place they are worked out) into a
 * {@link Calibration}.
 */
public final class CalibrationRuns {

    /** What the runs are told as they finish. */
    public interface Progress {
        /**
         * @param missed the paused holder held no lease when its pause began (its client was still starting,
         *               say): the run's figures do not show what the pause does to a lease
         */
        void runDone(boolean real, Duration pause, long seed, RunResult result, boolean missed);
    }

    /** Each figure the page compares, as {@link Calibration.Figure} names it. */
    private static final String[][] FIGURES = {
        {"failoverSeconds", "failover time", "s", "failover", "0.5"},
        {"noticeSeconds", "time for the holder to notice its lost lease", "s", "noticed loss", "0.5"},
        {"leaseLosses", "lease losses", "per run", "run", "0"},
        {"leaseLoadPerSecond", "lease-service load (acquire and renew calls)", "per s", "run", "0.1"},
    };

    private final RunSpec real;
    private final RunSpec model;
    private final int pauseFault;
    private final List<Duration> pauses;
    private final List<Long> modelSeeds;
    private final List<Long> realSeeds;

    /**
     * @param real       the scenario on the real service, executor process, its server's endpoints filled in
     * @param pauses     the pause lengths, shortest first
     * @param modelSeeds the model's seeds
     * @param realSeeds  the real runs' seeds
     */
    public CalibrationRuns(RunSpec real, List<Duration> pauses, List<Long> modelSeeds, List<Long> realSeeds) {
        this.real = real;
        this.model = modelOf(real);
        this.pauseFault = pauseFault(real);
        this.pauses = pauses.stream().sorted().toList();
        this.modelSeeds = List.copyOf(modelSeeds);
        this.realSeeds = List.copyOf(realSeeds);
    }

    /** The model of {@code real}: the same scenario and profile on Fencelab's lease table, simulated. */
    public static RunSpec modelOf(RunSpec real) {
        return real.toBuilder().service(LeaseServiceSpec.POSTGRES).executor(ExecutorKind.SIMULATED).build();
    }

    /**
     * The index of the scenario's first {@code PAUSE} fault, the one whose length the grid varies.
     *
     * @throws IllegalArgumentException when it has none
     */
    public static int pauseFault(RunSpec spec) {
        for (int i = 0; i < spec.faults().size(); i++) {
            if (spec.faults().get(i).kind() == FaultKind.PAUSE) {
                return i;
            }
        }
        throw new IllegalArgumentException("scenario '" + spec.name() + "' has no PAUSE fault: calibrate varies the "
                + "length of the first one; add one on the holder, e.g. {kind: PAUSE, target: A, at: 2s, duration: 1s}");
    }

    /** The default grid: half, 0.8, 1.2 and twice the lease's lifetime, to the 100 ms. */
    public static List<Duration> defaultPauses(Duration lifetime) {
        List<Duration> out = new ArrayList<>();
        for (double f : new double[] {0.5, 0.8, 1.2, 2.0}) {
            out.add(Duration.ofMillis(Math.max(100, Math.round(lifetime.toMillis() * f / 100.0) * 100)));
        }
        return out;
    }

    /** {@code spec} with its first PAUSE fault lasting {@code length}. */
    static RunSpec withPause(RunSpec spec, int index, Duration length) {
        List<FaultSpec> faults = new ArrayList<>(spec.faults());
        FaultSpec f = faults.get(index);
        faults.set(index, new FaultSpec(f.kind(), f.target(), f.start(), new Distribution.Fixed(length), f.amount(),
                f.identity()));
        return spec.toBuilder().faults(faults).build();
    }

    /** The varied pause in words: {@code PAUSE on A at 2s}. */
    public String pauseAt() {
        FaultSpec f = real.faults().get(pauseFault);
        String when = f.start() instanceof FaultStart.At at ? " at " + seconds(at.at()) : " (" + f.start() + ")";
        return "PAUSE on " + f.target() + when;
    }

    public RunSpec model() {
        return model;
    }

    /** Runs the model and the real service at every pause length and gathers the figures. */
    public Calibration run(Database db, Progress progress, CalibrationHeader header) throws InterruptedException,
            IOException {
        Map<String, List<Double>> modelValues = new HashMap<>();
        Map<String, List<Double>> realValues = new HashMap<>();
        String version = null;
        List<Calibration.PauseRow> rows = new ArrayList<>();
        for (Duration pause : pauses) {
            int modelLost = 0;
            for (long seed : modelSeeds) {
                Once o = once(db, withPause(model, pauseFault, pause).withSeed(seed), Backend.fastestFor(model),
                        modelValues);
                modelLost += lostALease(o.result()) ? 1 : 0;
                progress.runDone(false, pause, seed, o.result(), o.missed());
            }
            int realLost = 0;
            for (long seed : realSeeds) {
                Once o = once(db, withPause(real, pauseFault, pause).withSeed(seed), Backend.POSTGRES, realValues);
                version = serviceWords(o.result().database());
                realLost += lostALease(o.result()) ? 1 : 0;
                progress.runDone(true, pause, seed, o.result(), o.missed());
            }
            rows.add(new Calibration.PauseRow(pause.toMillis() / 1e3, modelSeeds.size(), modelLost, realSeeds.size(),
                    realLost));
        }
        List<Calibration.Figure> figures = new ArrayList<>();
        for (String[] f : FIGURES) {
            figures.add(new Calibration.Figure(f[0], f[1], f[2], f[3], Double.parseDouble(f[4]),
                    modelValues.getOrDefault(f[0], List.of()), realValues.getOrDefault(f[0], List.of())));
        }
        return new Calibration(header.scenario(), real.service().kind().key(), version, header.serverSource(),
                real.lease().describe(), modelSeeds, realSeeds, pauseAt(), figures, rows);
    }

    /** The words about the calibration that the runs do not know. */
    public record CalibrationHeader(String scenario, String serverSource) {}

    /** One run's result, and whether its pause found the holder without a lease. */
    private record Once(RunResult result, boolean missed) {}

    /** Runs {@code spec} once and adds its values to {@code into}; its event log is removed after. */
    private static Once once(Database db, RunSpec spec, Backend backend, Map<String, List<Double>> into)
            throws InterruptedException, IOException {
        Path log = Files.createTempFile("fencelab-calibrate", ".jsonl");
        try (Run run = Run.prepare(db, spec, log, backend)) {
            RunResult result = run.runToEnd();
            if (result.failed()) {
                throw new IllegalStateException("the run of seed " + spec.seed() + " with the pause "
                        + seconds(((Distribution.Fixed) spec.faults().get(pauseFault(spec)).duration()).value())
                        + " on " + result.database() + " failed: " + result.failureCause().orElse("no cause given"));
            }
            List<Event> events = EventLogReader.read(result.eventLog());
            gather(result, events, into);
            return new Once(result, !pauseFoundALease(events, spec.faults().get(pauseFault(spec)).target()));
        } finally {
            Files.deleteIfExists(log);
        }
    }

    /** Whether {@code holder} believed it held a lease when its first pause began (true if it never paused). */
    static boolean pauseFoundALease(List<Event> events, String holder) {
        int believing = 0;
        for (Event e : events) {
            switch (e) {
                case Event.BeliefStarted b when b.holder().equals(holder) -> believing++;
                case Event.BeliefEnded b when b.holder().equals(holder) -> believing--;
                case Event.PauseStarted p when p.holder().equals(holder) -> {
                    return believing > 0;
                }
                default -> { }
            }
        }
        return true;
    }

    private static boolean lostALease(RunResult r) {
        TuningEpisodes e = r.tuning().episodes();
        return e.leaseLosses().size() + e.leaseLossesLeftOut() > 0;
    }

    /** Adds one run's values to {@code into}. */
    private static void gather(RunResult r, List<Event> events, Map<String, List<Double>> into) {
        TuningEpisodes episodes = r.tuning().episodes();
        for (Failover f : episodes.failovers()) {
            if (f.micros() != null) {
                into.computeIfAbsent("failoverSeconds", k -> new ArrayList<>()).add(f.micros() / 1e6);
            }
        }
        long losses = episodes.leaseLosses().size() + episodes.leaseLossesLeftOut();
        into.computeIfAbsent("leaseLosses", k -> new ArrayList<>()).add((double) losses);
        into.computeIfAbsent("leaseLoadPerSecond", k -> new ArrayList<>()).add(r.tuning().totals().leaseLoadPerSecond());
        into.computeIfAbsent("noticeSeconds", k -> new ArrayList<>()).addAll(noticeSeconds(episodes.leaseLosses(), events));
    }

    /**
     * How long after its lease's expiry (as the last grant or renewal of that token gave it) each
     * holder that lost a lease first showed that it knew: a failed renewal, the end of its belief, or
     * a write the fence refused, with that token. A holder that stepped down before the expiry noticed
     * at once (0); one that never showed it before the run ended gives no value.
     */
    static List<Double> noticeSeconds(List<LeaseLoss> losses, List<Event> events) {
        List<Double> out = new ArrayList<>();
        for (LeaseLoss loss : losses) {
            Long expiry = null;
            Long noticed = null;
            for (Event e : events) {
                if (!loss.holder().equals(e.holder()) || e.tokenOrNull() == null
                        || e.tokenOrNull().longValue() != loss.token()) {
                    continue;
                }
                if (e instanceof Event.LeaseAcquired a) {
                    expiry = a.expiresAtMicros();
                } else if (e instanceof Event.LeaseRenewed r) {
                    expiry = r.expiresAtMicros();
                } else if (expiry != null && (e instanceof Event.LeaseRenewalFailed || e instanceof Event.BeliefEnded
                        || e instanceof Event.WriteRejectedStale)) {
                    noticed = e.atMicros();
                    break;
                }
            }
            if (noticed != null) {
                out.add(Math.max(0, noticed - expiry) / 1e6);
            }
        }
        return out;
    }

    /**
     * The service and its client from a real run's store description ({@code PostgreSQL 17.6; leases
     * from Redis at 127.0.0.1:40735 (Redisson 4.0.0, …), tokens: …}), without the address.
     */
    static String serviceWords(String database) {
        int from = database.indexOf("leases from ");
        String s = from < 0 ? database : database.substring(from + "leases from ".length());
        int tokens = s.indexOf(", tokens:");
        s = tokens < 0 ? s : s.substring(0, tokens);
        return s.replaceAll(" at [^ ]+", "");
    }

    static String seconds(Duration d) {
        return io.fencelab.report.SweepReport.fmt(d.toMillis() / 1e3) + "s";
    }
}
