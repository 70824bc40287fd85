package io.fencelab.app.console.run;

import io.fencelab.app.console.model.ConsoleModel;
import io.fencelab.app.console.model.LessonModel;
import io.fencelab.app.console.ui.Intents;
import io.fencelab.scenarios.StoryStep;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;
import javafx.collections.ListChangeListener;
import javafx.geometry.Pos;
import javafx.scene.Node;
import javafx.scene.control.Label;
import javafx.scene.control.Tooltip;
import javafx.scene.layout.HBox;
import javafx.scene.layout.Priority;
import javafx.scene.layout.VBox;

/**
 * The story's steps, numbered, following the run: steps reached are ticked, the current one is
 * highlighted (and scrolled into view), a step with a question carries a "?". Clicking a step moves
 * the run there; a live run cannot go back, so there the steps say so and do not react.
 */
public final class StoryView extends VBox {

    private final LessonModel lesson;
    private final ConsoleModel model;
    private final Intents.Lesson intents;
    private final Consumer<Node> scrollTo;
    private final List<HBox> rows = new ArrayList<>();
    private final List<Tooltip> tips = new ArrayList<>();

    StoryView(ConsoleModel model, Intents.Lesson intents, Consumer<Node> scrollTo) {
        super(6);
        this.model = model;
        this.lesson = model.lesson();
        this.intents = intents;
        this.scrollTo = scrollTo;
        setId("story");
        getStyleClass().add("story");
        lesson.steps().addListener((ListChangeListener<StoryStep>) c -> rebuild());
        lesson.currentStepProperty().addListener((o, was, now) -> mark(true));
        lesson.reached().addListener((ListChangeListener<Object>) c -> mark(false));
        model.capabilitiesProperty().addListener((o, was, now) -> mark(false));
        rebuild();
    }

    /**
     * Story text as the console shows it: a lesson's author may mark a name as code with backticks
     * (`current`), which a label would print literally; the name is shown without them.
     */
    public static String shown(String text) {
        return text == null ? "" : text.replace("`", "");
    }

    /** Row {@code i} (0-based), for tests. */
    HBox row(int i) {
        return rows.get(i);
    }

    private void rebuild() {
        rows.clear();
        tips.clear();
        getChildren().clear();
        int n = 1;
        for (StoryStep step : lesson.steps()) {
            int index = n - 1;
            Label number = new Label(n++ + ".");
            number.getStyleClass().add("story-number");
            number.setMinWidth(26);
            Label mark = new Label(step.asks() ? "?" : "");
            mark.getStyleClass().add("story-mark");
            mark.setMinWidth(20);
            mark.setAlignment(Pos.CENTER);
            Label text = new Label(shown(step.text()));
            text.setWrapText(true);
            text.getStyleClass().add("story-text");
            HBox.setHgrow(text, Priority.ALWAYS);
            text.setMaxWidth(Double.MAX_VALUE);
            HBox row = new HBox(6, number, mark, text);
            row.setId("story-step-" + (index + 1));
            row.getStyleClass().add("story-step");
            if (step.asks()) {
                row.getStyleClass().add("asks");
            }
            row.setOnMouseClicked(e -> {
                if (model.capabilitiesProperty().get().seek()) {
                    intents.seek().accept(index);
                }
            });
            Tooltip tip = new Tooltip();
            Tooltip.install(row, tip);
            tips.add(tip);
            rows.add(row);
            getChildren().add(row);
        }
        mark(false);
    }

    private void mark(boolean scroll) {
        int current = lesson.currentStep();
        int reached = lesson.reached().size();
        boolean seek = model.capabilitiesProperty().get().seek();
        for (int i = 0; i < rows.size(); i++) {
            HBox row = rows.get(i);
            StoryStep step = lesson.steps().get(i);
            toggle(row, "current", i == current);
            toggle(row, "reached", i < reached && i != current);
            toggle(row, "no-seek", !seek);
            Label mark = (Label) row.getChildren().get(1);
            mark.setText(i == current ? "▶" : i < reached ? "✓" : step.asks() ? "?" : "");
            if (step.asks() && (i == current || i < reached)) {
                mark.setText(mark.getText() + "?");
            }
            tips.get(i).setText((seek ? "Click to move the run to this step" + (step.asks()
                    ? " (it asks the room a question)" : "")
                    : "A live run cannot jump to a step: real time does not rewind"));
        }
        if (scroll && current >= 0 && current < rows.size()) {
            scrollTo.accept(rows.get(current));
        }
    }

    private static void toggle(Node node, String styleClass, boolean on) {
        if (on && !node.getStyleClass().contains(styleClass)) {
            node.getStyleClass().add(styleClass);
        } else if (!on) {
            node.getStyleClass().remove(styleClass);
        }
    }
}
