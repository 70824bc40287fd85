package io.fencelab.testing;

import io.fencelab.engine.chaos.Distribution;
import io.fencelab.engine.chaos.FaultKind;
import io.fencelab.engine.chaos.FaultSpec;
import io.fencelab.engine.chaos.FaultStart;
import io.fencelab.engine.fence.FencingMode;
import io.fencelab.engine.fence.FirstWritePolicy;
import io.fencelab.engine.fence.TokenScheme;
import io.fencelab.engine.resource.TargetKind;
import io.fencelab.engine.run.ExecutorKind;
import io.fencelab.engine.run.RunSpec;
import io.fencelab.engine.worker.StalePolicy;
import io.fencelab.engine.worker.TargetWrite;
import io.fencelab.engine.worker.WorkerSpec;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;

/**
 * Random, seeded schedules for property tests: 2–4 workers on one scope writing a row and a
 * pointer, 1 s leases, random work times, frequent pauses of 1.5–4 s (longer than the lease), and on
 * some seeds clock skew and request jitter, for 20 s of simulated time. Stale holders are common.
 */
public final class RandomSchedules {

    private RandomSchedules() {
    }

    public static RunSpec of(long seed, FencingMode fencing, TokenScheme scheme) {
        SplittableRandom random = new SplittableRandom(seed);
        int workers = 2 + random.nextInt(3);
        List<TargetWrite> boundary = List.of(new TargetWrite(TargetKind.ROW, "report"),
                new TargetWrite(TargetKind.POINTER, "current"));
        List<WorkerSpec> specs = new ArrayList<>();
        for (int i = 0; i < workers; i++) {
            specs.add(new WorkerSpec("w" + i, "report", Duration.ofMillis(random.nextInt(1_000)),
                    Duration.ofMillis(100 + random.nextInt(700)), boundary, 0, Duration.ofMillis(100 + random.nextInt(300)),
                    StalePolicy.ABANDON, false));
        }
        List<FaultSpec> faults = new ArrayList<>();
        faults.add(new FaultSpec(FaultKind.PAUSE, FaultSpec.ALL,
                new FaultStart.Every(new Distribution.Exponential(Duration.ofSeconds(1))),
                new Distribution.Uniform(Duration.ofMillis(1_500), Duration.ofSeconds(4)), Duration.ZERO));
        if (random.nextInt(3) == 0) {
            faults.add(new FaultSpec(FaultKind.CLOCK_SKEW, "w0", new FaultStart.At(Duration.ZERO),
                    new Distribution.Fixed(Duration.ofSeconds(20)), Duration.ofSeconds(-5)));
        }
        if (random.nextInt(3) == 0) {
            faults.add(new FaultSpec(FaultKind.REQUEST_JITTER, FaultSpec.ALL,
                    new FaultStart.Every(new Distribution.Exponential(Duration.ofSeconds(3))),
                    new Distribution.Fixed(Duration.ofSeconds(1)), Duration.ofMillis(400)));
        }
        return new RunSpec("random-schedule", specs, Map.of(), Duration.ofSeconds(1), Duration.ZERO, fencing,
                scheme, FirstWritePolicy.CREATE, faults, seed, Duration.ofSeconds(20), ExecutorKind.SIMULATED, 1.0);
    }
}
