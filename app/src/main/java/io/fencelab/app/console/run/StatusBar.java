package io.fencelab.app.console.run;

import io.fencelab.app.console.model.ConsoleModel;
import io.fencelab.app.console.model.RunInfo;
import io.fencelab.app.console.model.RunModel;
import io.fencelab.engine.clock.RunTimes;
import java.util.Locale;
import javafx.beans.InvalidationListener;
import javafx.geometry.Insets;
import javafx.geometry.Pos;
import javafx.scene.control.Label;
import javafx.scene.control.Separator;
import javafx.scene.control.Tooltip;
import javafx.scene.layout.HBox;
import javafx.scene.layout.Priority;

/**
 * The bottom line: the database, the executor, who grants the leases (the whole store description in its
 * tooltip), the seed, run time, events per second, and a passing message.
 */
public final class StatusBar extends HBox {

    final Label database = new Label();
    final Label executor = new Label();
    final Label leases = new Label();
    private final Tooltip store = new Tooltip();
    final Label seed = new Label();
    final Label time = new Label();
    final Label rate = new Label();
    final Label message = new Label();
    private RunModel run;
    private final InvalidationListener refresh = o -> refresh();

    public StatusBar(ConsoleModel model) {
        getStyleClass().add("status-bar");
        setSpacing(10);
        setAlignment(Pos.CENTER_LEFT);
        setPadding(new Insets(5, 12, 5, 12));
        database.setId("status-database");
        executor.setId("status-executor");
        leases.setId("status-leases");
        leases.setTooltip(store);
        store.setWrapText(true);
        store.setMaxWidth(520);
        seed.setId("status-seed");
        time.setId("status-time");
        rate.setId("status-rate");
        message.setId("status-message");
        database.textProperty().bind(javafx.beans.binding.Bindings.createStringBinding(
                () -> "Database: " + model.databaseProperty().get(), model.databaseProperty()));
        database.getStyleClass().add("status-database");
        message.textProperty().bind(model.messageProperty());
        message.getStyleClass().add("status-message");
        message.setMaxWidth(Double.MAX_VALUE);
        message.setMinWidth(0);
        HBox.setHgrow(message, Priority.ALWAYS);
        // Fixed widths: the texts change every frame and must not re-lay-out the window each time.
        for (Label l : new Label[] {database, executor, seed, time, rate}) {
            l.setMinWidth(javafx.scene.layout.Region.USE_PREF_SIZE);
        }
        executor.setPrefWidth(190);
        // Sized to its text, which changes once a run, not every frame: the passing message gives way instead.
        leases.setMinWidth(javafx.scene.layout.Region.USE_PREF_SIZE);
        seed.setPrefWidth(110);
        time.setPrefWidth(170);
        rate.setPrefWidth(140);
        getChildren().addAll(database, sep(), executor, sep(), leases, sep(), seed, sep(), time, sep(), rate, sep(), message);
    }

    private static Separator sep() {
        return new Separator(javafx.geometry.Orientation.VERTICAL);
    }

    public void bind(RunModel model) {
        if (run != null) {
            run.infoProperty().removeListener(refresh);
            run.nowMicrosProperty().removeListener(refresh);
            run.eventsPerSecondProperty().removeListener(refresh);
            run.endMicrosProperty().removeListener(refresh);
        }
        run = model;
        model.infoProperty().addListener(refresh);
        model.nowMicrosProperty().addListener(refresh);
        model.eventsPerSecondProperty().addListener(refresh);
        model.endMicrosProperty().addListener(refresh);
        refresh();
    }

    private void refresh() {
        RunInfo info = run.infoProperty().get();
        executor.setText("Executor: " + (info.executor().isEmpty() ? "—" : info.executor()));
        leases.setText("Leases: " + (info.leases().isEmpty() ? "—" : info.leases()));
        store.setText(info.store().isEmpty() ? "Where the run's leases and resources live (not known for a saved log)"
                : info.store());
        seed.setText("Seed: " + (info.seed().isEmpty() ? "—" : info.seed()));
        long end = run.endMicrosProperty().get();
        time.setText("Run time: " + RunTimes.brief(run.nowMicrosProperty().get() / 100_000 * 100_000)
                + (end > 0 ? " of " + RunTimes.brief(end) : ""));
        rate.setText(String.format(Locale.ROOT, "%,.0f events/s", run.eventsPerSecondProperty().get()));
    }
}
