package io.fencelab.app.console.probe;

import io.fencelab.app.console.model.ConsoleModel;
import io.fencelab.app.console.model.ProbeModel;
import io.fencelab.app.console.model.ProbeModel.Row;
import io.fencelab.app.console.ui.Intents;
import io.fencelab.app.console.ui.Styles;
import io.fencelab.engine.probe.ItemVerdict;
import io.fencelab.engine.probe.ItemVerdict.WitnessStep;
import java.util.ArrayList;
import java.util.List;
import javafx.beans.binding.Bindings;
import javafx.collections.ListChangeListener;
import javafx.geometry.Insets;
import javafx.geometry.Pos;
import javafx.scene.control.Button;
import javafx.scene.control.Label;
import javafx.scene.control.Tab;
import javafx.scene.control.TabPane;
import javafx.scene.control.Tooltip;
import javafx.scene.control.TreeCell;
import javafx.scene.control.TreeItem;
import javafx.scene.control.TreeView;
import javafx.scene.layout.HBox;
import javafx.scene.layout.Priority;
import javafx.scene.layout.Region;
import javafx.scene.layout.VBox;

/**
 * The probe's checklist: one row per fence and item, pending until its verdict comes (holds, FAILS,
 * n/a), a failure opening onto its witness, step by step (what was done, the statement's
 * {@code file:line}, what it said, what the row read back holds). Above it, Probe and Stop, where the
 * probe is, and the folder its outputs went to.
 */
public final class ProbeView extends VBox {

    /** The badge classes, one per state of a row. */
    static final List<String> BADGES = List.of("probe-pending", "probe-holds", "probe-fails", "probe-na");

    final Button start = new Button("Probe");
    final Button stop = new Button("Stop");
    final Label status = new Label();
    final Label out = new Label();
    final TreeView<Object> checklist = new TreeView<>(new TreeItem<>("checklist"));
    private final ConsoleModel model;
    private final List<TreeItem<Object>> items = new ArrayList<>();

    public ProbeView(ConsoleModel model, Intents.Probe intents) {
        this.model = model;
        ProbeModel p = model.probe();
        getStyleClass().add("probe-view");
        setId("probe-view");
        setSpacing(6);
        setPadding(new Insets(6, 8, 6, 8));
        start.setId("probe-start");
        stop.setId("probe-stop");
        status.setId("probe-status");
        out.setId("probe-out");
        start.setOnAction(e -> intents.start().run());
        stop.setOnAction(e -> intents.stop().run());
        start.setTooltip(new Tooltip("Try the design note's checklist against the scenario's own SQL fences, "
                + "as fencelab probe does, each item in a scratch schema"));
        start.disableProperty().bind(Bindings.createBooleanBinding(() -> !p.availableProperty().get()
                || p.phaseProperty().get().busy(), p.availableProperty(), p.phaseProperty()));
        stop.disableProperty().bind(Bindings.createBooleanBinding(() -> p.phaseProperty().get()
                != ProbeModel.Phase.RUNNING, p.phaseProperty()));
        status.textProperty().bind(p.statusProperty());
        status.setWrapText(true);
        status.getStyleClass().add("probe-status");
        p.phaseProperty().addListener((o, was, now) -> Styles.choose(status, List.of("problem-text"),
                now == ProbeModel.Phase.FAILED ? "problem-text" : null));
        out.textProperty().bind(Bindings.createStringBinding(() -> p.outDirProperty().get() == null ? ""
                : "probe.json and probe.html (the checklist as a page) written to " + p.outDirProperty().get(), p.outDirProperty()));
        out.getStyleClass().add("notes-meta");
        out.visibleProperty().bind(p.outDirProperty().isNotNull());
        out.managedProperty().bind(out.visibleProperty());
        HBox bar = new HBox(8, start, stop, status);
        bar.setAlignment(Pos.CENTER_LEFT);
        HBox.setHgrow(status, Priority.ALWAYS);
        start.setMinWidth(Region.USE_PREF_SIZE);
        stop.setMinWidth(Region.USE_PREF_SIZE);

        checklist.setId("probe-checklist");
        checklist.setShowRoot(false);
        checklist.setCellFactory(v -> new LineCell());
        VBox.setVgrow(checklist, Priority.ALWAYS);
        p.rows().addListener((ListChangeListener<Row>) c -> follow(c));
        rebuild();
        getChildren().addAll(bar, out, checklist);
    }

