package io.fencelab.testing;

import io.fencelab.engine.chaos.FaultSpec;
import io.fencelab.engine.fence.FencingMode;
import io.fencelab.engine.fence.FirstWritePolicy;
import io.fencelab.engine.fence.TokenScheme;
import io.fencelab.engine.resource.TargetKind;
import io.fencelab.engine.run.ExecutorKind;
import io.fencelab.engine.run.RunSpec;
import io.fencelab.engine.run.Workloads;
import io.fencelab.engine.worker.StalePolicy;
import io.fencelab.engine.worker.TargetWrite;
import io.fencelab.engine.worker.WorkerSpec;
import java.time.Duration;
import java.util.List;
import java.util.Map;

/**
 * Run specs used by several tests.
 *
 * <p>The paused-holder story itself has one home, the scenario catalog ({@code paused-holder.yaml});
 * tests above the engine load it from there. The engine's own tests cannot see the catalog, so they use
 * {@link #staleHolder}: a smaller fixture of the same kind, with its own names, times and tokens.
 */
public final class Specs {
    private Specs() {
    }

    /** The scope both holders of {@link #twoHolders} compete for. */
    public static final String SCOPE = "job";
    /** The row both holders of {@link #twoHolders} write. */
    public static final String KEY = "result";

    /**
     * Two holders, one job each, on scope {@value #SCOPE} (tokens from 1), 20 s leases, 40 s run, no
     * faults: A acquires at 0 s and writes row {@value #KEY} after 5 s of work; B tries at 21 s, works
     * 2 s and writes at 23 s. Without a fault A is long done when B arrives.
     */
    public static RunSpec twoHolders(FencingMode fencing) {
        return twoHolders("two-holders", fencing, List.of());
    }

    /**
     * {@link #twoHolders} with A paused from 2 s to 27 s: A's lease (token 1) expires at 20 s, B acquires
     * token 2 at 21 s and writes at 23 s, and A, waking at 27 s, writes with token 1.
     */
    public static RunSpec staleHolder(FencingMode fencing) {
        return twoHolders("stale-holder", fencing,
                List.of(FaultSpec.pause("A", Duration.ofSeconds(2), Duration.ofSeconds(25))));
    }

    private static RunSpec twoHolders(String name, FencingMode fencing, List<FaultSpec> faults) {
        List<TargetWrite> result = List.of(new TargetWrite(TargetKind.ROW, KEY));
        WorkerSpec a = new WorkerSpec("A", SCOPE, Duration.ZERO, Duration.ofSeconds(5), result, 1,
                Duration.ofSeconds(1), StalePolicy.ABANDON, false);
        WorkerSpec b = new WorkerSpec("B", SCOPE, Duration.ofSeconds(21), Duration.ofSeconds(2), result, 1,
                Duration.ofSeconds(1), StalePolicy.ABANDON, false);
        return new RunSpec(name, List.of(a, b), Map.of(), Duration.ofSeconds(20), Duration.ZERO, fencing,
                TokenScheme.MONOTONIC, FirstWritePolicy.CREATE, faults, 1L, Duration.ofSeconds(40),
                ExecutorKind.SIMULATED, 1.0);
    }

    public static RunSpec storm(int workers, int scopes, FencingMode fencing, long seed, Duration length) {
        return Workloads.storm(workers, scopes, fencing, seed, length);
    }
}
