package io.fencelab.app.console.run;

import io.fencelab.app.console.model.ConsoleModel;
import io.fencelab.app.console.model.HandFault;
import io.fencelab.app.console.model.RunModel;
import io.fencelab.app.console.model.RunPhase;
import io.fencelab.app.console.ui.Intents;
import io.fencelab.app.console.ui.Styles;
import io.fencelab.engine.check.Judgement;
import io.fencelab.engine.check.Verdict;
import io.fencelab.engine.check.Witness;
import io.fencelab.engine.event.Event;
import io.fencelab.engine.event.EventJson;
import io.fencelab.engine.metrics.EventCounts;
import io.fencelab.engine.metrics.MetricsSnapshot;
import io.fencelab.engine.metrics.TuningMetrics;
import io.fencelab.report.EventText;
import io.fencelab.report.TuningText;
import java.util.List;
import javafx.beans.InvalidationListener;
import javafx.geometry.Insets;
import javafx.geometry.Pos;
import javafx.scene.control.Button;
import javafx.scene.control.ComboBox;
import javafx.scene.control.Label;
import javafx.scene.control.ListCell;
import javafx.scene.control.ListView;
import javafx.scene.control.ScrollPane;
import javafx.scene.control.Spinner;
import javafx.scene.control.TextArea;
import javafx.scene.control.Tooltip;
import javafx.scene.layout.GridPane;
import javafx.scene.layout.HBox;
import javafx.scene.layout.Priority;
import javafx.scene.layout.TilePane;
import javafx.scene.layout.VBox;

/**
 * The right column: the verdict (SAFE or VIOLATED, live), the counts, the tuning figures (failover
 * time, unavailability, lease losses and the rest, as the report words them), what just happened in plain
 * words, the witnesses (a click moves the timeline to one), the pinned event, a problem if the run
 * could not go on, and faults to inject by hand.
 */
public final class VerdictView extends ScrollPane {

    final Label verdict = new Label("—");
    final Label verdictNote = new Label();
    final Label narration = new Label();
    final Label problem = new Label();
    final ListView<Witness> witnesses = new ListView<>();
    final TextArea pinned = new TextArea();
    final GridPane counts = new GridPane();
    final Label[] countValues = new Label[5];
    final GridPane tuning = new GridPane();
    final Label tuningSpan = new Label();
    private final Label[] tuningValues;
    private final Label[] tuningLabels;
    final ComboBox<String> faultHolder = new ComboBox<>();
    final VBox faults;
    private final ConsoleModel console;
    private RunModel run;
    private final InvalidationListener refresh = o -> refresh();

    public VerdictView(ConsoleModel console, Intents.Navigation navigation, Intents.Faults handFaults) {
        this.console = console;
        List<TuningText.Row> rows = TuningText.rows(TuningMetrics.NONE);
        tuningValues = new Label[rows.size()];
        tuningLabels = new Label[rows.size()];
        getStyleClass().add("verdict-pane");
        setFitToWidth(true);
        setHbarPolicy(ScrollBarPolicy.NEVER);
        styleVerdict();
        buildCounts();
        buildTuning(rows);
        styleNarrationAndProblem();
        buildWitnesses(navigation);
        stylePinned();
        faults = faults(handFaults);
        VBox box = new VBox(8, section("Verdict"), verdict, verdictNote, problem, counts,
                section("Tuning"), tuning, tuningSpan, section("What just happened"), narration,
                section("Witnesses"), witnesses, section("Pinned event"), pinned, faults);
        box.setPadding(new Insets(10));
        box.setFillWidth(true);
        setContent(box);
        setPrefWidth(330);
        setMinWidth(260);
    }

    /** The verdict's badge and the note under it. */
    private void styleVerdict() {
        verdict.setId("verdict-label");
        verdict.getStyleClass().addAll("verdict", "verdict-none");
        verdict.setMaxWidth(Double.MAX_VALUE);
        verdict.setAlignment(Pos.CENTER);
        verdictNote.getStyleClass().add("verdict-note");
        verdictNote.setWrapText(true);
    }

