package io.fencelab.app.console.workshop;

import io.fencelab.app.console.model.ConsoleModel;
import io.fencelab.app.console.model.LessonModel;
import io.fencelab.app.console.model.LessonModel.QuestionState;
import io.fencelab.app.console.model.VoteModel;
import io.fencelab.app.votes.VoteTally;
import io.fencelab.scenarios.Question;
import io.nayuki.qrcodegen.QrCode;
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
 * The room's votes in the presenter view, inside the question's column so the timeline keeps its
 * width. While a question is asked: where to vote (its QR code and address) and how many have voted,
 * never how, so the room is not swayed. At the reveal the count of each choice is drawn under the
 * choice itself ({@link #bar}), the right one green as its choice is, with the total under the why
 * ({@link #total}). Styled by votes.css, which the presenter view loads. Binds to the {@link VoteModel} and the {@link LessonModel}; asks nothing.
 */
public final class VotePanel extends HBox {

    /**
     * The QR code's size: small enough to share the question's column with a long question (phones
     * join once, at the first question, and their page then follows every question by itself); the
     * address beside it can be typed too.
     */
    static final int QR_PX = 120;
    /** The longest bar under a choice (the choice with the most votes). */
    private static final double BAR_MAX = 260;
    private static final int QUIET_ZONE = 4;

    private final ConsoleModel model;
    private final Label heading = new Label();
    private final ImageView qr = new ImageView();
    private final Label address = new Label();
    private final Label note = new Label();
    private String qrFor = "";

    public VotePanel(ConsoleModel model) {
        super(14);
        this.model = model;
        getStyleClass().add("votes");
        setId("votes");
        setAlignment(Pos.CENTER_LEFT);
        setMinHeight(Region.USE_PREF_SIZE);
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
        VBox words = new VBox(6, heading, address, note);
        HBox.setHgrow(words, Priority.ALWAYS);
        getChildren().setAll(qr, words);

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
        Question q = lesson.shownQuestion();
        String url = model.votes().addressProperty().get();
        boolean asking = lesson.questionProperty().get() == QuestionState.ASKING && q != null && !url.isEmpty();
        setVisible(asking);
        setManaged(asking);
        if (!asking) {
            return;
        }
        VoteTally.Counts counts = countsOf(model, q);
        int total = counts == null ? 0 : counts.total();
        heading.setText("Vote on your phone");
        if (!url.equals(qrFor)) {
            qr.setImage(qrImage(url, QR_PX));
            qrFor = url;
        }
        address.setText(url.replaceFirst("^http://", "").replaceFirst("/$", ""));
        note.setText(total == 1 ? "1 vote so far" : total + " votes so far");
    }

    /** The counts of question {@code q} on screen, or null when the tally holds another question's. */
    static VoteTally.Counts countsOf(ConsoleModel model, Question q) {
        LessonModel lesson = model.lesson();
        VoteTally.Counts counts = model.votes().countsProperty().get();
        return counts != null && q != null && counts.step() == lesson.questionStepProperty().get()
                && counts.choices() == q.choices().size() ? counts : null;
    }

    /** Choice {@code choice}'s votes at the reveal: a bar as long as its share of the largest, and its count. */
    static HBox bar(VoteTally.Counts counts, int choice, boolean right) {
        int max = 1;
        for (int i = 0; i < counts.choices(); i++) {
            max = Math.max(max, counts.total(i));
        }
        char letter = Question.letter(choice);
        Region bar = new Region();
        bar.getStyleClass().add("votes-bar");
        double w = Math.max(2, BAR_MAX * counts.total(choice) / max);
        bar.setMinWidth(w);
        bar.setPrefWidth(w);
        bar.setMaxWidth(w);
        int n = counts.total(choice);
        Label count = new Label(n == 1 ? "1 vote" : n + " votes");
        count.getStyleClass().add("votes-count");
        count.setId("vote-count-" + letter);
        count.setMinWidth(Region.USE_PREF_SIZE);
        HBox row = new HBox(10, bar, count);
        row.setAlignment(Pos.CENTER_LEFT);
        row.getStyleClass().add("votes-row");
        row.setId("vote-row-" + letter);
        if (right) {
            row.getStyleClass().add("votes-right");
        }
        return row;
    }

    /** The total under the why at the reveal: how many voted, how many of them by show of hands. */
    static Label total(VoteTally.Counts counts) {
        int hands = counts.total() - counts.phoneVotes();
        Label total = new Label("The room: " + counts.total() + (counts.total() == 1 ? " vote" : " votes")
                + (hands > 0 ? " (" + hands + " by show of hands)" : ""));
        total.getStyleClass().add("votes-note");
        total.setId("votes-total");
        total.setWrapText(true);
        total.setMinHeight(Region.USE_PREF_SIZE);
        return total;
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
