package io.fencelab.engine.soak;

import static org.assertj.core.api.Assertions.assertThat;

import io.fencelab.engine.event.Event.LeaseAcquired;
import io.fencelab.engine.fence.FenceAudit.Entry;
import io.fencelab.engine.resource.ResourceId;
import io.fencelab.engine.resource.TargetKind;
import java.util.List;
import org.junit.jupiter.api.Test;

class AuditJudgeTest {

    private static final ResourceId ROW = new ResourceId(TargetKind.ROW, "s", "k");

    private static Entry change(long id, Long previous, long token) {
        return new Entry(id, "s", TargetKind.ROW, "k", previous, token, null);
    }

    private static LeaseAcquired grant(long seq, String holder, long counter, long presented) {
        return new LeaseAcquired(seq, seq, holder, "s", counter, presented, seq + 1_000);
    }

    @Test
    void everyWriteBelowTheHighestAppliedBeforeItIsStaleEvenOverItsOwnToken() {
        List<LeaseAcquired> grants = List.of(grant(1, "A", 1, 1), grant(2, "B", 2, 2));

        AuditJudge.Judged judged = AuditJudge.judge(List.of(change(1, null, 2), change(2, 2L, 1), change(3, 1L, 1),
                change(4, 1L, 2)), grants);

        assertThat(judged.writes()).extracting(AuditJudge.Write::stale).containsExactly(false, true, true, false);
        assertThat(judged.unsafe()).isTrue();
        assertThat(judged.last().get(ROW).entry().auditId()).isEqualTo(4);
    }

    @Test
    void brokenTokensAreOrderedByTheGrantThatPresentedThem() {
        // B's later grant presented a smaller random token: its write over A's is not stale, A's over B's is.
        List<LeaseAcquired> grants = List.of(grant(1, "A", 1, 900), grant(2, "B", 2, 100));

        AuditJudge.Judged judged = AuditJudge.judge(List.of(change(1, null, 900), change(2, 900L, 100),
                change(3, 100L, 900)), grants);

        assertThat(judged.writes()).extracting(AuditJudge.Write::stale).containsExactly(false, false, true);
    }

    @Test
    void aTokenTwoGrantsPresentedCannotBeOrderedAndIsNotGuessed() {
        List<LeaseAcquired> grants = List.of(grant(1, "A", 1, 7), grant(2, "B", 2, 7));

        AuditJudge.Judged judged = AuditJudge.judge(List.of(change(1, null, 7), change(2, 7L, 7)), grants);

        assertThat(judged.unordered()).containsExactly(ROW);
        assertThat(judged.unsafe()).as("nothing is judged on a resource the audit cannot order").isFalse();
    }
}
