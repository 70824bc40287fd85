package io.fencelab.app.console.tune;

import io.fencelab.app.console.model.ConsoleModel;
import io.fencelab.app.console.model.TuneModel;
import io.fencelab.app.console.model.TuneModel.AxisForm;
import io.fencelab.app.console.model.TuneModel.Phase;
import io.fencelab.app.console.ui.FrameLoop;
import io.fencelab.app.console.ui.Intents;
import io.fencelab.engine.metrics.TuningMetrics;
import io.fencelab.engine.run.Backend;
import io.fencelab.report.SweepReport;
import io.fencelab.scenarios.CatalogEntry;
import java.util.ArrayList;
import java.util.List;
import javafx.beans.binding.Bindings;
import javafx.beans.property.ObjectProperty;
import javafx.collections.FXCollections;
import javafx.collections.ListChangeListener;
import javafx.geometry.Insets;
import javafx.geometry.Pos;
import javafx.scene.control.Button;
import javafx.scene.control.CheckBox;
import javafx.scene.control.ComboBox;
import javafx.scene.control.Label;
import javafx.scene.control.ListCell;
import javafx.scene.control.ProgressBar;
import javafx.scene.control.ScrollPane;
import javafx.scene.control.Spinner;
import javafx.scene.control.TextField;
import javafx.scene.control.Tooltip;
import javafx.scene.layout.BorderPane;
import javafx.scene.layout.ColumnConstraints;
import javafx.scene.layout.GridPane;
import javafx.scene.layout.HBox;
import javafx.scene.layout.Priority;
import javafx.scene.layout.Region;
import javafx.scene.layout.VBox;
import javafx.util.StringConverter;

/**
 * The Tune view: on the left the sweep to run (a scenario or a tuning preset, up to two parameters
 * with their ranges, seeds, jobs, constraints, the output folder) with Run sweep, Stop and Resume;
 * in the middle the heatmap of the chosen metric, filling in as settings finish, and what the
 * hovered cell holds; on the right the trade-off plot and the recommended setting. Binds to the
 * {@link TuneModel} and hands what the user asks for to {@link Intents.Tune}.
 */
public final class TuneView extends BorderPane {

    private final TuneModel model;
    private final Intents.Tune intents;
    final ComboBox<String> scenario = new ComboBox<>();
    final Button run = new Button("Run sweep");
    final Button stop = new Button("Stop");
    final Button resume = new Button("Resume");
    final Button export = new Button("Export report");
    final ComboBox<String> metric = new ComboBox<>();
    final HeatmapView heatmap;
    final TradeOffView tradeOff;
    final Label cellInfo = new Label();
    final Label recommendation = new Label();
    /** Spinner values bound to the model's integer properties (kept so the bindings are not collected). */
    private final List<ObjectProperty<Integer>> kept = new ArrayList<>();

    public TuneView(ConsoleModel console, Intents.Tune intents, FrameLoop loop) {
        this.model = console.tune();
        this.intents = intents;
        getStyleClass().add("tune");
        setId("tune-view");
        heatmap = new HeatmapView(model, intents.openWorst(), loop);
        heatmap.setId("tune-heatmap");
        tradeOff = new TradeOffView(model, loop);
        tradeOff.setId("tune-trade-off");

        setLeft(form(console));
        setCenter(centre());
        setRight(right());
    }

    // ---- the form --------------------------------------------------------------------------------

    private Region form(ConsoleModel console) {
        chooseScenario(console);
        VBox box = new VBox(10, settings(), buttons(), progress(), status());
        box.setPadding(new Insets(10));
        box.setPrefWidth(360);
        ScrollPane scroll = new ScrollPane(box);
        scroll.setFitToWidth(true);
        scroll.setHbarPolicy(ScrollPane.ScrollBarPolicy.NEVER);
        scroll.setPrefWidth(380);
        return scroll;
    }