    /** The counts of events, a value beside each name. */
    private void buildCounts() {
        String[] names = {"acquisitions", "renewals", "renewal failures", "stale rejections", "accepted writes"};
        counts.setHgap(10);
        counts.setVgap(2);
        counts.getStyleClass().add("counts");
        for (int i = 0; i < names.length; i++) {
            Label name = new Label(names[i]);
            countValues[i] = new Label("0");
            countValues[i].getStyleClass().add("count-value");
            countValues[i].setId("count-" + names[i].replace(' ', '-'));
            counts.add(countValues[i], 0, i);
            counts.add(name, 1, i);
        }
    }

    /** The tuning figures as the report words them ({@code rows}), each name's meaning in its tooltip. */
    private void buildTuning(List<TuningText.Row> rows) {
        tuning.setId("tuning");
        tuning.setHgap(10);
        tuning.setVgap(2);
        tuning.getStyleClass().add("counts");
        for (int i = 0; i < rows.size(); i++) {
            Label name = new Label(rows.get(i).label());
            name.setTooltip(new Tooltip(rows.get(i).meaning()));
            name.setId("tuning-label-" + rows.get(i).id());
            tuningLabels[i] = name;
            tuningValues[i] = new Label(rows.get(i).value());
            tuningValues[i].getStyleClass().add("count-value");
            tuningValues[i].setId("tuning-" + rows.get(i).id());
            tuning.add(tuningValues[i], 0, i);
            tuning.add(name, 1, i);
        }
        tuningSpan.getStyleClass().add("verdict-note");
        tuningSpan.setWrapText(true);
    }

    private void styleNarrationAndProblem() {
        narration.setId("narration");
        narration.getStyleClass().add("narration");
        narration.setWrapText(true);
        narration.setMaxWidth(Double.MAX_VALUE);
        problem.setId("run-problem");
        problem.getStyleClass().add("problem-box");
        problem.setWrapText(true);
        problem.setMaxWidth(Double.MAX_VALUE);
    }

    /** The witnesses' list: a click moves the timeline to one. */
    private void buildWitnesses(Intents.Navigation navigation) {
        witnesses.setId("witnesses");
        witnesses.setPrefHeight(120);
        witnesses.setCellFactory(v -> new WitnessCell());
        witnesses.setPlaceholder(new Label("no witness: nothing unsafe seen"));
        witnesses.setOnMouseClicked(e -> {
            int i = witnesses.getSelectionModel().getSelectedIndex();
            if (i >= 0 && run != null) {
                navigation.focusWitness().accept(run, i + 1);
            }
        });
    }

    private void stylePinned() {
        pinned.setId("pinned-event");
        pinned.setEditable(false);
        pinned.setWrapText(true);
        pinned.setPrefRowCount(7);
        pinned.getStyleClass().add("pinned");
        pinned.setPromptText("Click an event on the timeline (or a row in the table) to pin it here.");
    }

    /** Faults to inject by hand: on which holder, for how long, a button a fault, and what they do in this run. */
    private VBox faults(Intents.Faults handFaults) {
        chooseFaultHolder();
        Spinner<Double> seconds = new Spinner<>(1.0, 120.0, console.faultSecondsProperty().get(), 1.0);
        seconds.setEditable(true);
        seconds.setPrefWidth(90);
        seconds.valueProperty().addListener((o, was, now) -> console.faultSecondsProperty().set(now));
        TilePane buttons = new TilePane(6, 6);
        buttons.setPrefColumns(2);
        for (HandFault f : HandFault.values()) {
            Button b = new Button(f.words + " (" + f.key + ")");
            b.setId("fault-" + f.name().toLowerCase().replace('_', '-'));
            b.setMaxWidth(Double.MAX_VALUE);
            b.setOnAction(e -> handFaults.inject().accept(f, console.faultHolderProperty().get()));
            buttons.getChildren().add(b);
        }
        Button clear = new Button("Clear faults added by hand");
        clear.setOnAction(e -> handFaults.clear().run());
        clear.disableProperty().bind(javafx.beans.binding.Bindings.isEmpty(console.handFaults()));
        HBox holderRow = new HBox(6, new Label("on"), faultHolder, new Label("for"), seconds, new Label("s"));
        holderRow.setAlignment(Pos.CENTER_LEFT);
        HBox.setHgrow(faultHolder, Priority.ALWAYS);
        VBox box = new VBox(6, section("Inject a fault"), holderRow, buttons, faultsNote(), clear);
        box.disableProperty().bind(javafx.beans.binding.Bindings.createBooleanBinding(
                () -> !console.capabilitiesProperty().get().handFaults(), console.capabilitiesProperty()));
        return box;
    }

