package io.fencelab.engine.fence;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.fencelab.engine.db.RunContext;
import io.fencelab.testing.EmbeddedDatabase;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

@ExtendWith(EmbeddedDatabase.class)
class FencedTargetTest {

    @Test
    void anEqualTokenIsAccepted(RunContext run) {
        FencedTarget<String> row = FencedTarget.row(run, FencingMode.FENCED, FirstWritePolicy.CREATE);
        row.write("s", "k", 7, "first");

        assertThat(row.write("s", "k", 7, "second")).isEqualTo(new WriteOutcome.Accepted(7, 7L));
        assertThat(row.read("s", "k").orElseThrow().value()).isEqualTo("second");
    }

    @Test
    void aNewerTokenIsAcceptedAndBecomesTheHighest(RunContext run) {
        FencedTarget<String> row = FencedTarget.row(run, FencingMode.FENCED, FirstWritePolicy.CREATE);
        row.write("s", "k", 7, "old");

        assertThat(row.write("s", "k", 9, "new")).isEqualTo(new WriteOutcome.Accepted(9, 7L));
        assertThat(row.write("s", "k", 8, "between")).isEqualTo(new WriteOutcome.Stale(8, 9));
    }

    @Test
    void firstWriteCreatesTheResourceUnderTheCreatePolicy(RunContext run) {
        FencedTarget<String> row = FencedTarget.row(run, FencingMode.FENCED, FirstWritePolicy.CREATE);

        assertThat(row.write("s", "fresh", 3, "hello")).isEqualTo(new WriteOutcome.Accepted(3, null));
        assertThat(row.read("s", "fresh")).get().isEqualTo(new StoredValue<>("hello", 3, null));
    }

    @Test
    void aMissingResourceIsReportedAsMissingUnderTheMissingPolicy(RunContext run) {
        FencedTarget<String> row = FencedTarget.row(run, FencingMode.FENCED, FirstWritePolicy.MISSING);

        assertThat(row.write("s", "absent", 3, "hello")).isEqualTo(new WriteOutcome.Missing("absent"));
        assertThat(row.read("s", "absent")).as("nothing was created").isEmpty();
    }

    @Test
    void theMissingPolicyStillUpdatesAResourceThatExists(RunContext run) {
        FencedTarget.row(run, FencingMode.FENCED, FirstWritePolicy.CREATE).write("s", "k", 1, "seed");
        FencedTarget<String> row = FencedTarget.row(run, FencingMode.FENCED, FirstWritePolicy.MISSING);

        assertThat(row.write("s", "k", 2, "update")).isEqualTo(new WriteOutcome.Accepted(2, 1L));
        assertThat(row.write("s", "k", 1, "stale")).isEqualTo(new WriteOutcome.Stale(1, 2));
    }

    @Test
    void aRolledBackWriteLeavesTheHighestTokenUnchanged(RunContext run) {
        FencedTarget<String> row = FencedTarget.row(run, FencingMode.FENCED, FirstWritePolicy.CREATE);
        row.write("s", "k", 5, "committed");

        assertThatThrownBy(() -> run.jdbi().useTransaction(h -> {
            assertThat(row.write(h, "s", "k", 9, null, "doomed")).isEqualTo(new WriteOutcome.Accepted(9, 5L));
            throw new IllegalStateException("the caller's later step failed");
        })).hasMessageContaining("later step failed");

        assertThat(row.read("s", "k")).get().isEqualTo(new StoredValue<>("committed", 5, null));
        assertThat(row.write("s", "k", 6, "after rollback"))
                .as("token 9 was never accepted, so 6 is still newer than the highest (5)")
                .isEqualTo(new WriteOutcome.Accepted(6, 5L));
    }

    @Test
    void theSequenceNumberOrdersWritesWithinOneToken(RunContext run) {
        FencedTarget<String> row = FencedTarget.row(run, FencingMode.FENCED, FirstWritePolicy.CREATE);
        assertThat(row.write("s", "k", 51, 1L, "op A")).isEqualTo(new WriteOutcome.Accepted(51, null));
        assertThat(row.write("s", "k", 51, 2L, "op B")).isEqualTo(new WriteOutcome.Accepted(51, 51L));

        assertThat(row.write("s", "k", 51, 1L, "op A again"))
                .as("op A arrives late, after op B")
                .isEqualTo(new WriteOutcome.OutOfOrder(51, 1, 2));
        assertThat(row.write("s", "k", 51, 2L, "op B twice")).isEqualTo(new WriteOutcome.OutOfOrder(51, 2, 2));
        assertThat(row.read("s", "k").orElseThrow().value()).isEqualTo("op B");
    }