    /** The scenario to sweep: a preset or catalog entry, or a scenario file's path typed in. */
    private void chooseScenario(ConsoleModel console) {
        scenario.setId("tune-scenario");
        scenario.setMaxWidth(Double.MAX_VALUE);
        scenario.setCellFactory(l -> new ScenarioCell());
        // Editable: a scenario file's path may be typed in (your own scenario, with your GC log).
        scenario.setEditable(true);
        scenario.setPromptText("a catalog name, or a scenario file's path");
        Runnable listScenarios = () -> {
            List<String> names = new ArrayList<>();
            names.addAll(TuneModel.PRESETS.stream()
                    .filter(p -> console.catalog().stream().anyMatch(e -> e.name().equals(p))).toList());
            console.catalog().stream().map(CatalogEntry::name).filter(n -> !names.contains(n)).forEach(names::add);
            scenario.getItems().setAll(names);
        };
        console.catalog().addListener((ListChangeListener<CatalogEntry>) c -> listScenarios.run());
        listScenarios.run();
        model.scenarioProperty().addListener((o, was, now) -> scenario.setValue(now));
        scenario.setOnAction(e -> {
            String chosen = scenario.getValue();
            if (chosen != null && !chosen.equals(model.scenarioProperty().get())) {
                intents.scenario().accept(chosen);
            }
        });
    }

    /** The sweep's settings: the scenario, the two axes, seeds, jobs, store, constraints and output folder. */
    private GridPane settings() {
        GridPane grid = new GridPane();
        grid.setHgap(8);
        grid.setVgap(6);
        ColumnConstraints labels = new ColumnConstraints();
        labels.setMinWidth(78);
        ColumnConstraints fields = new ColumnConstraints();
        fields.setHgrow(Priority.ALWAYS);
        grid.getColumnConstraints().addAll(labels, fields);
        int row = 0;
        grid.add(title("Scenario or preset"), 0, row++, 2, 1);
        grid.add(scenario, 0, row++, 2, 1);
        row = axis(grid, row, "Across (x)", model.across(), "across", false);
        row = axis(grid, row, "Upwards (y)", model.upwards(), "upwards", true);
        grid.add(title("Seeds and runs"), 0, row++, 2, 1);
        grid.add(new Label("seeds"), 0, row);
        grid.add(spinner(model.seedsProperty().asObject(), 1, 50, "tune-seeds"), 1, row++);
        grid.add(new Label("jobs"), 0, row);
        grid.add(spinner(model.jobsProperty().asObject(), 1, 32, "tune-jobs"), 1, row++);
        grid.add(new Label("store"), 0, row);
        grid.add(backendChoice(), 1, row++);
        grid.add(title("Constraints (optional)"), 0, row++, 2, 1);
        TextField require = new TextField();
        require.setId("tune-require");
        require.setPromptText("failoverP99Seconds<=30 leaseLossesPerHour<=60");
        require.textProperty().bindBidirectional(model.requireProperty());
        grid.add(require, 0, row++, 2, 1);
        grid.add(title("Output folder"), 0, row++, 2, 1);
        TextField out = new TextField();
        out.setId("tune-out");
        out.textProperty().bindBidirectional(model.outProperty());
        grid.add(out, 0, row++, 2, 1);
        grid.disableProperty().bind(Bindings.createBooleanBinding(() -> model.phase().busy(), model.phaseProperty()));
        return grid;
    }

    /** Run, Stop and Resume, each enabled when the sweep's phase allows it. */
    private HBox buttons() {
        run.setId("tune-run");
        run.getStyleClass().add("play-button");
        stop.setId("tune-stop");
        resume.setId("tune-resume");
        run.setOnAction(e -> intents.run().run());
        stop.setOnAction(e -> intents.stop().run());
        resume.setOnAction(e -> intents.resume().run());
        run.disableProperty().bind(Bindings.createBooleanBinding(
                () -> model.phase().busy() || model.scenarioProperty().get().isEmpty(), model.phaseProperty(),
                model.scenarioProperty()));
        stop.disableProperty().bind(Bindings.createBooleanBinding(() -> !model.phase().busy(),
                model.phaseProperty()));
        resume.disableProperty().bind(Bindings.createBooleanBinding(
                () -> model.phase() != Phase.STOPPED && model.phase() != Phase.FAILED, model.phaseProperty()));
        return new HBox(8, run, stop, resume);
    }

