package io.fencelab.engine.worker;

import io.fencelab.engine.fence.FencingMode;
import io.fencelab.engine.resource.TargetKind;

/**
 * One destination a worker writes in each job. {@code mode} overrides the run's fencing mode for this
 * target (null: the run's), which is how "fence only the first write" is expressed.
 */
public record TargetWrite(TargetKind target, String key, FencingMode mode) {
    public TargetWrite(TargetKind target, String key) {
        this(target, key, null);
    }
}
