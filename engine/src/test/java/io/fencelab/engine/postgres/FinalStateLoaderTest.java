package io.fencelab.engine.postgres;

import static org.assertj.core.api.Assertions.assertThat;

import io.fencelab.engine.check.Invariant;
import io.fencelab.engine.check.SafetyChecker;
import io.fencelab.engine.check.ValueDigest;
import io.fencelab.engine.check.Verdict;
import io.fencelab.engine.check.Witness;
import io.fencelab.engine.db.RunContext;
import io.fencelab.engine.fence.FencedTarget;
import io.fencelab.engine.fence.FencingMode;
import io.fencelab.engine.fence.FirstWritePolicy;
import io.fencelab.engine.fence.WriteOutcome;
import io.fencelab.engine.resource.ResourceState;
import io.fencelab.engine.resource.TargetKind;
import io.fencelab.testing.EmbeddedDatabase;
import io.fencelab.testing.LogBuilder;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/** The final state as the real database holds it, and the checker's judgement of it. */
@ExtendWith(EmbeddedDatabase.class)
class FinalStateLoaderTest {

    @Test
    void loadsEveryTargetWithItsTokenAndDigest(RunContext run) {
        FencedTarget<String> rows = FencedTarget.row(run, FencingMode.FENCED, FirstWritePolicy.CREATE);
        FencedTarget<byte[]> objects = FencedTarget.object(run, FencingMode.FENCED, FirstWritePolicy.CREATE);
        FencedTarget<String> pointers = FencedTarget.pointer(run, FencingMode.FENCED, FirstWritePolicy.CREATE);
        rows.write("report", "report-1", 41, "body from A");
        rows.write("report", "report-1", 42, "body from B");
        objects.write("report", "reports/2026.pdf", 42, bytes("%PDF B"));
        pointers.write("report", "current", 42, "reports/2026.pdf");

        List<ResourceState> states = FinalStateLoader.load(run);

        assertThat(states).as("one state per resource, in target order, digested like the writers digest").containsExactly(
                new ResourceState(TargetKind.ROW, "report", "report-1", 42, ValueDigest.of("body from B")),
                new ResourceState(TargetKind.OBJECT, "report", "reports/2026.pdf", 42, ValueDigest.of(bytes("%PDF B"))),
                new ResourceState(TargetKind.POINTER, "report", "current", 42, ValueDigest.of("reports/2026.pdf")));
    }

    @Test
    void loadsOnlyThisRunsResources(RunContext run, RunContext other) {
        FencedTarget.row(other, FencingMode.FENCED, FirstWritePolicy.CREATE).write("report", "report-1", 1, "other run");

        assertThat(FinalStateLoader.load(run)).as("runs are isolated").isEmpty();
    }

    @Test
    void unfencedStaleWriteLeavesAFinalStateMismatch(RunContext run) {
        FencedTarget<String> report = FencedTarget.row(run, FencingMode.UNFENCED, FirstWritePolicy.CREATE);
        LogBuilder log = new LogBuilder();
        log.acquired(0, "A", "report", 41, 30);
        log.acquired(31, "B", "report", 42, 61);
        assertThat(report.write("report", "report-1", 42, "body from B")).isEqualTo(new WriteOutcome.Accepted(42, null));
        long bSeq = log.accepted(35, "B", "report", 42, TargetKind.ROW, "report-1", ValueDigest.of("body from B")).seq();
        assertThat(report.write("report", "report-1", 41, "body from A")).isEqualTo(new WriteOutcome.Accepted(41, 42L));
        long aSeq = log.accepted(45, "A", "report", 41, TargetKind.ROW, "report-1", ValueDigest.of("body from A")).seq();

        Verdict verdict = SafetyChecker.judge(log.events(), FinalStateLoader.load(run));

        assertThat(verdict.witnesses()).extracting(Witness::invariant)
                .as("the stale overwrite in the log, and the damage it left in the database")
                .containsExactly(Invariant.STALE_OVERWRITE, Invariant.FINAL_STATE_MISMATCH);
        assertThat(verdict.witnesses().get(1).eventSeqs()).as("B's lost write and A's that replaced it")
                .containsExactly(bSeq, aSeq);
    }

    @Test
    void fencedRunMatchesItsFinalState(RunContext run) {
        FencedTarget<String> report = FencedTarget.row(run, FencingMode.FENCED, FirstWritePolicy.CREATE);
        LogBuilder log = new LogBuilder();
        log.acquired(0, "A", "report", 41, 30);
        log.acquired(31, "B", "report", 42, 61);
        report.write("report", "report-1", 42, "body from B");
        log.accepted(35, "B", "report", 42, TargetKind.ROW, "report-1", ValueDigest.of("body from B"));
        assertThat(report.write("report", "report-1", 41, "body from A")).isEqualTo(new WriteOutcome.Stale(41, 42));
        log.rejectedStale(45, "A", "report", 41, TargetKind.ROW, "report-1", 42);

        assertThat(SafetyChecker.judge(log.events(), FinalStateLoader.load(run)).isSafe())
                .as("B's state is intact and the log agrees").isTrue();
    }

    @Test
    void digestIsTheFirst16HexCharactersOfSha256() {
        assertThat(ValueDigest.of("abc")).as("SHA-256(abc) = ba7816bf8f01cfea…").isEqualTo("ba7816bf8f01cfea");
        assertThat(ValueDigest.of(bytes("ünïcode"))).as("text is digested as UTF-8").isEqualTo(ValueDigest.of("ünïcode"));
    }

    private static byte[] bytes(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }
}