    /** The share of the sweep's runs done. */
    private ProgressBar progress() {
        ProgressBar progress = new ProgressBar();
        progress.setId("tune-progress");
        progress.setMaxWidth(Double.MAX_VALUE);
        progress.progressProperty().bind(Bindings.createDoubleBinding(() -> model.runsTotalProperty().get() == 0 ? 0
                : (double) model.runsDoneProperty().get() / model.runsTotalProperty().get(),
                model.runsDoneProperty(), model.runsTotalProperty()));
        return progress;
    }

    private Label status() {
        Label status = new Label();
        status.setId("tune-status");
        status.setWrapText(true);
        status.textProperty().bind(model.statusProperty());
        return status;
    }

    private int axis(GridPane grid, int row, String name, AxisForm axis, String id, boolean optional) {
        grid.add(title(name), 0, row++, 2, 1);
        ComboBox<String> path = new ComboBox<>();
        path.setId("tune-" + id + "-path");
        path.setMaxWidth(Double.MAX_VALUE);
        Runnable listPaths = () -> {
            List<String> items = new ArrayList<>();
            if (optional) {
                items.add("");
            }
            items.addAll(model.variablePaths());
            path.getItems().setAll(items);
            path.setValue(axis.pathProperty().get());
        };
        model.variablePaths().addListener((ListChangeListener<String>) c -> listPaths.run());
        listPaths.run();
        path.setConverter(new StringConverter<>() {
            @Override
            public String toString(String p) {
                return p == null || p.isEmpty() ? (optional ? "(none: one row)" : "") : p;
            }

            @Override
            public String fromString(String s) {
                return s;
            }
        });
        path.valueProperty().bindBidirectional(axis.pathProperty());
        grid.add(new Label("parameter"), 0, row);
        grid.add(path, 1, row++);
        TextField from = new TextField();
        from.setId("tune-" + id + "-from");
        from.setPrefColumnCount(6);
        from.textProperty().bindBidirectional(axis.fromProperty());
        TextField to = new TextField();
        to.setId("tune-" + id + "-to");
        to.setPrefColumnCount(6);
        to.textProperty().bindBidirectional(axis.toProperty());
        HBox range = new HBox(6, from, new Label(".."), to);
        range.setAlignment(Pos.CENTER_LEFT);
        grid.add(new Label("from .. to"), 0, row);
        grid.add(range, 1, row++);
        CheckBox log = new CheckBox("log");
        log.selectedProperty().bindBidirectional(axis.logProperty());
        HBox steps = new HBox(8, spinner(axis.stepsProperty().asObject(), 1, 20, "tune-" + id + "-steps"), log);
        steps.setAlignment(Pos.CENTER_LEFT);
        grid.add(new Label("steps"), 0, row);
        grid.add(steps, 1, row++);
        for (var node : List.of(from, to, steps)) {
            node.disableProperty().bind(axis.pathProperty().isEmpty());
        }
        return row;
    }

    private Spinner<Integer> spinner(ObjectProperty<Integer> value, int min, int max, String id) {
        Spinner<Integer> s = new Spinner<>(min, max, value.get());
        s.setId(id);
        s.setEditable(true);
        s.setPrefWidth(90);
        s.getValueFactory().valueProperty().bindBidirectional(value);
        kept.add(value);
        return s;
    }

    private static Label title(String text) {
        Label l = new Label(text);
        l.getStyleClass().add("pane-title");
        return l;
    }

    // ---- the pictures ----------------------------------------------------------------------------

