package io.fencelab.app.console.run;

import io.fencelab.app.console.model.ConsoleModel;
import io.fencelab.app.console.ui.Dialogs;
import io.fencelab.app.console.ui.Intents;
import io.fencelab.scenarios.CatalogEntry;
import io.fencelab.scenarios.Scenario;
import javafx.geometry.Insets;
import javafx.geometry.Orientation;
import javafx.scene.Node;
import javafx.scene.control.Button;
import javafx.scene.control.Label;
import javafx.scene.control.ListCell;
import javafx.scene.control.ListView;
import javafx.scene.control.ScrollPane;
import javafx.scene.control.SplitPane;
import javafx.scene.control.Tab;
import javafx.scene.control.TabPane;
import javafx.scene.layout.Priority;
import javafx.scene.layout.VBox;

/**
 * The left column: the scenario catalog (title and one-line summary of each), a button to open a
 * scenario file, a file's problems shown in place, and below, the chosen scenario's teaching notes
 * and its parameters.
 */
public final class CatalogView extends SplitPane {

    /** Where the divider goes while a scenario file's problems are shown (the list above keeps some room). */
    private static final double PROBLEM_DIVIDER = 0.62;

    final ListView<CatalogEntry> list = new ListView<>();
    final Label problem = new Label();
    final VBox notes = new VBox(8);
    final ParameterSheet parameters;
    public final TabPane tabs = new TabPane();
    /** The divider's place before the problems moved it (0: they did not). */
    private double dividerBeforeProblem;
    final StoryView story;
    private final ScrollPane notesScroll;

    public CatalogView(ConsoleModel model, Intents.Scenarios scenarios, Intents.Runs runs, Intents.Lesson lesson,
                Dialogs dialogs) {
        getStyleClass().add("catalog");
        setOrientation(Orientation.VERTICAL);
        list.setId("catalog-list");
        list.setItems(model.catalog());
        list.setCellFactory(v -> new EntryCell());
        list.getSelectionModel().selectedItemProperty().addListener((o, was, now) -> {
            if (now != null && now != model.selectedProperty().get()) {
                scenarios.select().accept(now);
            }
        });
        model.selectedProperty().addListener((o, was, now) -> {
            if (now == null) {
                list.getSelectionModel().clearSelection();
            } else if (list.getSelectionModel().getSelectedItem() != now) {
                list.getSelectionModel().select(now);
            }
        });
        VBox.setVgrow(list, Priority.ALWAYS);

        Button open = new Button("Open scenario file…");
        open.setId("open-scenario");
        open.setMaxWidth(Double.MAX_VALUE);
        open.setOnAction(e -> dialogs.openScenarioFile());
        problem.setId("scenario-problem");
        problem.getStyleClass().add("problem-box");
        problem.setWrapText(true);
        problem.textProperty().bind(model.scenarioProblemProperty());
        problem.setMaxWidth(Double.MAX_VALUE);
        problem.setMinHeight(javafx.scene.layout.Region.USE_PREF_SIZE);
        // A file with many problems lists them all: they scroll, the headline first, and the pane
        // grows while they are shown.
        ScrollPane problemScroll = new ScrollPane(problem);
        problemScroll.setFitToWidth(true);
        problemScroll.getStyleClass().add("problem-scroll");
        problemScroll.visibleProperty().bind(model.scenarioProblemProperty().isNotEmpty());
        problemScroll.managedProperty().bind(problemScroll.visibleProperty());
        problemScroll.setMinHeight(90);
        problemScroll.prefHeightProperty().bind(problem.heightProperty().add(4));
        VBox.setVgrow(problemScroll, Priority.SOMETIMES);
        model.scenarioProblemProperty().addListener((o, was, now) -> {
            double[] at = getDividerPositions();
            if (!now.isEmpty() && was.isEmpty() && at.length > 0 && at[0] < PROBLEM_DIVIDER) {
                dividerBeforeProblem = at[0];
                setDividerPositions(PROBLEM_DIVIDER);
            } else if (now.isEmpty() && dividerBeforeProblem > 0) {
                setDividerPositions(dividerBeforeProblem);
                dividerBeforeProblem = 0;
            }
        });
        Label heading = new Label("Scenarios");
        heading.getStyleClass().add("pane-title");
        list.setMinHeight(90);
        // While problems are shown, they take the room and the list keeps a few entries.
        list.prefHeightProperty().bind(javafx.beans.binding.Bindings.when(problemScroll.visibleProperty())
                .then(130.0).otherwise(javafx.scene.layout.Region.USE_COMPUTED_SIZE));
        VBox top = new VBox(6, heading, list, open, problemScroll);
        top.setPadding(new Insets(8));

        notes.setId("notes");
        notes.getStyleClass().add("notes");
        notes.setPadding(new Insets(10));
        notesScroll = new ScrollPane(notes);
        notesScroll.setFitToWidth(true);
        story = new StoryView(model, lesson, this::scrollIntoView);
        parameters = new ParameterSheet(model, runs);
        Tab story = new Tab("Story", notesScroll);
        Tab knobs = new Tab("Parameters", parameters);
        story.setClosable(false);
        knobs.setClosable(false);
        tabs.getTabs().addAll(story, knobs);
        getItems().addAll(top, tabs);
        setDividerPositions(0.42);

        model.scenarioProperty().addListener(o -> showNotes(model));
        model.sourceProperty().addListener(o -> showNotes(model));
        model.handFaults().addListener((javafx.collections.ListChangeListener<String>) c -> showNotes(model));
        showNotes(model);
    }

