package io.fencelab.app.console.run;

import io.fencelab.app.console.model.Parameters;
import io.fencelab.engine.chaos.Distribution;
import io.fencelab.engine.chaos.FaultKind;
import io.fencelab.engine.chaos.FaultSpec;
import io.fencelab.engine.chaos.FaultStart;
import io.fencelab.engine.lease.LeaseProfile;
import io.fencelab.engine.run.RunSpec;
import io.fencelab.engine.run.UserFences;
import io.fencelab.engine.worker.WorkerSpec;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Turns the parameter sheet's values into a run spec, starting from the scenario's own spec, and
 * adds faults injected by hand. Pure: the same inputs give the same spec, so a simulated run
 * restarted with the same seed replays what came before.
 */
public final class SpecEditor {

    /** Mean gap between random pauses added to a scenario that had none. */
    static final Duration ADDED_PAUSE_GAP = Duration.ofSeconds(10);
    /** Extra holders start this much after the one they copy, each a little later than the last. */
    static final Duration EXTRA_STAGGER = Duration.ofMillis(500);

    private SpecEditor() {
    }

    /** The sheet's values for a scenario as written. */
    public static Parameters parametersOf(RunSpec spec) {
        return new Parameters(seconds(spec.leaseTtl()), seconds(spec.renewInterval()), spec.workers().size(),
                Parameters.PauseLength.AS_SCENARIO, 10, 0, spec.fencing(), spec.tokenScheme(), spec.executor(),
                spec.service());
    }

    /**
     * {@code base} with {@code p} applied; on a real lease service the lease client becomes that
     * service's with the sheet's ttl, as {@code --lease-service} does ({@link io.fencelab.engine.lease.ServiceKind#clientOf}).
     */
    public static RunSpec apply(RunSpec base, Parameters p) {
        List<WorkerSpec> workers = resize(base.workers(), p.workers());
        Set<String> names = new HashSet<>();
        workers.forEach(w -> names.add(w.name()));
        List<FaultSpec> faults = new ArrayList<>();
        for (FaultSpec f : base.faults()) {
            boolean targetGone = !FaultSpec.ALL.equals(f.target()) && !FaultSpec.DATABASE.equals(f.target())
                    && !names.contains(f.target());
            if (targetGone) {
                continue;
            }
            if (f.kind() == FaultKind.PAUSE) {
                switch (p.pauses()) {
                    case AS_SCENARIO -> faults.add(f);
                    case NONE -> { }
                    default -> faults.add(new FaultSpec(f.kind(), f.target(), f.start(),
                            p.pauses().distribution(p.pauseSeconds()), f.amount()));
                }
            } else {
                faults.add(f);
            }
        }
        boolean pausesWanted = p.pauses() != Parameters.PauseLength.AS_SCENARIO && p.pauses() != Parameters.PauseLength.NONE;
        if (pausesWanted && !Parameters.hasPauses(base.faults())) {
            faults.add(new FaultSpec(FaultKind.PAUSE, FaultSpec.ALL,
                    new FaultStart.Every(new Distribution.Exponential(ADDED_PAUSE_GAP)),
                    p.pauses().distribution(p.pauseSeconds()), Duration.ZERO));
        }
        if (p.networkDelayMillis() > 0) {
            faults.add(new FaultSpec(FaultKind.REQUEST_DELAY, FaultSpec.ALL, new FaultStart.At(Duration.ZERO),
                    new Distribution.Fixed(base.duration()), Duration.ofMillis(p.networkDelayMillis())));
        }
        LeaseProfile generic = new LeaseProfile.Generic(duration(p.leaseTtlSeconds()), duration(p.renewEverySeconds()));
        // Built on the service at once: a scenario's faults on its service are refused on PostgreSQL's leases.
        return new RunSpec(base.name(), workers, base.firstTokens(), p.service().kind().clientOf(generic), p.fencing(),
                p.tokenScheme(), base.firstWrite(), faults, base.seed(), base.duration(), p.executor(), base.timeScale(),
                UserFences.NONE, Map.of(), p.service());
    }

    /**
     * {@code spec} with one more fault on {@code holder}, starting at run time {@code atMicros}: a
     * pause, a request delay (of {@code amount}), dropped renewals, or a killed connection.
     */
    public static RunSpec withFault(RunSpec spec, FaultKind kind, String holder, long atMicros, Duration length,
                                    Duration amount) {
        List<FaultSpec> faults = new ArrayList<>(spec.faults());
        faults.add(new FaultSpec(kind, holder, new FaultStart.At(Duration.ofNanos(atMicros * 1_000)),
                new Distribution.Fixed(kind == FaultKind.CONNECTION_KILL ? Duration.ZERO : length), amount));
        return new RunSpec(spec.name(), spec.workers(), spec.firstTokens(), spec.leaseTtl(), spec.renewInterval(),
                spec.fencing(), spec.tokenScheme(), spec.firstWrite(), faults, spec.seed(), spec.duration(),
                spec.executor(), spec.timeScale());
    }

    private static List<WorkerSpec> resize(List<WorkerSpec> workers, int count) {
        if (count <= workers.size()) {
            return List.copyOf(workers.subList(0, count));
        }
        List<WorkerSpec> out = new ArrayList<>(workers);
        Set<String> taken = new HashSet<>();
        workers.forEach(w -> taken.add(w.name()));
        for (int i = workers.size(); i < count; i++) {
            WorkerSpec model = workers.get(i % workers.size());
            int copy = i / workers.size() + 1;
            String name = model.name() + copy;
            while (!taken.add(name)) {
                name = name + "'";
            }
            out.add(new WorkerSpec(name, model.scope(), model.startAt().plus(EXTRA_STAGGER.multipliedBy(i)),
                    model.workTime(), model.writes(), model.jobs(), model.idleTime(), model.onStale(),
                    model.checkDeadline(), model.sequenceWrites(), model.pipelineWrites()));
        }
        return out;
    }

    private static double seconds(Duration d) {
        return d.toNanos() / 1e9;
    }

    private static Duration duration(double seconds) {
        return Duration.ofNanos(Math.round(seconds * 1e9));
    }
}
