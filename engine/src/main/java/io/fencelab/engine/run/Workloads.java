package io.fencelab.engine.run;

import io.fencelab.engine.chaos.Distribution;
import io.fencelab.engine.chaos.FaultKind;
import io.fencelab.engine.chaos.FaultSpec;
import io.fencelab.engine.chaos.FaultStart;
import io.fencelab.engine.fence.FencingMode;
import io.fencelab.engine.fence.FirstWritePolicy;
import io.fencelab.engine.fence.TokenScheme;
import io.fencelab.engine.resource.TargetKind;
import io.fencelab.engine.worker.StalePolicy;
import io.fencelab.engine.worker.TargetWrite;
import io.fencelab.engine.worker.WorkerSpec;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * Load shapes built in code, for benchmarks and tests that need more workers than a file would list.
 * Stories (the paused holder and the rest) live in the scenario catalog, not here.
 */
public final class Workloads {
    private Workloads() {
    }

    /**
     * Many workers on a few scopes, writing row, object and pointer, with heavy-tailed pauses on every
     * holder and short leases: stale holders are common.
     */
    public static RunSpec storm(int workers, int scopes, FencingMode fencing, long seed, Duration length) {
        List<TargetWrite> boundary = List.of(new TargetWrite(TargetKind.ROW, "record"),
                new TargetWrite(TargetKind.OBJECT, "blob"), new TargetWrite(TargetKind.POINTER, "current"));
        List<WorkerSpec> specs = new ArrayList<>();
        for (int i = 0; i < workers; i++) {
            specs.add(new WorkerSpec("w" + i, "scope-" + (i % scopes), Duration.ofMillis(37L * i % 500),
                    Duration.ofMillis(300), boundary, 0, Duration.ofMillis(200), StalePolicy.ABANDON, false));
        }
        FaultSpec pauses = new FaultSpec(FaultKind.PAUSE, FaultSpec.ALL,
                new FaultStart.Every(new Distribution.Exponential(Duration.ofSeconds(2))),
                new Distribution.Pareto(Duration.ofMillis(200), 1.2, Duration.ofSeconds(5)), Duration.ZERO);
        return new RunSpec("storm", specs, Map.of(), Duration.ofSeconds(1), Duration.ofMillis(300), fencing,
                TokenScheme.MONOTONIC, FirstWritePolicy.CREATE, List.of(pauses), seed, length,
                ExecutorKind.SIMULATED, 1.0);
    }
}
