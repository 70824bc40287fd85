package io.fencelab.engine.run;

import io.fencelab.engine.chaos.Distribution;
import io.fencelab.engine.chaos.FaultKind;
import io.fencelab.engine.chaos.FaultSpec;
import io.fencelab.engine.chaos.FaultStart;
import io.fencelab.engine.fence.FencingMode;
import io.fencelab.engine.fence.FirstWritePolicy;
import io.fencelab.engine.fence.TargetKind;
import io.fencelab.engine.fence.TokenScheme;
import io.fencelab.engine.worker.StalePolicy;
import io.fencelab.engine.worker.TargetWrite;
import io.fencelab.engine.worker.WorkerSpec;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * Built-in workloads for tests, benchmarks and demos until the scenario catalog provides files.
 */
public final class Workloads {
    private Workloads() {
    }

    /**
     * The design note's story: 30 s lease; A acquires 41 at 0 s and would write at 10 s, but pauses at
     * 10 s for 35 s; B acquires 42 at 31 s and writes at 35 s; A writes with 41 at 45 s.
     */
    public static RunSpec pausedHolder(FencingMode fencing) {
        List<TargetWrite> report = List.of(new TargetWrite(TargetKind.ROW, "report-1"));
        WorkerSpec a = new WorkerSpec("A", "report", Duration.ZERO, Duration.ofSeconds(10), report, 1,
                Duration.ofSeconds(5), StalePolicy.ABANDON, false);
        WorkerSpec b = new WorkerSpec("B", "report", Duration.ofSeconds(31), Duration.ofSeconds(4), report, 1,
                Duration.ofSeconds(5), StalePolicy.ABANDON, false);
        return new RunSpec("paused-holder", List.of(a, b), Map.of("report", 41L), Duration.ofSeconds(30),
                Duration.ZERO, fencing, TokenScheme.MONOTONIC, FirstWritePolicy.CREATE,
                List.of(FaultSpec.pause("A", Duration.ofSeconds(10), Duration.ofSeconds(35))), 1L,
                Duration.ofSeconds(60), ExecutorKind.SIMULATED, 1.0);
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
