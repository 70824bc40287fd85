package io.fencelab.app.console.workshop;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.fencelab.app.console.model.ConsoleModel;
import io.fencelab.app.console.model.LessonModel;
import io.fencelab.app.console.model.LessonModel.QuestionState;
import io.fencelab.app.votes.VoteTally;
import io.fencelab.scenarios.Cue;
import io.fencelab.scenarios.Question;
import io.fencelab.scenarios.StoryStep;
import io.fencelab.scenarios.WorkshopLoader;
import java.net.ConnectException;
import java.net.InetAddress;
import java.net.Socket;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The vote controller against the lesson's state, as the lesson and workshop controllers change it
 * (JavaFX properties, no window): when the server listens, which question takes votes, when votes go.
 */
class VoteControllerTest {

    private static final Question WHICH = new Question("Which?", List.of("one", "two", "three"), 1, "because");

    private final ConsoleModel model = new ConsoleModel();
    private final LessonModel lesson = model.lesson();
    private final VoteController votes = new VoteController(model, 0, InetAddress::getLoopbackAddress);

    @AfterEach
    void shutdown() {
        votes.shutdown();
    }

    private void openWorkshopAtAQuestion() {
        lesson.steps().setAll(StoryStep.plain("first"),
                new StoryStep("second", Cue.WITH_PREVIOUS, WHICH, "", 0),
                new StoryStep("third", Cue.WITH_PREVIOUS, WHICH, "", 0));
        lesson.workshopProperty().set(WorkshopLoader.shipped());
        lesson.lessonProperty().set(0);
        lesson.questionStepProperty().set(1);
        lesson.questionProperty().set(QuestionState.ASKING);
    }

    @Test
    void nothingListensWithoutAWorkshopAndThePortClosesWithIt() throws Exception {
        assertThat(votes.port()).isEqualTo(-1);
        assertThat(model.votes().addressProperty().get()).isEmpty();
        openWorkshopAtAQuestion();
        int port = votes.port();
        assertThat(port).isPositive();
        assertThat(model.votes().addressProperty().get()).isEqualTo("http://127.0.0.1:" + port + "/");
        new Socket(InetAddress.getLoopbackAddress(), port).close();

        lesson.workshopProperty().set(null);
        assertThat(votes.port()).isEqualTo(-1);
        assertThat(model.votes().addressProperty().get()).isEmpty();
        assertThatThrownBy(() -> new Socket(InetAddress.getLoopbackAddress(), port).close())
                .isInstanceOf(ConnectException.class);
    }

    @Test
    void theQuestionAskedTakesVotesUntilItsReveal() {
        openWorkshopAtAQuestion();
        VoteTally.Ballot ballot = votes.tally().ballot();
        assertThat(ballot.ask()).isEqualTo("Which?");
        assertThat(votes.tally().vote(ballot.id(), "phone-1", 2)).isEqualTo(VoteTally.Outcome.COUNTED);
        votes.tick(0);
        assertThat(model.votes().countsProperty().get().phones()).containsExactly(0, 0, 1);
        assertThat(model.votes().countsProperty().get().step()).isEqualTo(1);

        lesson.questionProperty().set(QuestionState.REVEALED);
        assertThat(votes.tally().ballot()).as("closed at the reveal").isNull();
        assertThat(votes.tally().vote(ballot.id(), "phone-2", 0)).isEqualTo(VoteTally.Outcome.CLOSED);
        votes.setHands(0, 4);
        VoteTally.Counts counts = model.votes().countsProperty().get();
        assertThat(counts.open()).isFalse();
        assertThat(counts.hands()).containsExactly(4, 0, 0);

        // Continue clears the answer; the next step's question is asked: a new question, new votes.
        lesson.questionProperty().set(QuestionState.NONE);
        lesson.questionStepProperty().set(2);
        lesson.questionProperty().set(QuestionState.ASKING);
        assertThat(votes.tally().ballot().id()).isNotEqualTo(ballot.id());
        assertThat(model.votes().countsProperty().get().step()).isEqualTo(2);
        assertThat(model.votes().countsProperty().get().total()).isZero();
    }

    @Test
    void theNextLessonDropsEveryVote() {
        openWorkshopAtAQuestion();
        String id = votes.tally().ballot().id();
        votes.tally().vote(id, "phone-1", 1);
        votes.tick(0);
        assertThat(model.votes().countsProperty().get()).isNotNull();

        lesson.questionProperty().set(QuestionState.NONE);
        lesson.lessonProperty().set(1);
        assertThat(model.votes().countsProperty().get()).isNull();
        assertThat(votes.tally().vote(id, "phone-2", 1)).isEqualTo(VoteTally.Outcome.UNKNOWN_QUESTION);
        assertThat(votes.port()).as("the server stays for the next lesson").isPositive();
    }

    @Test
    void aTakenPortFallsBackToAFreeOne() throws Exception {
        try (java.net.ServerSocket taken = new java.net.ServerSocket(0)) {
            VoteController other = new VoteController(model, taken.getLocalPort(), InetAddress::getLoopbackAddress);
            try {
                openWorkshopAtAQuestion();
                assertThat(other.port()).isPositive().isNotEqualTo(taken.getLocalPort());
            } finally {
                other.shutdown();
            }
        }
    }
}
