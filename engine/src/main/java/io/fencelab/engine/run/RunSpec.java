package io.fencelab.engine.run;

import io.fencelab.engine.chaos.FaultSpec;
import io.fencelab.engine.fence.FencingMode;
import io.fencelab.engine.fence.FirstWritePolicy;
import io.fencelab.engine.fence.TokenScheme;
import io.fencelab.engine.worker.WorkerSpec;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * Everything a run needs, whichever executor runs it.
 *
 * @param firstTokens starting token per scope (the story's 41); scopes not named start at 1
 * @param renewInterval zero: holders never renew
 * @param timeScale live runs only: real seconds per run second (0.1 runs ten times faster)
 */
public record RunSpec(String name, List<WorkerSpec> workers, Map<String, Long> firstTokens, Duration leaseTtl,
                      Duration renewInterval, FencingMode fencing, TokenScheme tokenScheme,
                      FirstWritePolicy firstWrite, List<FaultSpec> faults, long seed, Duration duration,
                      ExecutorKind executor, double timeScale) {

    public RunSpec {
        Objects.requireNonNull(name);
        workers = List.copyOf(workers);
        firstTokens = Map.copyOf(firstTokens);
        faults = List.copyOf(faults);
        if (workers.isEmpty()) {
            throw new IllegalArgumentException("a run needs at least one worker");
        }
        if (workers.stream().map(WorkerSpec::name).distinct().count() != workers.size()) {
            throw new IllegalArgumentException("worker names must be unique");
        }
        if (!leaseTtl.isPositive() || !duration.isPositive() || renewInterval.isNegative()) {
            throw new IllegalArgumentException("lease ttl and duration must be positive, renew interval not negative");
        }
        if (!(timeScale > 0)) {
            throw new IllegalArgumentException("time scale must be positive, was " + timeScale);
        }
    }

    public RunSpec withFencing(FencingMode mode) {
        return new RunSpec(name, workers, firstTokens, leaseTtl, renewInterval, mode, tokenScheme, firstWrite, faults,
                seed, duration, executor, timeScale);
    }

    public RunSpec withSeed(long newSeed) {
        return new RunSpec(name, workers, firstTokens, leaseTtl, renewInterval, fencing, tokenScheme, firstWrite, faults,
                newSeed, duration, executor, timeScale);
    }

    public RunSpec withExecutor(ExecutorKind kind) {
        return new RunSpec(name, workers, firstTokens, leaseTtl, renewInterval, fencing, tokenScheme, firstWrite, faults,
                seed, duration, kind, timeScale);
    }

    public RunSpec withLeaseTtl(Duration ttl) {
        return new RunSpec(name, workers, firstTokens, ttl, renewInterval, fencing, tokenScheme, firstWrite, faults,
                seed, duration, executor, timeScale);
    }
}