    @Test
    void aNewTokenRestartsTheSequence(RunContext run) {
        FencedTarget<String> row = FencedTarget.row(run, FencingMode.FENCED, FirstWritePolicy.CREATE);
        row.write("s", "k", 51, 9L, "late in generation 51");

        assertThat(row.write("s", "k", 52, 1L, "first of 52")).isEqualTo(new WriteOutcome.Accepted(52, 51L));
        assertThat(row.write("s", "k", 51, 10L, "generation 51 again")).isEqualTo(new WriteOutcome.Stale(51, 52));
    }

    @Test
    void tokensAtTheTopOfTheRangeAreComparedExactly(RunContext run) {
        FencedTarget<String> row = FencedTarget.row(run, FencingMode.FENCED, FirstWritePolicy.CREATE);
        row.write("s", "k", Long.MAX_VALUE, "max");

        assertThat(row.write("s", "k", Long.MAX_VALUE - 1, "one below"))
                .isEqualTo(new WriteOutcome.Stale(Long.MAX_VALUE - 1, Long.MAX_VALUE));
        assertThat(row.write("s", "k", Long.MAX_VALUE, "max again")).isEqualTo(new WriteOutcome.Accepted(Long.MAX_VALUE, Long.MAX_VALUE));
        assertThat(row.read("s", "k").orElseThrow().token()).isEqualTo(Long.MAX_VALUE);
    }

    @Test
    void resourcesInDifferentScopesDoNotShareAHighestToken(RunContext run) {
        FencedTarget<String> row = FencedTarget.row(run, FencingMode.FENCED, FirstWritePolicy.CREATE);
        row.write("customer-17", "export", 10, "c17");

        assertThat(row.write("customer-24", "export", 5, "c24")).isEqualTo(new WriteOutcome.Accepted(5, null));
    }

    @Test
    void checkThenWriteRefusesAStaleTokenWhenNoRaceHappens(RunContext run) {
        FencedTarget<String> row = FencedTarget.row(run, FencingMode.CHECK_THEN_WRITE, FirstWritePolicy.CREATE);
        row.write("s", "k", 2, "new");

        assertThat(row.write("s", "k", 1, "old")).isEqualTo(new WriteOutcome.Stale(1, 2));
    }

    @Test
    void checkThenWriteLosesWhenANewerWriteLandsBetweenCheckAndWrite(RunContext run) {
        FencedTarget<String> naive = FencedTarget.row(run, FencingMode.CHECK_THEN_WRITE, FirstWritePolicy.CREATE);
        FencedTarget<String> newer = FencedTarget.row(run, FencingMode.FENCED, FirstWritePolicy.CREATE);
        naive.write("s", "k", 1, "v1");
        naive.setBetweenCheckAndWrite(() -> newer.write("s", "k", 2, "from holder 2"));

        WriteOutcome outcome = naive.write("s", "k", 1, "from holder 1");

        assertThat(outcome).as("the check saw token 1 as current; the write replaced 2")
                .isEqualTo(new WriteOutcome.Accepted(1, 2L));
        assertThat(row(naive)).as("holder 2's state was overwritten by the stale holder")
                .isEqualTo(new StoredValue<>("from holder 1", 1, null));
    }

    @Test
    void checkThenWriteCannotJoinACallersTransaction(RunContext run) {
        FencedTarget<String> naive = FencedTarget.row(run, FencingMode.CHECK_THEN_WRITE, FirstWritePolicy.CREATE);

        assertThatThrownBy(() -> run.jdbi().useHandle(h -> naive.write(h, "s", "k", 1, null, "v")))
                .isInstanceOf(IllegalStateException.class);
    }

    private static StoredValue<String> row(FencedTarget<String> target) {
        return target.read("s", "k").orElseThrow();
    }
}
