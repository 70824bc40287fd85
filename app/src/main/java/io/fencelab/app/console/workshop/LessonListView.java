package io.fencelab.app.console.workshop;

import io.fencelab.app.console.model.LessonModel;
import io.fencelab.app.console.model.WorkshopProgress;
import io.fencelab.app.console.ui.Intents;
import io.fencelab.app.console.ui.Styles;
import io.fencelab.scenarios.Workshop;
import javafx.beans.Observable;
import javafx.collections.FXCollections;
import javafx.geometry.Insets;
import javafx.scene.control.Button;
import javafx.scene.control.Label;
import javafx.scene.control.ListCell;
import javafx.scene.control.ListView;
import javafx.scene.layout.HBox;
import javafx.scene.layout.Priority;
import javafx.scene.layout.Region;
import javafx.scene.layout.VBox;

/**
 * A workshop as a lesson list with progress: each lesson's title, kind and planned minutes, whether
 * it is done, being taught or still to come, and the time spent on it; the workshop's time against
 * its plan; buttons for the previous and next lesson. Choosing a lesson shows it. Used in the
 * console's left column and in the teacher's window.
 */
public final class LessonListView extends VBox {

    final Label heading = new Label();
    final Label total = new Label();
    final ListView<Workshop.Lesson> list = new ListView<>();
    final Button previous = new Button("◀ Previous lesson");
    final Button next = new Button("Next lesson ▶");
    final Button openShipped = new Button("Open the shipped workshop");
    final Button present = new Button("Present (F5)");
    final Button teacher = new Button("Teacher's window (T)");
    private final LessonModel lesson;
    private boolean updating;

    public LessonListView(LessonModel lesson, Intents.Workshop intents, String id) {
        super(8);
        this.lesson = lesson;
        setId(id);
        getStyleClass().add("lesson-list");
        getStylesheets().add(java.util.Objects.requireNonNull(LessonListView.class.getResource(
                "/io/fencelab/app/console/presenter.css"), "presenter.css is missing from the build").toExternalForm());
        setPadding(new Insets(8));
        heading.getStyleClass().add("notes-title");
        heading.setWrapText(true);
        heading.setMinHeight(Region.USE_PREF_SIZE);
        total.setWrapText(true);
        total.setMinHeight(Region.USE_PREF_SIZE);
        list.setId(id + "-lessons");
        list.setCellFactory(v -> new LessonCell());
        list.setMinHeight(120);
        VBox.setVgrow(list, Priority.ALWAYS);
        list.getSelectionModel().selectedIndexProperty().addListener((o, was, now) -> {
            if (!updating && now.intValue() >= 0 && now.intValue() != lesson.lessonProperty().get()) {
                intents.choose().accept(now.intValue());
            }
        });
        previous.setOnAction(e -> intents.previous().run());
        next.setOnAction(e -> intents.next().run());
        previous.setMaxWidth(Double.MAX_VALUE);
        next.setMaxWidth(Double.MAX_VALUE);
        HBox.setHgrow(previous, Priority.ALWAYS);
        HBox.setHgrow(next, Priority.ALWAYS);
        openShipped.setOnAction(e -> intents.openShipped().run());
        openShipped.setMaxWidth(Double.MAX_VALUE);
        openShipped.managedProperty().bind(openShipped.visibleProperty());
        present.setOnAction(e -> intents.presenter().accept(!lesson.presenterProperty().get()));
        teacher.setOnAction(e -> intents.teacher().accept(!lesson.teacherProperty().get()));
        present.setMaxWidth(Double.MAX_VALUE);
        teacher.setMaxWidth(Double.MAX_VALUE);
        HBox.setHgrow(present, Priority.ALWAYS);
        HBox.setHgrow(teacher, Priority.ALWAYS);
        getChildren().addAll(heading, total, openShipped, list, new HBox(8, previous, next),
                new HBox(8, present, teacher));

        WorkshopProgress p = lesson.progress();
        for (Observable o : new Observable[] {lesson.workshopProperty(), lesson.lessonProperty(), p.done(),
                p.seconds(), p.totalSecondsProperty()}) {
            o.addListener(x -> refresh());
        }
        refresh();
    }

    private void refresh() {
        Workshop w = lesson.workshopProperty().get();
        int current = lesson.lessonProperty().get();
        updating = true;
        try {
            if (w == null) {
                heading.setText("No workshop open");
                total.setText("Open the shipped workshop (about 45 minutes) or a workshop file from the Workshop "
                        + "menu, or start with fencelab --workshop.");
                list.setItems(FXCollections.observableArrayList());
            } else {
                heading.setText(w.title());
                total.setText(clock(lesson.progress().totalSecondsProperty().get()) + " of " + w.minutes()
                        + " min planned · lesson " + (current + 1) + " of " + w.lessons().size());
                if (!list.getItems().equals(w.lessons())) {
                    list.setItems(FXCollections.observableArrayList(w.lessons()));
                }
                list.getSelectionModel().clearAndSelect(current);
                list.refresh();
            }
            openShipped.setVisible(w == null);
            previous.setDisable(w == null || current <= 0);
            next.setDisable(w == null || current >= w.lessons().size() - 1);
        } finally {
            updating = false;
        }
    }

    /** {@code 3:07}: minutes and seconds. */
    static String clock(long seconds) {
        return seconds / 60 + ":" + String.format(java.util.Locale.ROOT, "%02d", seconds % 60);
    }

    /** One line of the list: number and title, then kind, planned minutes, state and time spent. */
    private final class LessonCell extends ListCell<Workshop.Lesson> {
        private final Label title = new Label();
        private final Label line = new Label();
        private final VBox box = new VBox(2, title, line);

        LessonCell() {
            title.getStyleClass().add("lesson-title");
            line.getStyleClass().add("lesson-line");
            title.setWrapText(true);
            setPrefWidth(0);
            box.setPadding(new Insets(3, 2, 3, 2));
        }

        @Override
        protected void updateItem(Workshop.Lesson item, boolean empty) {
            super.updateItem(item, empty);
            if (empty || item == null) {
                setGraphic(null);
                return;
            }
            int i = getIndex();
            int current = lesson.lessonProperty().get();
            WorkshopProgress p = lesson.progress();
            long spent = i < p.seconds().size() ? p.seconds().get(i) : 0;
            String state = i == current ? "▶ now" : p.done().contains(i) ? "✓ done" : i == current + 1 ? "next" : "";
            title.setText((i + 1) + ".  " + item.title());
            line.setText((item.kind() == Workshop.Kind.SWEEP ? "tuning sweep · " : "story · ") + item.minutes()
                    + " min" + (spent > 0 ? " · " + clock(spent) + " spent" : "") + (state.isEmpty() ? "" : " · "
                    + state));
            Styles.choose(box, java.util.List.of("lesson-current"), i == current ? "lesson-current" : null);
            title.setMaxWidth(Math.max(60, getListView().getWidth() - 30));
            setGraphic(box);
        }
    }
}
