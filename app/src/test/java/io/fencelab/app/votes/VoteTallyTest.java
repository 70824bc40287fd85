package io.fencelab.app.votes;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

class VoteTallyTest {

    private static final List<String> ABC = List.of("yes", "no", "it depends");

    private final AtomicInteger next = new AtomicInteger();
    private final VoteTally tally = new VoteTally(() -> "q" + next.incrementAndGet());

    @Test
    void eachPhoneVotesOncePerQuestionAndASecondVoteLeavesTheCountsAlone() {
        String q = tally.open(2, "Which?", ABC);
        assertThat(tally.vote(q, "phone-1", 1)).isEqualTo(VoteTally.Outcome.COUNTED);
        assertThat(tally.vote(q, "phone-2", 1)).isEqualTo(VoteTally.Outcome.COUNTED);
        assertThat(tally.vote(q, "phone-3", 0)).isEqualTo(VoteTally.Outcome.COUNTED);

        assertThat(tally.vote(q, "phone-1", 2)).as("phone-1 changing its mind").isEqualTo(VoteTally.Outcome.ALREADY_VOTED);
        assertThat(tally.latest().phones()).as("the counts after the refused second vote").containsExactly(1, 2, 0);
        assertThat(tally.hasVoted(q, "phone-1")).isTrue();
        assertThat(tally.hasVoted(q, "phone-4")).isFalse();
    }

    @Test
    void onlyTheOpenQuestionAndItsChoicesTakeVotes() {
        String first = tally.open(1, "First?", ABC);
        String second = tally.open(3, "Second?", List.of("a", "b"));
        assertThat(tally.vote(first, "phone", 0)).as("a question no longer asked").isEqualTo(VoteTally.Outcome.CLOSED);
        assertThat(tally.vote("made-up", "phone", 0)).isEqualTo(VoteTally.Outcome.UNKNOWN_QUESTION);
        assertThat(tally.vote(null, "phone", 0)).isEqualTo(VoteTally.Outcome.UNKNOWN_QUESTION);
        assertThat(tally.vote(second, "phone", 2)).as("choice C of two").isEqualTo(VoteTally.Outcome.NO_SUCH_CHOICE);
        assertThat(tally.vote(second, "phone", -1)).isEqualTo(VoteTally.Outcome.NO_SUCH_CHOICE);
        assertThat(tally.latest().total()).as("nothing refused was counted").isZero();
        assertThat(tally.vote(second, "phone", 1)).as("the same phone, now a valid vote").isEqualTo(VoteTally.Outcome.COUNTED);
    }

    @Test
    void theRevealClosesTheQuestionButKeepsItsCountsForTheChart() {
        String q = tally.open(0, "Which?", ABC);
        tally.vote(q, "phone-1", 2);
        tally.close();
        assertThat(tally.ballot()).as("no question for phones after the reveal").isNull();
        assertThat(tally.vote(q, "phone-2", 2)).isEqualTo(VoteTally.Outcome.CLOSED);
        VoteTally.Counts counts = tally.latest();
        assertThat(counts.open()).isFalse();
        assertThat(counts.step()).isZero();
        assertThat(counts.phones()).containsExactly(0, 0, 1);
    }

    @Test
    void aQuestionAskedAgainInTheSameLessonKeepsItsIdAndItsVoters() {
        String q = tally.open(4, "Which?", ABC);
        tally.vote(q, "phone-1", 0);
        tally.close();
        tally.open(5, "Another?", ABC);
        assertThat(tally.open(4, "Which?", ABC)).as("the teacher went back to the question").isEqualTo(q);
        assertThat(tally.vote(q, "phone-1", 1)).isEqualTo(VoteTally.Outcome.ALREADY_VOTED);
        assertThat(tally.latest().phones()).containsExactly(1, 0, 0);
    }

    @Test
    void handsAreAddedToThePhonesVotesOfTheLatestQuestion() {
        assertThat(tally.setHands(0, 4)).as("no question asked yet").isFalse();
        String q = tally.open(1, "Which?", ABC);
        tally.vote(q, "phone-1", 0);
        tally.vote(q, "phone-2", 1);
        assertThat(tally.setHands(0, 4)).isTrue();
        assertThat(tally.setHands(1, 2)).isTrue();
        assertThat(tally.setHands(1, 3)).as("a recount replaces the count").isTrue();
        assertThat(tally.setHands(3, 1)).as("no choice D").isFalse();
        assertThat(tally.setHands(2, -1)).as("negative hands").isFalse();
        tally.close();
        assertThat(tally.setHands(2, 1)).as("hands may still come in at the reveal").isTrue();

        VoteTally.Counts counts = tally.latest();
        assertThat(counts.hands()).containsExactly(4, 3, 1);
        assertThat(counts.total(0)).isEqualTo(5);
        assertThat(counts.total(1)).isEqualTo(4);
        assertThat(counts.total()).isEqualTo(10);
        assertThat(counts.phoneVotes()).isEqualTo(2);
    }

    @Test
    void resetDropsEveryQuestionVoteAndVoter() {
        String q = tally.open(1, "Which?", ABC);
        tally.vote(q, "phone-1", 0);
        tally.setHands(1, 5);
        long before = tally.version();
        tally.reset();
        assertThat(tally.version()).as("the reset is a change readers see").isGreaterThan(before);
        assertThat(tally.latest()).isNull();
        assertThat(tally.ballot()).isNull();
        assertThat(tally.vote(q, "phone-2", 0)).as("the old lesson's question").isEqualTo(VoteTally.Outcome.UNKNOWN_QUESTION);
        assertThat(tally.hasVoted(q, "phone-1")).isFalse();
        String again = tally.open(1, "Which?", ABC);
        assertThat(again).as("the same step in the next lesson is a new question").isNotEqualTo(q);
        assertThat(tally.vote(again, "phone-1", 0)).isEqualTo(VoteTally.Outcome.COUNTED);
    }

    @Test
    void theVersionMovesOnlyWhenSomethingChanged() {
        String q = tally.open(1, "Which?", ABC);
        long v = tally.version();
        tally.open(1, "Which?", ABC);
        tally.vote(q, "phone-1", 9);
        tally.setHands(0, 0);
        assertThat(tally.version()).as("re-opening the open question, a refused vote, the same hands").isEqualTo(v);
        tally.vote(q, "phone-1", 0);
        assertThat(tally.version()).isGreaterThan(v);
    }

    @Test
    void questionIdsAreRandomAndUnguessable() {
        VoteTally random = new VoteTally();
        String a = random.open(0, "A?", ABC);
        random.reset();
        String b = random.open(0, "A?", ABC);
        assertThat(a).matches("[0-9a-f]{32}").isNotEqualTo(b);
    }

    @Test
    void manyPhonesVotingAtOnceAreAllCounted() throws InterruptedException {
        String q = tally.open(0, "Which?", ABC);
        Thread[] threads = new Thread[8];
        for (int t = 0; t < threads.length; t++) {
            int thread = t;
            threads[t] = Thread.ofVirtual().start(() -> {
                for (int i = 0; i < 500; i++) {
                    tally.vote(q, "phone-" + thread + "-" + i, i % 3);
                    tally.vote(q, "phone-" + thread + "-" + i, (i + 1) % 3); // refused: already voted
                }
            });
        }
        for (Thread t : threads) {
            t.join();
        }
        VoteTally.Counts counts = tally.latest();
        assertThat(counts.phoneVotes()).isEqualTo(8 * 500);
        assertThat(counts.phones()).containsExactly(8 * 167, 8 * 167, 8 * 166);
    }
}
