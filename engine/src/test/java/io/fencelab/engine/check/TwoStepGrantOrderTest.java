package io.fencelab.engine.check;

import static org.assertj.core.api.Assertions.assertThat;

import io.fencelab.engine.event.Event;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Grants whose token comes in a later step (Redis's lock, then INCR) are ordered by when they were made: a
 * holder paused between its grant and its token logs a larger token after a grant made later than its own.
 */
class TwoStepGrantOrderTest {

    /** A locked at 1 s and counted 3 at 6 s; B locked at 4.5 s (A's lock expired) and counted 2 at once. */
    @Test
    void anEarlierGrantThatCountedItsTokenLastIsOutOfOrder() {
        List<Event> log = List.of(
                new Event.LeaseAcquired(1, 200_000, "B", "report", 1, 1, 3_200_000, 200_000L),
                new Event.LeaseReleased(2, 500_000, "B", "report", 1),
                new Event.LeaseAcquired(3, 4_500_000, "B", "report", 2, 2, 7_500_000, 4_500_000L),
                new Event.LeaseAcquired(4, 6_000_000, "A", "report", 3, 3, 7_500_000, 1_000_000L));

        Verdict verdict = SafetyChecker.judge(log);

        assertThat(verdict.witnesses()).extracting(Witness::invariant)
                .containsExactlyInAnyOrder(Invariant.NON_MONOTONIC_GRANT, Invariant.NON_MONOTONIC_COUNTER);
        assertThat(verdict.witnesses()).filteredOn(w -> w.invariant() == Invariant.NON_MONOTONIC_GRANT).singleElement()
                .satisfies(w -> assertThat(w.summary()).contains("A was granted scope report at 1.0s")
                        .contains("fencing token 3 only at 6.0s").contains("after B's later grant of 2"))
                .satisfies(w -> assertThat(w.eventSeqs()).containsExactly(3L, 4L));
    }

    /** The same steps without a pause between them: each grant's token comes before anyone else's grant. */
    @Test
    void twoStepGrantsTakenInTurnAreInOrder() {
        List<Event> log = List.of(
                new Event.LeaseAcquired(1, 1_010_000, "A", "report", 1, 1, 4_000_000, 1_000_000L),
                new Event.LeaseReleased(2, 2_000_000, "A", "report", 1),
                new Event.LeaseAcquired(3, 2_010_000, "B", "report", 2, 2, 5_000_000, 2_000_000L),
                new Event.LeaseAcquired(4, 5_510_000, "A", "report", 3, 3, 8_500_000, 5_500_000L));

        assertThat(SafetyChecker.judge(log).isSafe()).isTrue();
    }
}