    /** The holder a fault by hand goes to, kept the console's choice while the run's holders change. */
    private void chooseFaultHolder() {
        faultHolder.setId("fault-holder");
        faultHolder.setPrefWidth(120);
        faultHolder.setMaxWidth(Double.MAX_VALUE);
        faultHolder.setItems(console.workers());
        faultHolder.valueProperty().addListener((o, was, now) -> {
            if (now != null) {
                console.faultHolderProperty().set(now);
            }
        });
        console.faultHolderProperty().addListener((o, was, now) -> faultHolder.setValue(now));
        // The combo box's own skin clears its value after the list changes (its listener runs after
        // this one), so choose again once the change has settled; holders change rarely.
        console.workers().addListener((javafx.collections.ListChangeListener<String>) c ->
                javafx.application.Platform.runLater(() -> {
                    String wanted = console.faultHolderProperty().get();
                    if (wanted != null && console.workers().contains(wanted)) {
                        faultHolder.setValue(wanted);
                    } else if (!console.workers().isEmpty()) {
                        faultHolder.setValue(console.workers().getFirst());
                    }
                }));
    }

    /** What a fault by hand does in this run: starts now, replays to now first, or is not offered. */
    private Label faultsNote() {
        Label faultsNote = new Label();
        faultsNote.setWrapText(true);
        faultsNote.getStyleClass().add("verdict-note");
        faultsNote.textProperty().bind(javafx.beans.binding.Bindings.createStringBinding(() ->
                console.capabilitiesProperty().get().liveChanges()
                        ? "Starts now on the chosen holder, in the running live run (press play first)."
                        : console.capabilitiesProperty().get().handFaults()
                        ? "Starts now on the chosen holder. The run replays to this moment with the same seed, "
                                + "then goes on with the fault."
                        : "Not available for this run: a saved run is a record.",
                console.capabilitiesProperty()));
        return faultsNote;
    }

    private static Label section(String text) {
        Label l = new Label(text);
        l.getStyleClass().add("pane-title");
        return l;
    }

    /** Follows {@code model} (rebinding when the console focuses another run). */
    public void bind(RunModel model) {
        if (run != null) {
            run.verdictProperty().removeListener(refresh);
            run.metricsProperty().removeListener(refresh);
            run.tuningProperty().removeListener(refresh);
            run.narrationProperty().removeListener(refresh);
            run.problemProperty().removeListener(refresh);
            run.phaseProperty().removeListener(refresh);
            run.pinnedSeqProperty().removeListener(refresh);
            run.resultProperty().removeListener(refresh);
            run.eventCountProperty().removeListener(refresh);
        }
        run = model;
        for (javafx.beans.Observable o : new javafx.beans.Observable[] {model.verdictProperty(),
                model.metricsProperty(), model.tuningProperty(), model.narrationProperty(), model.problemProperty(),
                model.phaseProperty(), model.pinnedSeqProperty(), model.resultProperty(), model.eventCountProperty()}) {
            o.addListener(refresh);
        }
        refresh();
    }

