package io.fencelab.engine.check;

import static org.assertj.core.api.Assertions.assertThat;

import io.fencelab.engine.event.Event;
import io.fencelab.engine.resource.TargetKind;
import java.util.List;
import org.junit.jupiter.api.Test;

/** A stale write is judged by the order of the grants, not by numbers a broken scheme made up. */
class GrantOrderOverwriteTest {

    @Test
    void anOlderGrantsWriteOverANewerOneIsAStaleOverwriteEvenWithALargerToken() {
        List<Event> log = List.of(
                new Event.LeaseAcquired(1, 0, "A", "report", 1, 900, 30_000_000),
                new Event.LeaseAcquired(2, 31_000_000, "B", "report", 2, 500, 61_000_000),
                new Event.WriteAccepted(3, 35_000_000, "B", "report", 500, TargetKind.ROW, "r", "b"),
                new Event.WriteAccepted(4, 45_000_000, "A", "report", 900, TargetKind.ROW, "r", "a"));

        Verdict verdict = SafetyChecker.judge(log);

        assertThat(verdict.witnesses()).extracting(Witness::invariant)
                .containsExactlyInAnyOrder(Invariant.NON_MONOTONIC_GRANT, Invariant.STALE_OVERWRITE);
        assertThat(verdict.witnesses()).filteredOn(w -> w.invariant() == Invariant.STALE_OVERWRITE).singleElement()
                .satisfies(w -> assertThat(w.summary()).contains("A wrote with token 900")
                        .contains("granted before B's, but its token is not smaller"))
                .satisfies(w -> assertThat(w.eventSeqs()).containsExactly(1L, 2L, 3L, 4L));
    }

    @Test
    void withoutGrantsInTheLogTokensDecide() {
        List<Event> log = List.of(
                new Event.WriteAccepted(1, 35_000_000, "B", "report", 500, TargetKind.ROW, "r", "b"),
                new Event.WriteAccepted(2, 45_000_000, "A", "report", 900, TargetKind.ROW, "r", "a"));

        assertThat(SafetyChecker.judge(log).isSafe()).isTrue();
    }
}
