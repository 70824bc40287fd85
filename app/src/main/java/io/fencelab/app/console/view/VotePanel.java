package io.fencelab.app.console.view;

import io.fencelab.app.console.model.ConsoleModel;
import io.fencelab.app.console.model.LessonModel;
import io.fencelab.app.console.model.LessonModel.QuestionState;
import io.fencelab.app.console.model.VoteModel;
import io.fencelab.app.votes.VoteTally;
import io.fencelab.scenarios.Question;
import io.nayuki.qrcodegen.QrCode;
import java.util.Objects;
import javafx.beans.Observable;
import javafx.geometry.Pos;
import javafx.scene.control.Label;
import javafx.scene.image.ImageView;
import javafx.scene.image.PixelWriter;
import javafx.scene.image.WritableImage;
import javafx.scene.layout.HBox;
import javafx.scene.layout.Priority;
import javafx.scene.layout.Region;
import javafx.scene.layout.VBox;
import javafx.scene.paint.Color;

/**
 * The room's votes in the presenter view. While a question is asked: where to vote (the address and
 * its QR code) and how many have voted, never how, so the room is not swayed. At the reveal: a bar per
 * choice with its count (phones and hands together), the right answer marked in words and colour.
 * Hidden otherwise. Binds to the {@link VoteModel} and the {@link LessonModel}; asks nothing.
 */
public final class VotePanel extends VBox {

    /** The panel's width: a QR code a phone reads from the back of a room, and bars long enough to compare. */
    static final double WIDTH = 300;
    private static final double BAR_MAX = 150;
    private static final int QUIET_ZONE = 4;

    private final ConsoleModel model;
    private final Label heading = new Label();
    private final ImageView qr = new ImageView();
    private final Label address = new Label();
    private final Label note = new Label();
    private final VBox bars = new VBox(10);
    private String qrFor = "";

    public VotePanel(ConsoleModel model) {
        super(12);
        this.model = model;
        getStylesheets().add(Objects.requireNonNull(VotePanel.class.getResource(
                "/io/fencelab/app/console/votes.css"), "votes.css is missing from the build").toExternalForm());
        getStyleClass().add("votes");
        setId("votes");
        setPrefWidth(WIDTH);
        setMinWidth(WIDTH);
        setMaxWidth(WIDTH);
        setAlignment(Pos.TOP_CENTER);
        heading.getStyleClass().add("votes-heading");
        heading.setId("votes-heading");
        heading.setWrapText(true);
        address.getStyleClass().add("votes-address");
        address.setId("votes-address");
        address.setWrapText(true);
        note.getStyleClass().add("votes-note");
        note.setId("votes-note");
        note.setWrapText(true);
        qr.setId("votes-qr");
        qr.setSmooth(false);
        bars.setId("votes-bars");
        bars.setFillWidth(true);

        LessonModel lesson = model.lesson();
        VoteModel votes = model.votes();
        for (Observable o : new Observable[] {lesson.questionProperty(), lesson.questionStepProperty(),
                lesson.steps(), votes.addressProperty(), votes.countsProperty()}) {
            o.addListener(x -> refresh());
        }
        refresh();
    }

    private void refresh() {
        LessonModel lesson = model.lesson();
        VoteModel votes = model.votes();
        QuestionState state = lesson.questionProperty().get();
        Question q = lesson.shownQuestion();
        VoteTally.Counts counts = votes.countsProperty().get();
        boolean theseCounts = counts != null && counts.step() == lesson.questionStepProperty().get()
                && q != null && counts.choices() == q.choices().size();
        String url = votes.addressProperty().get();
        if (state == QuestionState.ASKING && q != null && !url.isEmpty()) {
            asking(url, theseCounts ? counts.total() : 0);
            show(true);
        } else if (state == QuestionState.REVEALED && theseCounts && counts.total() > 0) {
            revealed(q, counts);
            show(true);
        } else {
            show(false);
        }
    }

    private void show(boolean on) {
        setVisible(on);
        setManaged(on);
    }

    private void asking(String url, int total) {
        heading.setText("Vote on your phone");
        if (!url.equals(qrFor)) {
            qr.setImage(qrImage(url, (int) (WIDTH - 60)));
            qrFor = url;
        }
        address.setText(url.replaceFirst("^http://", "").replaceFirst("/$", ""));
        note.setText(total == 1 ? "1 vote so far" : total + " votes so far");
        getChildren().setAll(heading, qr, address, note);
    }

    private void revealed(Question q, VoteTally.Counts counts) {
        heading.setText("The room voted");
        int max = 1;
        for (int i = 0; i < counts.choices(); i++) {
            max = Math.max(max, counts.total(i));
        }
        bars.getChildren().clear();
        for (int i = 0; i < counts.choices(); i++) {
            boolean right = i == q.answer();
            char letter = Question.letter(i);
            Label name = new Label(right ? letter + " ✓" : Character.toString(letter));
            name.getStyleClass().add("votes-letter");
            name.setMinWidth(56);
            Region bar = new Region();
            bar.getStyleClass().add("votes-bar");
            double w = BAR_MAX * counts.total(i) / max;
            bar.setMinWidth(w);
            bar.setPrefWidth(w);
            bar.setMaxWidth(w);
            Region gap = new Region();
            HBox.setHgrow(gap, Priority.ALWAYS);
            Label count = new Label(Integer.toString(counts.total(i)));
            count.getStyleClass().add("votes-count");
            count.setId("vote-count-" + letter);
            count.setMinWidth(Region.USE_PREF_SIZE);
            HBox row = new HBox(8, name, bar, gap, count);
            row.setAlignment(Pos.CENTER_LEFT);
            row.getStyleClass().add("votes-row");
            row.setId("vote-row-" + letter);
            if (right) {
                row.getStyleClass().add("votes-right");
            }
            bars.getChildren().add(row);
        }
        int hands = counts.total() - counts.phoneVotes();
        note.setText(counts.total() + (counts.total() == 1 ? " vote" : " votes")
                + (hands > 0 ? " (" + hands + " by show of hands)" : "") + ". ✓ marks the right answer.");
        getChildren().setAll(heading, bars, note);
    }

    /** {@code text} as a QR code about {@code px} pixels wide, black on white, with its quiet zone. */
    static WritableImage qrImage(String text, int px) {
        QrCode code = QrCode.encodeText(text, QrCode.Ecc.MEDIUM);
        int modules = code.size + 2 * QUIET_ZONE;
        int scale = Math.max(1, px / modules);
        WritableImage image = new WritableImage(modules * scale, modules * scale);
        PixelWriter w = image.getPixelWriter();
        for (int y = 0; y < modules * scale; y++) {
            for (int x = 0; x < modules * scale; x++) {
                boolean dark = code.getModule(x / scale - QUIET_ZONE, y / scale - QUIET_ZONE);
                w.setColor(x, y, dark ? Color.BLACK : Color.WHITE);
            }
        }
        return image;
    }
}
