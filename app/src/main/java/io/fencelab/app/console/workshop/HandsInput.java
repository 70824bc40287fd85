package io.fencelab.app.console.workshop;

import io.fencelab.app.console.model.ConsoleModel;
import io.fencelab.app.console.model.LessonModel;
import io.fencelab.app.console.model.LessonModel.QuestionState;
import io.fencelab.app.votes.VoteTally;
import io.fencelab.scenarios.Question;
import java.util.ArrayList;
import java.util.List;
import javafx.beans.Observable;
import javafx.geometry.Pos;
import javafx.scene.control.Label;
import javafx.scene.control.Spinner;
import javafx.scene.layout.FlowPane;
import javafx.scene.layout.HBox;
import javafx.scene.layout.VBox;

/**
 * The teacher's show of hands (in the teacher's window): a count per choice of the question asked or
 * just revealed, added to the room's chart beside the phones' votes. Shown only while there is such a
 * question; hands it the counts through {@code hands}, and shows what the model holds.
 */
public final class HandsInput extends VBox {

    /** Where a count goes: {@code count} hands for {@code choice} (0-based). */
    @FunctionalInterface
    public interface Hands {
        void set(int choice, int count);
    }

    /** The most hands one choice can get: a large lecture hall. */
    static final int MAX_HANDS = 999;

    private final ConsoleModel model;
    private final Hands hands;
    private final FlowPane choices = new FlowPane(14, 8);
    private final Label phones = new Label();
    private final List<Spinner<Integer>> spinners = new ArrayList<>();
    private String shownFor;
    private boolean updating;

    public HandsInput(ConsoleModel model, Hands hands) {
        super(6);
        this.model = model;
        this.hands = hands;
        setId("hands");
        Label heading = new Label("Show of hands");
        heading.getStyleClass().add("teacher-heading");
        Label how = new Label("Count the hands for each choice; they are added to the room's chart.");
        how.setWrapText(true);
        phones.setId("hands-phones");
        phones.setWrapText(true);
        getChildren().addAll(heading, how, choices, phones);
        LessonModel lesson = model.lesson();
        for (Observable o : new Observable[] {lesson.questionProperty(), lesson.questionStepProperty(),
                model.votes().countsProperty(), model.votes().addressProperty(), model.votes().problemProperty()}) {
            o.addListener(x -> refresh());
        }
        refresh();
    }

    private void refresh() {
        LessonModel lesson = model.lesson();
        Question q = lesson.shownQuestion();
        VoteTally.Counts counts = model.votes().countsProperty().get();
        boolean on = q != null && lesson.questionProperty().get() != QuestionState.NONE && counts != null
                && counts.step() == lesson.questionStepProperty().get() && counts.choices() == q.choices().size();
        setVisible(on);
        setManaged(on);
        if (!on) {
            return;
        }
        if (!counts.id().equals(shownFor)) {
            shownFor = counts.id();
            spinners.clear();
            choices.getChildren().clear();
            for (int i = 0; i < q.choices().size(); i++) {
                int choice = i;
                Spinner<Integer> s = new Spinner<>(0, MAX_HANDS, 0);
                s.setEditable(true);
                s.setPrefWidth(90);
                s.setId("hands-" + Question.letter(i));
                s.valueProperty().addListener((o, was, now) -> {
                    if (!updating && now != null) {
                        hands.set(choice, now);
                    }
                });
                spinners.add(s);
                HBox box = new HBox(6, new Label(Character.toString(Question.letter(i))), s);
                box.setAlignment(Pos.CENTER_LEFT);
                choices.getChildren().add(box);
            }
        }
        updating = true;
        try {
            for (int i = 0; i < spinners.size(); i++) {
                if (!counts.hands().get(i).equals(spinners.get(i).getValue())) {
                    spinners.get(i).getValueFactory().setValue(counts.hands().get(i));
                }
            }
        } finally {
            updating = false;
        }
        String problem = model.votes().problemProperty().get();
        phones.setText(!problem.isEmpty() ? problem : counts.phoneVotes() + (counts.phoneVotes() == 1
                ? " phone has" : " phones have") + " voted" + (counts.open() ? " so far." : "."));
    }
}
