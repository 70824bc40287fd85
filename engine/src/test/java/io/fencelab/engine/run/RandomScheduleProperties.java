package io.fencelab.engine.run;

import static org.assertj.core.api.Assertions.assertThat;

import io.fencelab.engine.chaos.Distribution;
import io.fencelab.engine.chaos.FaultKind;
import io.fencelab.engine.chaos.FaultSpec;
import io.fencelab.engine.chaos.FaultStart;
import io.fencelab.engine.check.SafetyChecker;
import io.fencelab.engine.check.Verdict;
import io.fencelab.engine.db.Database;
import io.fencelab.engine.fence.FencingMode;
import io.fencelab.engine.fence.FirstWritePolicy;
import io.fencelab.engine.fence.TokenScheme;
import io.fencelab.engine.postgres.FinalStateLoader;
import io.fencelab.engine.resource.TargetKind;
import io.fencelab.engine.worker.StalePolicy;
import io.fencelab.engine.worker.TargetWrite;
import io.fencelab.engine.worker.WorkerSpec;
import io.fencelab.testing.EmbeddedDatabase;
import io.fencelab.testing.RecordingSink;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import net.jqwik.api.Example;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.lifecycle.AfterContainer;
import net.jqwik.api.lifecycle.BeforeContainer;

/**
 * Thousands of random, seeded schedules (workers, work times, pause storms) through the simulated
 * executor on real PostgreSQL, judged by the safety checker from events and final database state.
 */
class RandomScheduleProperties {

    private static Database db;

    @BeforeContainer
    static void start() {
        db = EmbeddedDatabase.startThrowaway();
    }

    @AfterContainer
    static void stop() {
        db.close();
    }

    @Property(tries = 1000)
    void monotonicFencingIsAlwaysSafe(@ForAll long seed) {
        Verdict verdict = judge(schedule(seed, FencingMode.FENCED));

        assertThat(verdict.witnesses()).as("fenced run with seed %d", seed).isEmpty();
    }

    /** Not a property: the rate is the result, and the test prints it. */
    @Example
    void unfencedRunsWithPausesLongerThanTheLeaseAreFoundViolatedInNearlyEveryRun() {
        int runs = 300;
        int violated = 0;
        for (long seed = 1; seed <= runs; seed++) {
            if (!judge(schedule(seed, FencingMode.UNFENCED)).isSafe()) {
                violated++;
            }
        }
        double rate = violated / (double) runs;
        System.out.printf("UNFENCED with pauses longer than the lease: %d of %d runs VIOLATED (%.1f%%)%n",
                violated, runs, rate * 100);
        assertThat(rate).as("share of unfenced runs found VIOLATED").isGreaterThanOrEqualTo(0.9);
    }

    private static Verdict judge(RunSpec spec) {
        RecordingSink sink = new RecordingSink();
        try (SimulatedExecutor run = new SimulatedExecutor(db, spec, sink)) {
            run.runToEnd();
            return SafetyChecker.judge(sink.events(), FinalStateLoader.load(run.runContext()));
        }
    }

    /** See {@link io.fencelab.testing.RandomSchedules}. */
    static RunSpec schedule(long seed, FencingMode fencing) {
        return io.fencelab.testing.RandomSchedules.of(seed, fencing, TokenScheme.MONOTONIC);
    }
}