    /** Adds the view to {@code tabs} as its Probe tab, chosen whenever a probe starts. */
    public Tab showIn(TabPane tabs) {
        Tab tab = new Tab("Probe", this);
        tab.setClosable(false);
        tab.setId("probe-tab");
        tabs.getTabs().add(tab);
        model.probe().phaseProperty().addListener((o, was, now) -> {
            if (now == ProbeModel.Phase.RUNNING) {
                tabs.getSelectionModel().select(tab);
            }
        });
        return tab;
    }

    /** The checklist's rows: each changed row in place (an open failure stays open), a new list anew. */
    private void follow(ListChangeListener.Change<? extends Row> c) {
        List<Row> rows = model.probe().rows();
        if (rows.size() != items.size()) {
            rebuild();
            return;
        }
        while (c.next()) {
            for (int i = c.getFrom(); i < c.getTo(); i++) {
                fill(items.get(i), rows.get(i));
            }
        }
    }

    private void rebuild() {
        items.clear();
        for (Row r : model.probe().rows()) {
            TreeItem<Object> item = new TreeItem<>();
            fill(item, r);
            items.add(item);
        }
        checklist.getRoot().getChildren().setAll(items);
    }

    /** A row's item: the row itself, and for a failure its witness steps beneath it. */
    private static void fill(TreeItem<Object> item, Row r) {
        item.setValue(r);
        List<TreeItem<Object>> steps = new ArrayList<>();
        if (!r.pending() && r.verdict().status() == ItemVerdict.Status.FAILS) {
            List<WitnessStep> witness = r.verdict().witness();
            for (int i = 0; i < witness.size(); i++) {
                steps.add(new TreeItem<>(new Step(i + 1, witness.get(i))));
            }
        }
        item.getChildren().setAll(steps);
    }

    /** A witness step with its number, as the tree shows it. */
    record Step(int number, WitnessStep step) {
    }

    /** The words of a row's badge. */
    static String badge(Row r) {
        if (r.pending()) {
            return "pending";
        }
        return switch (r.verdict().status()) {
            case HOLDS -> "holds";
            case FAILS -> "FAILS";
            case NOT_APPLICABLE -> "n/a";
        };
    }

    /** A step in one line: what was done, the statement, what it said, what the row holds. */
    static String describe(Step s) {
        WitnessStep w = s.step();
        StringBuilder b = new StringBuilder().append(s.number()).append(". ").append(w.action());
        if (w.statement() != null && !w.statement().isBlank()) {
            b.append("  ·  ").append(w.statement());
        }
        if (w.said() != null && !w.said().isBlank()) {
            b.append("  ·  said ").append(w.said());
        }
        if (w.heldToken() != null || w.heldBody() != null) {
            b.append("  ·  row holds token ").append(w.heldToken() == null ? "(none)" : w.heldToken());
            if (w.heldBody() != null) {
                b.append(", body ").append(w.heldBody());
            }
        }
        if (w.eventsFile() != null) {
            b.append("  ·  events: ").append(w.eventsFile());
        }
        return b.toString();
    }

    /** A checklist row (badge, fence, item, and its verdict's line) or a witness step. */
    private static final class LineCell extends TreeCell<Object> {
        private final Label badge = new Label();
        private final Label text = new Label();
        private final HBox box = new HBox(8, badge, text);

        LineCell() {
            box.setAlignment(Pos.CENTER_LEFT);
            badge.getStyleClass().add("probe-badge");
            badge.setMinWidth(Region.USE_PREF_SIZE);
            text.setWrapText(false);
        }

        @Override
        protected void updateItem(Object value, boolean empty) {
            super.updateItem(value, empty);
            setText(null);
            switch (value) {
                case Row r when !empty -> {
                    badge.setText(badge(r));
                    Styles.choose(badge, BADGES, r.pending() ? "probe-pending" : switch (r.verdict().status()) {
                        case HOLDS -> "probe-holds";
                        case FAILS -> "probe-fails";
                        case NOT_APPLICABLE -> "probe-na";
                    });
                    badge.setVisible(true);
                    badge.setManaged(true);
                    text.setText(r.fence() + "  ·  " + r.item().title()
                            + (r.pending() ? "" : "  —  " + r.verdict().summary()));
                    setTooltip(new Tooltip(text.getText() + "\n\nHow it is tried: " + r.item().howTried()));
                    setGraphic(box);
                }
                case Step s when !empty -> {
                    badge.setVisible(false);
                    badge.setManaged(false);
                    text.setText(describe(s));
                    setTooltip(new Tooltip(text.getText()));
                    setGraphic(box);
                }
                case null, default -> {
                    setGraphic(null);
                    setTooltip(null);
                }
            }
        }
    }
}
