package io.fencelab.app.console.workshop;

import io.fencelab.app.console.model.LessonModel;
import io.fencelab.app.console.model.LessonModel.QuestionState;
import io.fencelab.app.console.run.StoryView;
import io.fencelab.scenarios.Question;
import javafx.geometry.Pos;
import javafx.scene.control.Label;
import javafx.scene.control.ScrollPane;
import javafx.scene.layout.HBox;
import javafx.scene.layout.Priority;
import javafx.scene.layout.Region;
import javafx.scene.layout.VBox;

/**
 * "Predict, then reveal": the question of the step guided mode stopped at, in the console's right-hand
 * column beside the timeline (never over it, so the lanes it asks about stay in view), its choices
 * lettered A, B, C…; the room's pick (keys 1 to 6) is marked; once revealed, the right choice is shown with its why.
 */
public final class QuestionOverlay extends VBox {

    private final LessonModel lesson;
    final Label title = new Label();
    final Label ask = new Label();
    final VBox choices = new VBox(8);
    final Label why = new Label();
    final Label hint = new Label();

    public QuestionOverlay(LessonModel lesson) {
        super(14);
        this.lesson = lesson;
        setId("question");
        getStyleClass().add("question-overlay");
        setFillWidth(true);
        title.getStyleClass().add("question-title");
        ask.getStyleClass().add("question-ask");
        ask.setWrapText(true);
        ask.setMinHeight(Region.USE_PREF_SIZE);
        ask.setId("question-ask");
        why.getStyleClass().add("question-why");
        why.setWrapText(true);
        why.setMinHeight(Region.USE_PREF_SIZE);
        why.setId("question-why");
        hint.getStyleClass().add("question-hint");
        hint.setWrapText(true);
        getChildren().addAll(title, ask, choices, why, hint);
        lesson.questionProperty().addListener(o -> show());
        lesson.questionStepProperty().addListener(o -> show());
        lesson.pickProperty().addListener(o -> show());
        show();
    }

    /**
     * The column to put beside the timeline, over the verdict's: this question, scrolling if a small
     * window leaves it less height than it needs; shown only while a question is.
     */
    public ScrollPane column() {
        ScrollPane column = new ScrollPane(this);
        column.setId("question-column");
        column.getStyleClass().add("question-column");
        column.setFitToWidth(true);
        column.setHbarPolicy(ScrollPane.ScrollBarPolicy.NEVER);
        column.visibleProperty().bind(visibleProperty());
        column.managedProperty().bind(visibleProperty());
        return column;
    }

    private void show() {
        Question q = lesson.shownQuestion();
        setVisible(q != null);
        if (q == null) {
            return;
        }
        boolean revealed = lesson.questionProperty().get() == QuestionState.REVEALED;
        int pick = lesson.pickProperty().get();
        title.setText((revealed ? "The answer" : "Predict") + " · step " + (lesson.questionStepProperty().get() + 1));
        ask.setText(StoryView.shown(q.ask()));
        choices.getChildren().clear();
        for (int i = 0; i < q.choices().size(); i++) {
            Label letter = new Label(String.valueOf(Question.letter(i)));
            letter.getStyleClass().add("choice-letter");
            letter.setMinWidth(34);
            letter.setAlignment(Pos.CENTER);
            Label text = new Label(StoryView.shown(q.choices().get(i)));
            text.setWrapText(true);
            text.setMinHeight(Region.USE_PREF_SIZE);
            text.getStyleClass().add("choice-text");
            HBox.setHgrow(text, Priority.ALWAYS);
            text.setMaxWidth(Double.MAX_VALUE);
            HBox row = new HBox(12, letter, text);
            row.setAlignment(Pos.CENTER_LEFT);
            row.getStyleClass().add("choice");
            row.setId("choice-" + Question.letter(i));
            if (i == pick) {
                row.getStyleClass().add("picked");
            }
            if (revealed) {
                row.getStyleClass().add(i == q.answer() ? "right" : "wrong");
            }
            choices.getChildren().add(row);
        }
        why.setVisible(revealed);
        why.setManaged(revealed);
        why.setText(revealed ? "✓ " + Question.letter(q.answer()) + ". " + StoryView.shown(q.why())
                + (pick >= 0 ? (pick == q.answer() ? "  (the room got it)" : "  (the room picked "
                        + Question.letter(pick) + ")") : "") : "");
        hint.setText(revealed ? "Continue (Space or Page Down) goes on." : "Let the room decide (keys 1 to "
                + q.choices().size() + " mark its pick), then Continue (Space or Page Down) reveals the answer.");
    }
}
