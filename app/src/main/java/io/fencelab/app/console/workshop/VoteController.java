package io.fencelab.app.console.workshop;

import io.fencelab.app.console.model.ConsoleModel;
import io.fencelab.app.console.model.LessonModel;
import io.fencelab.app.console.model.LessonModel.QuestionState;
import io.fencelab.app.console.model.VoteModel;
import io.fencelab.app.votes.LanAddress;
import io.fencelab.app.votes.VoteServer;
import io.fencelab.app.votes.VoteTally;
import io.fencelab.scenarios.Question;
import java.io.IOException;
import java.net.InetAddress;
import java.util.function.Supplier;

/**
 * Votes from the room. While a workshop is open a {@link VoteServer} serves the voting page on the
 * local network (the port is bound only then); a question being asked is open to votes, its reveal
 * closes it (the counts stay for the chart), and a new lesson, a new scenario or the workshop closing
 * drops every vote. The teacher's show of hands is added to the same counts. Votes arrive on the
 * server's threads into the {@link VoteTally}; {@link #tick} copies the counts into the
 * {@link VoteModel} at most once a frame, when they changed.
 */
public final class VoteController {

    /** The port phones are sent to, when free (else any free port; the address on screen says which). */
    public static final int DEFAULT_PORT = 8020;

    private final ConsoleModel model;
    private final LessonModel lesson;
    private final VoteModel votes;
    private final int port;
    private final Supplier<InetAddress> address;
    private final VoteTally tally = new VoteTally();
    private VoteServer server;
    private long seen = -1;

    public VoteController(ConsoleModel model) {
        this(model, DEFAULT_PORT, LanAddress::find);
    }

    /** Serving at {@code port} (0: any free port) and showing {@code address} as the machine's. */
    public VoteController(ConsoleModel model, int port, Supplier<InetAddress> address) {
        this.model = model;
        this.lesson = model.lesson();
        this.votes = model.votes();
        this.port = port;
        this.address = address;
        lesson.workshopProperty().addListener((o, was, now) -> {
            tally.reset();
            if (now == null) {
                stopServer();
            } else {
                startServer();
            }
            follow();
        });
        lesson.lessonProperty().addListener((o, was, now) -> dropVotes());
        model.scenarioProperty().addListener((o, was, now) -> dropVotes());
        lesson.questionProperty().addListener((o, was, now) -> follow());
        lesson.questionStepProperty().addListener((o, was, now) -> follow());
        if (lesson.workshopProperty().get() != null) {
            startServer();
        }
    }

    /** The show of hands for {@code choice} (0-based) of the latest question: {@code count} hands. */
    public void setHands(int choice, int count) {
        tally.setHands(choice, count);
        tick(0);
    }

    /**
     * One more hand for {@code choice} (0-based) of the latest question: the show of hands keyed in
     * one press a hand (Shift + 1 to 6), which works with one screen, where the teacher's window
     * never opens over a question.
     */
    public void raiseHand(int choice) {
        VoteTally.Counts latest = tally.latest();
        if (latest != null && choice >= 0 && choice < latest.hands().size()) {
            setHands(choice, latest.hands().get(choice) + 1);
        }
    }

    /** Copies the counts into the model when they changed (once a frame, from the frame loop). */
    public void tick(long nowNanos) {
        long v = tally.version();
        if (v != seen) {
            seen = v;
            votes.countsProperty().set(tally.latest());
        }
    }

    /** The tally (tests vote into it directly, and read it). */
    public VoteTally tally() {
        return tally;
    }

    /** The port the vote server listens on, or -1 when none runs. */
    public int port() {
        return server == null ? -1 : server.port();
    }

    /** Stops the server (the console is closing). */
    public void shutdown() {
        stopServer();
    }

    /** The question asked is open to votes; revealed or gone, it is closed. */
    private void follow() {
        Question q = lesson.shownQuestion();
        if (lesson.questionProperty().get() == QuestionState.ASKING && q != null) {
            tally.open(lesson.questionStepProperty().get(), q.ask(), q.choices());
        } else {
            tally.close();
        }
        tick(0);
    }

    private void dropVotes() {
        tally.reset();
        follow();
    }

    private void startServer() {
        if (server != null) {
            return;
        }
        try {
            server = VoteServer.start(tally, port);
            votes.addressProperty().set(server.url(address.get()));
            votes.problemProperty().set("");
        } catch (IOException e) {
            votes.addressProperty().set("");
            votes.problemProperty().set("Votes from phones are off: the vote server could not start ("
                    + e.getMessage() + "). A show of hands still works.");
            model.messageProperty().set(votes.problemProperty().get());
        }
    }

    private void stopServer() {
        if (server != null) {
            server.close();
            server = null;
        }
        votes.addressProperty().set("");
        votes.problemProperty().set("");
    }
}
