package io.fencelab.app.console.model;

import io.fencelab.engine.chaos.Distribution;
import io.fencelab.engine.chaos.FaultKind;
import io.fencelab.engine.chaos.FaultSpec;
import io.fencelab.engine.fence.FencingMode;
import io.fencelab.engine.fence.TokenScheme;
import io.fencelab.engine.lease.LeaseServiceSpec;
import io.fencelab.engine.run.ExecutorKind;
import java.time.Duration;

/**
 * The knobs of the parameter sheet: what a user may change about a scenario before (or while)
 * running it. The run's {@code SpecEditor} turns them into a run spec.
 *
 * @param leaseTtlSeconds      how long a grant lasts
 * @param renewEverySeconds    how often holders renew (0: never)
 * @param workers              how many holders (extra ones are copies of the scenario's)
 * @param pauses               how long pauses last ({@link PauseLength#AS_SCENARIO} keeps the file's)
 * @param pauseSeconds         the mean pause length for the other choices
 * @param networkDelayMillis   extra delay on every holder's requests for the whole run (0: none)
 * @param fencing              how resources apply writes
 * @param tokenScheme          where holders' tokens come from
 * @param executor             simulated (replayable, pausable) or live (real threads, real time)
 * @param service              which service grants the leases, its token and its address (null: a server
 *                             Fencelab starts); a real one needs a live or process run
 */
public record Parameters(double leaseTtlSeconds, double renewEverySeconds, int workers, PauseLength pauses,
                         double pauseSeconds, long networkDelayMillis, FencingMode fencing, TokenScheme tokenScheme,
                         ExecutorKind executor, LeaseServiceSpec service) {

    /** The pause-length distribution, in words a sheet can offer. */
    public enum PauseLength {
        AS_SCENARIO("as in the scenario"),
        NONE("no pauses"),
        FIXED("fixed"),
        UNIFORM("uniform (0 to 2x mean)"),
        EXPONENTIAL("exponential"),
        PARETO("Pareto (heavy tail)");

        private final String words;

        PauseLength(String words) {
            this.words = words;
        }

        /** The distribution with this mean, for the choices that make one. */
        public Distribution distribution(double meanSeconds) {
            Duration mean = Duration.ofNanos((long) (meanSeconds * 1e9));
            return switch (this) {
                case AS_SCENARIO, NONE -> throw new IllegalStateException(this + " makes no distribution");
                case FIXED -> new Distribution.Fixed(mean);
                case UNIFORM -> new Distribution.Uniform(Duration.ZERO, mean.multipliedBy(2));
                case EXPONENTIAL -> new Distribution.Exponential(mean);
                // shape 1.5 has mean 3 x scale; the cap keeps one pause from eating the run
                case PARETO -> new Distribution.Pareto(mean.dividedBy(3), 1.5, mean.multipliedBy(10));
            };
        }

        @Override
        public String toString() {
            return words;
        }
    }

    /** Leases from PostgreSQL's own table. */
    public Parameters(double leaseTtlSeconds, double renewEverySeconds, int workers, PauseLength pauses,
                      double pauseSeconds, long networkDelayMillis, FencingMode fencing, TokenScheme tokenScheme,
                      ExecutorKind executor) {
        this(leaseTtlSeconds, renewEverySeconds, workers, pauses, pauseSeconds, networkDelayMillis, fencing,
                tokenScheme, executor, LeaseServiceSpec.POSTGRES);
    }

    public Parameters {
        if (!(leaseTtlSeconds > 0)) {
            throw new IllegalArgumentException("lease ttl must be more than 0 s, was " + leaseTtlSeconds);
        }
        if (renewEverySeconds < 0) {
            throw new IllegalArgumentException("renew interval must be 0 s (never) or more, was " + renewEverySeconds);
        }
        if (workers < 1 || workers > 1000) {
            throw new IllegalArgumentException("workers must be 1 to 1000, was " + workers);
        }
        if (pauseSeconds < 0 || networkDelayMillis < 0) {
            throw new IllegalArgumentException("pause length and network delay must not be negative");
        }
        service = service == null ? LeaseServiceSpec.POSTGRES : service;
        if (service.real() && executor == ExecutorKind.SIMULATED) {
            throw new IllegalArgumentException("the lease service " + service.kind().key() + " runs in real time: "
                    + "choose the executor LIVE or PROCESS, or the lease service postgres");
        }
    }

    /**
     * The executor that goes with {@code service}: a real service runs in real time, so a simulated
     * run becomes a process run, where a paused holder's whole process freezes, its lease client's
     * keep-alive with it, as the stories mean (in a live run only the worker's thread stops and the
     * client keeps the lease alive); any other executor stays.
     */
    public static ExecutorKind executorFor(LeaseServiceSpec service, ExecutorKind executor) {
        return service.real() && executor == ExecutorKind.SIMULATED ? ExecutorKind.PROCESS : executor;
    }

    /**
     * The lease service that goes with {@code executor}: a simulated run's leases are PostgreSQL's
     * (virtual time cannot wait for a real server), any other run keeps {@code service}.
     */
    public static LeaseServiceSpec serviceFor(ExecutorKind executor, LeaseServiceSpec service) {
        return executor == ExecutorKind.SIMULATED ? LeaseServiceSpec.POSTGRES : service;
    }

    /** Whether a spec's faults include any pause. */
    public static boolean hasPauses(java.util.List<FaultSpec> faults) {
        return faults.stream().anyMatch(f -> f.kind() == FaultKind.PAUSE);
    }
}