    private void refresh() {
        Verdict v = run.verdict();
        RunPhase phase = run.phase();
        boolean started = run.eventCountProperty().get() > 0;
        if (!started) {
            verdict.setText("—");
            Styles.choose(verdict, Styles.VERDICTS, "verdict-none");
        } else if (v.isSafe() && phase == RunPhase.FAILED) {
            // Nothing after the failure was tested: a failed run is never called SAFE (violations before it stand).
            verdict.setText("FAILED");
            Styles.choose(verdict, Styles.VERDICTS, "verdict-none");
        } else if (v.isSafe()) {
            verdict.setText("SAFE");
            Styles.choose(verdict, Styles.VERDICTS, "verdict-safe");
        } else {
            verdict.setText("VIOLATED");
            Styles.choose(verdict, Styles.VERDICTS, "verdict-violated");
        }
        String note;
        if (!started) {
            note = "Nothing has run yet.";
        } else if (phase == RunPhase.FAILED) {
            note = "Up to the failure only: judged from the events before it.";
        } else if (run.resultProperty().get() != null) {
            note = run.resultProperty().get().finalStateJudged()
                    ? "Final: judged from every event and the database's final state."
                    : "Final, from the events only: the database could not be read at the end.";
        } else if (phase.isOver()) {
            note = "Judged from the events of the log.";
        } else {
            note = "So far, judged live from the events as they happen.";
        }
        if (!v.isSafe()) {
            note = v.witnesses().size() + (v.witnesses().size() == 1 ? " violation. " : " violations. ") + note;
        }
        if (console.compareProperty().get()) {
            note = "This panel follows the " + console.comparisonProperty().get().secondLabel() + " run. " + note;
        }
        verdictNote.setText(note);
        String p = run.problemProperty().get();
        problem.setText(p);
        problem.setVisible(!p.isEmpty());
        problem.setManaged(!p.isEmpty());

        MetricsSnapshot m = run.metricsProperty().get();
        EventCounts t = m == null ? EventCounts.ZERO : m.totals();
        long[] values = {t.acquisitions(), t.renewals(), t.renewalFailures(), t.staleRejections(), t.acceptedWrites()};
        for (int i = 0; i < values.length; i++) {
            countValues[i].setText(Long.toString(values[i]));
        }
        TuningMetrics tm = run.tuningProperty().get();
        List<TuningText.Row> rows = TuningText.rows(tm);
        for (int i = 0; i < rows.size(); i++) {
            tuningValues[i].setText(rows.get(i).value());
            tuningLabels[i].setText(rows.get(i).label());   // the p99's label says when it is the max
        }
        tuningSpan.setText(tm.runMicros() == 0 ? "Failover, losses and load of the lease setting, once the run goes."
                : "Rates " + TuningText.span(tm) + "; definitions in docs/TUNING.md.");
        narration.setText(run.narrationProperty().get().isEmpty() ? "Press Play (space) or Step (right arrow)."
                : run.narrationProperty().get());
        if (!witnesses.getItems().equals(v.witnesses())) {
            witnesses.getItems().setAll(v.witnesses());
        }
        long seq = run.pinnedSeqProperty().get();
        Event e = seq > 0 ? run.events().bySeq(seq) : null;
        pinned.setText(e == null ? "" : describe(e, run.judgement()));
    }

    static String describe(Event e, Judgement judgement) {
        String json;
        try {
            json = EventJson.mapper().writerWithDefaultPrettyPrinter().writeValueAsString(e);
        } catch (com.fasterxml.jackson.core.JsonProcessingException ex) {
            json = e.toString();
        }
        return Narration.line(e, judgement) + "\n\n" + json;
    }

    /** A witness: its number, invariant and summary. */
    private final class WitnessCell extends ListCell<Witness> {
        @Override
        protected void updateItem(Witness w, boolean empty) {
            super.updateItem(w, empty);
            if (empty || w == null) {
                setText(null);
                setTooltip(null);
                return;
            }
            setText("W" + (getIndex() + 1) + "  " + EventText.words(w.invariant().name()) + ": " + w.summary());
            setWrapText(true);
            setPrefWidth(0);
            setTooltip(new Tooltip("Click to show it on the timeline (events " + w.eventSeqs() + ")"));
        }
    }
}
