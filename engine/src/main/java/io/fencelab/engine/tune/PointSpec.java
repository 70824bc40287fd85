package io.fencelab.engine.tune;

import io.fencelab.engine.run.RunSpec;
import java.util.Objects;

/** What a point of a sweep runs: its run spec, or why the setting cannot run (it makes the scenario invalid). */
public sealed interface PointSpec {

    record Ready(RunSpec spec) implements PointSpec {
        public Ready {
            Objects.requireNonNull(spec, "spec");
        }
    }

    /** @param reason one line: which field, what is wrong ({@code lease.renewEvery: 30s is not below lease.ttl 30s}) */
    record Skipped(String reason) implements PointSpec {
        public Skipped {
            Objects.requireNonNull(reason, "reason");
        }
    }
}
