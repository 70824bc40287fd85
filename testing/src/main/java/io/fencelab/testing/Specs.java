package io.fencelab.testing;

import io.fencelab.engine.fence.FencingMode;
import io.fencelab.engine.run.RunSpec;
import io.fencelab.engine.run.Workloads;
import java.time.Duration;

/** Run specs used by several tests: the engine's built-in workloads. */
public final class Specs {
    private Specs() {
    }

    public static RunSpec pausedHolder(FencingMode fencing) {
        return Workloads.pausedHolder(fencing);
    }

    public static RunSpec storm(int workers, int scopes, FencingMode fencing, long seed, Duration length) {
        return Workloads.storm(workers, scopes, fencing, seed, length);
    }
}