    private Region centre() {
        metric.setId("tune-metric");
        metric.getItems().setAll(TuningMetrics.NAMES);
        metric.setConverter(new StringConverter<>() {
            @Override
            public String toString(String m) {
                return m == null ? "" : SweepReport.title(m);
            }

            @Override
            public String fromString(String s) {
                return s;
            }
        });
        metric.setValue(model.metricProperty().get());
        model.metricProperty().addListener((o, was, now) -> metric.setValue(now));
        metric.setOnAction(e -> {
            if (metric.getValue() != null && !metric.getValue().equals(model.metricProperty().get())) {
                intents.metric().accept(metric.getValue());
            }
        });
        export.setId("tune-export");
        export.setOnAction(e -> intents.export().run());
        export.disableProperty().bind(model.resultsProperty().isNull());
        Label report = new Label();
        report.setId("tune-report");
        report.textProperty().bind(model.reportProperty());
        report.setWrapText(true);
        Region spring = new Region();
        HBox.setHgrow(spring, Priority.ALWAYS);
        HBox bar = new HBox(10, title("Heatmap of"), metric, spring, export);
        bar.setAlignment(Pos.CENTER_LEFT);

        cellInfo.setId("tune-cell-info");
        cellInfo.getStyleClass().add("cell-info");
        cellInfo.setWrapText(true);
        cellInfo.setMinHeight(64);
        cellInfo.setMaxWidth(Double.MAX_VALUE);
        cellInfo.textProperty().bind(Bindings.createStringBinding(() -> {
            int cell = heatmap.hoveredProperty().get();
            return cell < 0 ? "Hover a cell for its numbers; click it to open its worst seed on the timeline."
                    : HeatmapView.describe(model.results(), cell, model.metricProperty().get());
        }, heatmap.hoveredProperty(), model.resultsProperty(), model.metricProperty()));

        VBox box = new VBox(8, bar, heatmap, cellInfo, report);
        VBox.setVgrow(heatmap, Priority.ALWAYS);
        box.setPadding(new Insets(10));
        return box;
    }

    private Region right() {
        recommendation.setId("tune-recommendation");
        recommendation.getStyleClass().add("recommendation");
        recommendation.setWrapText(true);
        recommendation.textProperty().bind(Bindings.createStringBinding(() -> model.recommendationProperty().get()
                .isEmpty() ? "The recommended setting appears here as settings finish (give a constraint for one)."
                : model.recommendationProperty().get(), model.recommendationProperty()));
        Label legend = new Label("One dot per setting (mean over its seeds), bars from the least to the greatest "
                + "seed. Orange: the Pareto frontier, settings no other beats on both. Hollow: breaks a constraint (or a bound it should not have). "
                + "Ringed: recommended. Down and left is better.");
        legend.setWrapText(true);
        legend.getStyleClass().add("legend-text");
        tradeOff.setPrefHeight(380);
        VBox box = new VBox(8, title("Trade-off"), tradeOff, legend, title("Recommended setting"), recommendation);
        box.setPadding(new Insets(10));
        box.setPrefWidth(440);
        box.setMinWidth(360);
        return box;
    }

    /** A scenario in the picker: the tuning presets say so. */
    private static final class ScenarioCell extends ListCell<String> {
        @Override
        protected void updateItem(String name, boolean empty) {
            super.updateItem(name, empty);
            setText(empty || name == null ? null
                    : TuneModel.PRESETS.contains(name) ? "preset: " + name : name);
        }
    }

    /** {@code --backend} in the form: the in-memory model (fast, simulated scenarios) or PostgreSQL itself. */
    private ComboBox<Backend> backendChoice() {
        ComboBox<Backend> box = new ComboBox<>(FXCollections.observableArrayList(Backend.MEMORY, Backend.POSTGRES));
        box.setId("tune-backend");
        box.setPromptText("fastest allowed");
        box.setConverter(new javafx.util.StringConverter<>() {
            @Override
            public String toString(Backend b) {
                return b == null ? "fastest allowed" : b == Backend.MEMORY ? "in memory (checked on PostgreSQL)"
                        : "PostgreSQL";
            }

            @Override
            public Backend fromString(String s) {
                return null;
            }
        });
        box.setMaxWidth(Double.MAX_VALUE);
        box.valueProperty().bindBidirectional(model.backendProperty());
        box.setTooltip(new Tooltip("Where the runs keep their leases and resources. In memory is proven byte-identical "
                + "to PostgreSQL and much faster; a finished sweep runs its recommended setting again on PostgreSQL."));
        return box;
    }
}
