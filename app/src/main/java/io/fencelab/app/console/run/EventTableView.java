package io.fencelab.app.console.run;

import io.fencelab.app.console.model.RunModel;
import io.fencelab.app.console.ui.Intents;
import io.fencelab.app.console.ui.Styles;
import io.fencelab.engine.check.Judgement;
import io.fencelab.engine.check.WriteClass;
import io.fencelab.engine.clock.RunTimes;
import io.fencelab.engine.event.Event;
import io.fencelab.report.EventText;
import java.util.HashSet;
import java.util.Set;
import java.util.function.Function;
import javafx.beans.property.ReadOnlyObjectWrapper;
import javafx.collections.ListChangeListener;
import javafx.collections.ObservableList;
import javafx.collections.transformation.FilteredList;
import javafx.geometry.Insets;
import javafx.geometry.Pos;
import javafx.scene.control.Button;
import javafx.scene.control.CheckBox;
import javafx.scene.control.Label;
import javafx.scene.control.TableColumn;
import javafx.scene.control.TableRow;
import javafx.scene.control.TableView;
import javafx.scene.layout.HBox;
import javafx.scene.layout.Priority;
import javafx.scene.layout.VBox;
import org.controlsfx.control.CheckComboBox;

/**
 * Every event of the run in a table, with filters by holder, scope and type (ControlsFX
 * check-combo boxes: nothing ticked means everything) and "witness events only". Selecting a row
 * pins the event, so the timeline and the details follow.
 */
public final class EventTableView extends VBox {

    private static final java.util.List<String> ROW_LOOKS = java.util.List.of("row-violation", "row-stale");

    final TableView<Event> table = new TableView<>();
    final CheckComboBox<String> holders = new CheckComboBox<>();
    final CheckComboBox<String> scopes = new CheckComboBox<>();
    final CheckComboBox<String> types = new CheckComboBox<>();
    final CheckBox witnessOnly = new CheckBox("witnesses only");
    final Label shown = new Label();
    private RunModel run;
    private FilteredList<Event> filtered;
    /** New holders, scopes and types reach the filters at most a few times a second (each update re-measures them). */
    private final javafx.animation.PauseTransition syncSoon = new javafx.animation.PauseTransition(
            javafx.util.Duration.millis(400));
    /** A new witness changes which rows are stale overwrites: restyle the rows on show. */
    private final javafx.beans.value.ChangeListener<Judgement> restyle = (o, was, now) -> {
        if (was == null || was.verdict().witnesses().size() != now.verdict().witnesses().size()) {
            table.refresh();
        }
    };
    private final ListChangeListener<String> resync = c -> {
        if (syncSoon.getStatus() != javafx.animation.Animation.Status.RUNNING) {
            syncSoon.playFromStart();
        }
    };

    public EventTableView(Intents.Navigation navigation) {
        getStyleClass().add("event-table");
        table.setId("event-table");
        holders.setId("filter-holders");
        scopes.setId("filter-scopes");
        types.setId("filter-types");
        syncSoon.setOnFinished(e -> sync());
        for (CheckComboBox<String> box : java.util.List.of(holders, scopes, types)) {
            // A fixed width: otherwise every layout measures every item of the list.
            box.setPrefWidth(135);
            box.setMaxWidth(135);
        }
        holders.setTitle("holders: all");
        scopes.setTitle("scopes: all");
        types.setTitle("types: all");
        table.setColumnResizePolicy(TableView.CONSTRAINED_RESIZE_POLICY_FLEX_LAST_COLUMN);
        table.getColumns().add(column("seq", 60, e -> e.seq()));
        table.getColumns().add(column("time", 100, e -> RunTimes.precise(e.atMicros())));
        table.getColumns().add(column("type", 160, EventText::type));
        table.getColumns().add(column("holder", 80, Event::holder));
        table.getColumns().add(column("scope", 80, Event::scope));
        table.getColumns().add(column("token", 90, e -> e.tokenOrNull() == null ? "" : e.tokenOrNull().toString()));
        table.getColumns().add(column("detail", 300, EventText::detail));
        table.setPlaceholder(new Label("no events yet"));
        table.setRowFactory(v -> new TableRow<>() {
            @Override
            protected void updateItem(Event e, boolean empty) {
                super.updateItem(e, empty);
                String look = empty || e == null || run == null ? null : switch (classOf(e)) {
                    case STALE_OVERWRITE -> "row-violation";
                    case REJECTED_STALE -> "row-stale";
                    case null, default -> null;
                };
                Styles.choose(this, ROW_LOOKS, look);
            }
        });
        table.getSelectionModel().selectedItemProperty().addListener((o, was, now) -> {
            if (now != null && run != null && run.pinnedSeqProperty().get() != now.seq()) {
                navigation.pin().accept(run, now.seq());
            }
        });
        for (CheckComboBox<String> box : java.util.List.of(holders, scopes, types)) {
            box.getCheckModel().getCheckedItems().addListener((ListChangeListener<String>) c -> refilter());
        }
        witnessOnly.setOnAction(e -> refilter());
        Button clear = new Button("Clear");
        clear.setOnAction(e -> {
            holders.getCheckModel().clearChecks();
            scopes.getCheckModel().clearChecks();
            types.getCheckModel().clearChecks();
            witnessOnly.setSelected(false);
            refilter();
        });
        Label title = new Label("Filter");
        Button none = clear;
        for (javafx.scene.control.Control c : new javafx.scene.control.Control[] {title, witnessOnly, none, shown}) {
            c.setMinWidth(javafx.scene.layout.Region.USE_PREF_SIZE);
        }
        HBox filters = new HBox(8, title, holders, scopes, types, witnessOnly, clear, shown);
        filters.setAlignment(Pos.CENTER_LEFT);
        filters.setPadding(new Insets(6, 8, 6, 8));
        VBox.setVgrow(table, Priority.ALWAYS);
        getChildren().addAll(filters, table);
    }

