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
        return toBuilder().fencing(mode).build();
    }

    public RunSpec withSeed(long newSeed) {
        return toBuilder().seed(newSeed).build();
    }

    public RunSpec withExecutor(ExecutorKind kind) {
        return toBuilder().executor(kind).build();
    }

    public RunSpec withLeaseTtl(Duration ttl) {
        return toBuilder().leaseTtl(ttl).build();
    }

    /** A builder holding this spec's values, for changing a few of them. */
    public Builder toBuilder() {
        return new Builder(this);
    }

    /** Changes some values of a spec; {@link #build()} validates the result like the constructor. */
    public static final class Builder {
        private String name;
        private List<WorkerSpec> workers;
        private Map<String, Long> firstTokens;
        private Duration leaseTtl;
        private Duration renewInterval;
        private FencingMode fencing;
        private TokenScheme tokenScheme;
        private FirstWritePolicy firstWrite;
        private List<FaultSpec> faults;
        private long seed;
        private Duration duration;
        private ExecutorKind executor;
        private double timeScale;

        private Builder(RunSpec s) {
            name = s.name;
            workers = s.workers;
            firstTokens = s.firstTokens;
            leaseTtl = s.leaseTtl;
            renewInterval = s.renewInterval;
            fencing = s.fencing;
            tokenScheme = s.tokenScheme;
            firstWrite = s.firstWrite;
            faults = s.faults;
            seed = s.seed;
            duration = s.duration;
            executor = s.executor;
            timeScale = s.timeScale;
        }

        public Builder workers(List<WorkerSpec> value) {
            workers = value;
            return this;
        }

        public Builder firstTokens(Map<String, Long> value) {
            firstTokens = value;
            return this;
        }

        public Builder leaseTtl(Duration value) {
            leaseTtl = value;
            return this;
        }

        public Builder renewInterval(Duration value) {
            renewInterval = value;
            return this;
        }

        public Builder fencing(FencingMode value) {
            fencing = value;
            return this;
        }

        public Builder tokenScheme(TokenScheme value) {
            tokenScheme = value;
            return this;
        }

        public Builder faults(List<FaultSpec> value) {
            faults = value;
            return this;
        }

        public Builder seed(long value) {
            seed = value;
            return this;
        }

        public Builder duration(Duration value) {
            duration = value;
            return this;
        }

        public Builder executor(ExecutorKind value) {
            executor = value;
            return this;
        }

        public Builder timeScale(double value) {
            timeScale = value;
            return this;
        }

        public RunSpec build() {
            return new RunSpec(name, workers, firstTokens, leaseTtl, renewInterval, fencing, tokenScheme, firstWrite,
                    faults, seed, duration, executor, timeScale);
        }
    }
}
