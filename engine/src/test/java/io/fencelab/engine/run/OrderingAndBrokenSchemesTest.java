package io.fencelab.engine.run;

import static org.assertj.core.api.Assertions.assertThat;

import io.fencelab.engine.chaos.Distribution;
import io.fencelab.engine.chaos.FaultKind;
import io.fencelab.engine.chaos.FaultSpec;
import io.fencelab.engine.chaos.FaultStart;
import io.fencelab.engine.check.Invariant;
import io.fencelab.engine.check.SafetyChecker;
import io.fencelab.engine.db.Database;
import io.fencelab.engine.event.Event;
import io.fencelab.engine.fence.FencedTarget;
import io.fencelab.engine.fence.FencingMode;
import io.fencelab.engine.fence.FirstWritePolicy;
import io.fencelab.engine.fence.TokenScheme;
import io.fencelab.engine.resource.TargetKind;
import io.fencelab.engine.worker.StalePolicy;
import io.fencelab.engine.worker.TargetWrite;
import io.fencelab.engine.worker.WorkerSpec;
import io.fencelab.testing.EmbeddedDatabase;
import io.fencelab.testing.RecordingSink;
import io.fencelab.testing.Specs;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

@ExtendWith(EmbeddedDatabase.class)
class OrderingAndBrokenSchemesTest {

    private static RunSpec twoOpsUnderOneToken(long seed, boolean sequenced) {
        List<TargetWrite> ops = List.of(new TargetWrite(TargetKind.ROW, "report"), new TargetWrite(TargetKind.ROW, "report"));
        WorkerSpec a = new WorkerSpec("A", "report", Duration.ZERO, Duration.ofSeconds(1), ops, 1, Duration.ofSeconds(1),
                StalePolicy.ABANDON, false, sequenced, true);
        FaultSpec jitter = new FaultSpec(FaultKind.REQUEST_JITTER, "A", new FaultStart.At(Duration.ZERO),
                new Distribution.Fixed(Duration.ofSeconds(30)), Duration.ofSeconds(2));
        return new RunSpec("ordering", List.of(a), Map.of("report", 51L), Duration.ofSeconds(30), Duration.ZERO,
                FencingMode.FENCED, TokenScheme.MONOTONIC, FirstWritePolicy.CREATE, List.of(jitter), seed,
                Duration.ofSeconds(10), ExecutorKind.SIMULATED, 1.0);
    }

    @Test
    void aSequenceNumberRejectsTheEarlierOperationWhenItArrivesLate(Database db) {
        int reordered = 0;
        for (long seed = 1; seed <= 10; seed++) {
            RecordingSink sink = new RecordingSink();
            String finalValue;
            try (SimulatedExecutor run = new SimulatedExecutor(db, twoOpsUnderOneToken(seed, true), sink)) {
                run.runToEnd();
                finalValue = FencedTarget.row(run.runContext(), FencingMode.FENCED, FirstWritePolicy.CREATE)
                        .read("report", "report").orElseThrow().value();
            }
            List<Event.WriteOutOfOrder> late = sink.ofType(Event.WriteOutOfOrder.class);
            if (!late.isEmpty()) {
                reordered++;
                assertThat(late).singleElement().satisfies(e -> assertThat(e.opSeq()).isEqualTo(1));
            }
            assertThat(finalValue).as("seed %d: the report holds the job's second operation", seed).endsWith("op 2");
        }
        assertThat(reordered).as("jitter reorders some of the ten runs").isPositive();
    }

    @Test
    void withoutSequenceNumbersALateOperationOverwritesTheLaterOne(Database db) {
        int wrongFinal = 0;
        for (long seed = 1; seed <= 10; seed++) {
            try (SimulatedExecutor run = new SimulatedExecutor(db, twoOpsUnderOneToken(seed, false), new RecordingSink())) {
                run.runToEnd();
                String finalValue = FencedTarget.row(run.runContext(), FencingMode.FENCED, FirstWritePolicy.CREATE)
                        .read("report", "report").orElseThrow().value();
                if (finalValue.endsWith("op 1")) {
                    wrongFinal++;
                }
            }
        }
        assertThat(wrongFinal).as("the token alone cannot order two writes of one generation").isPositive();
    }

    @Test
    void tokensThroughADoubleTransportCollapseAbove2To53(Database db) {
        RunSpec spec = withScheme(Specs.staleHolder(FencingMode.FENCED), TokenScheme.DOUBLE_PRECISION_TRANSPORT,
                Map.of(Specs.SCOPE, (1L << 53) + 1 - 1));
        RecordingSink sink = new RecordingSink();
        try (SimulatedExecutor run = new SimulatedExecutor(db, spec, sink)) {
            run.runToEnd();
        }
        List<Event.LeaseAcquired> grants = sink.ofType(Event.LeaseAcquired.class);
        assertThat(grants).extracting(Event.LeaseAcquired::token).containsExactly(1L << 53, (1L << 53) + 1);
        assertThat(grants).extracting(Event.LeaseAcquired::fencingToken).containsExactly(1L << 53, 1L << 53);
        assertThat(sink.ofType(Event.WriteAccepted.class)).extracting(Event::holder).containsExactly("B", "A");
        assertThat(SafetyChecker.judge(sink.events()).witnesses()).extracting(w -> w.invariant())
                .contains(Invariant.NON_MONOTONIC_GRANT);
    }

    @Test
    void tokensFromPerHolderCachesGoBackwardsAndTheCheckerSaysSo(Database db) {
        RunSpec spec = withScheme(Specs.staleHolder(FencingMode.FENCED), TokenScheme.CACHED_PER_HOLDER, Map.of());
        RecordingSink sink = new RecordingSink();
        try (SimulatedExecutor run = new SimulatedExecutor(db, spec, sink)) {
            run.runToEnd();
        }
        assertThat(SafetyChecker.judge(sink.events()).witnesses()).extracting(w -> w.invariant())
                .contains(Invariant.NON_MONOTONIC_GRANT);
    }

    private static RunSpec withScheme(RunSpec b, TokenScheme scheme, Map<String, Long> firstTokens) {
        return b.toBuilder().tokenScheme(scheme).firstTokens(firstTokens).build();
    }
}