    private static <T> TableColumn<Event, T> column(String name, double width, Function<Event, T> value) {
        TableColumn<Event, T> c = new TableColumn<>(name);
        c.setPrefWidth(width);
        c.setSortable(false);
        c.setCellValueFactory(d -> new ReadOnlyObjectWrapper<>(value.apply(d.getValue())));
        return c;
    }

    private boolean showing = true;

    /**
     * Whether the table is on screen. A hidden table lets go of its rows (a flood of events would
     * otherwise have it lay out cells nobody sees every frame) and takes them back when shown.
     */
    public void setShowing(boolean on) {
        showing = on;
        // Hidden, it shows an empty list rather than none: a null list throws in the skin's next layout.
        table.setItems(on ? filtered : javafx.collections.FXCollections.emptyObservableList());
        if (on && run != null && run.pinnedSeqProperty().get() > 0) {
            reveal(run.pinnedSeqProperty().get());
        }
    }

    /** Follows {@code model} (rebinding when the console focuses another run). */
    public void bind(RunModel model) {
        if (run != null) {
            run.holders().removeListener(resync);
            run.scopes().removeListener(resync);
            run.types().removeListener(resync);
            run.judgementProperty().removeListener(restyle);
        }
        run = model;
        model.judgementProperty().addListener(restyle);
        filtered = new FilteredList<>(model.rows());
        table.setItems(showing ? filtered : null);
        model.holders().addListener(resync);
        model.scopes().addListener(resync);
        model.types().addListener(resync);
        filtered.addListener((ListChangeListener<Event>) c -> updateShown());
        sync();
        refilter();
    }

    /** The checker's class of {@code e} if it is a write outcome, else null. */
    private WriteClass classOf(Event e) {
        return run.judgement().classOf(e.seq());
    }

    private void sync() {
        syncItems(holders, run.holders());
        syncItems(scopes, run.scopes());
        syncItems(types, run.types());
    }

    private static void syncItems(CheckComboBox<String> box, ObservableList<String> source) {
        if (box.getItems().equals(source)) {
            return;
        }
        Set<String> checked = new HashSet<>(box.getCheckModel().getCheckedItems());
        box.getItems().setAll(source);
        for (String s : checked) {
            if (source.contains(s)) {
                box.getCheckModel().check(s);
            }
        }
    }

    private void refilter() {
        if (filtered == null) {
            return;
        }
        Set<String> h = new HashSet<>(holders.getCheckModel().getCheckedItems());
        Set<String> s = new HashSet<>(scopes.getCheckModel().getCheckedItems());
        Set<String> t = new HashSet<>(types.getCheckModel().getCheckedItems());
        boolean witness = witnessOnly.isSelected();
        RunModel r = run;
        filtered.setPredicate(e -> (h.isEmpty() || h.contains(e.holder()))
                && (s.isEmpty() || s.contains(e.scope()))
                && (t.isEmpty() || t.contains(EventText.type(e)))
                && (!witness || r.verdict().witnesses().stream().anyMatch(w -> w.eventSeqs().contains(e.seq()))));
        holders.setTitle(h.isEmpty() ? "holders: all" : "holders: " + h.size());
        scopes.setTitle(s.isEmpty() ? "scopes: all" : "scopes: " + s.size());
        types.setTitle(t.isEmpty() ? "types: all" : "types: " + t.size());
        updateShown();
    }

    private void updateShown() {
        shown.setText(filtered.size() + " of " + run.rows().size() + " events");
    }

    /** Scrolls to and selects the row of event {@code seq}, if it passes the filters. */
    public void reveal(long seq) {
        if (!showing || filtered == null) {
            return;
        }
        for (int i = filtered.size() - 1; i >= 0; i--) {
            if (filtered.get(i).seq() == seq) {
                table.getSelectionModel().select(i);
                table.scrollTo(Math.max(0, i - 3));
                return;
            }
        }
    }
}