    private void showNotes(ConsoleModel model) {
        notes.getChildren().clear();
        Scenario s = model.scenario();
        if (s == null) {
            String source = model.sourceProperty().get();
            Label hint = new Label(source.isEmpty()
                    ? "Choose a scenario above, then press Play (space).\n\nOr open a scenario file, or a saved run "
                            + "(events.jsonl) to replay it."
                    : "Replaying the saved run\n" + source + "\n\nPlay, pause, step and speed work as for a "
                            + "simulated run. No database is needed.");
            hint.setWrapText(true);
            notes.getChildren().add(hint);
            return;
        }
        Label title = new Label(s.notes().title());
        title.getStyleClass().add("notes-title");
        title.setWrapText(true);
        Label summary = new Label(s.notes().summary());
        summary.setWrapText(true);
        summary.getStyleClass().add("notes-summary");
        notes.getChildren().addAll(title, summary);
        notes.getChildren().add(story);
        Label expected = new Label("Expected: " + s.expectation().describe());
        expected.setWrapText(true);
        expected.getStyleClass().add("notes-meta");
        String source = model.sourceProperty().get();
        Label from = new Label("From: " + ("catalog".equals(source) ? "the catalog (" + s.name() + ")" : source));
        from.setWrapText(true);
        from.getStyleClass().add("notes-meta");
        notes.getChildren().addAll(expected, from);
        if (!model.handFaults().isEmpty()) {
            Label added = new Label("Faults added by hand:\n  " + String.join("\n  ", model.handFaults()));
            added.setWrapText(true);
            added.getStyleClass().add("notes-meta");
            notes.getChildren().add(added);
        }
    }

    /** Scrolls the story so that {@code node} (a step) is in view, a third of the way down. */
    private void scrollIntoView(Node node) {
        double content = notes.getBoundsInLocal().getHeight();
        double viewport = notesScroll.getViewportBounds().getHeight();
        if (content <= viewport || viewport <= 0) {
            return;
        }
        double y = node.localToScene(0, 0).getY() - notes.localToScene(0, 0).getY();
        double wanted = (y - viewport / 3) / (content - viewport);
        notesScroll.setVvalue(Math.max(0, Math.min(1, wanted)));
    }

    /** A catalog entry: its title in bold and its one-line summary. */
    private static final class EntryCell extends ListCell<CatalogEntry> {
        private final Label title = new Label();
        private final Label line = new Label();
        private final VBox box = new VBox(2, title, line);

        EntryCell() {
            title.getStyleClass().add("entry-title");
            line.getStyleClass().add("entry-summary");
            line.setWrapText(true);
            title.setWrapText(true);
            box.setPadding(new Insets(4, 2, 4, 2));
            setPrefWidth(0);
        }

        @Override
        protected void updateItem(CatalogEntry entry, boolean empty) {
            super.updateItem(entry, empty);
            if (empty || entry == null) {
                setGraphic(null);
                return;
            }
            title.setText(entry.title());
            line.setText(entry.oneLine());
            box.setMaxWidth(getListView().getWidth() - 24);
            title.setMaxWidth(getListView().getWidth() - 24);
            line.setMaxWidth(getListView().getWidth() - 24);
            setGraphic(box);
        }
    }
}
