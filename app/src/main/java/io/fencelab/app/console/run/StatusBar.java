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
import javafx.scene.layout.HBox;
import javafx.scene.layout.Priority;

/** The bottom line: the database, the executor, the seed, run time, events per second, and a passing message. */
public final class StatusBar extends HBox {

    final Label database = new Label();
    final Label executor = new Label();
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
        HBox.setHgrow(message, Priority.ALWAYS);
        // Fixed widths: the texts change every frame and must not re-lay-out the window each time.
        for (Label l : new Label[] {executor, seed, time, rate}) {
            l.setMinWidth(javafx.scene.layout.Region.USE_PREF_SIZE);
        }
        executor.setPrefWidth(190);
        seed.setPrefWidth(110);
        time.setPrefWidth(170);
        rate.setPrefWidth(140);
        getChildren().addAll(database, sep(), executor, sep(), seed, sep(), time, sep(), rate, sep(), message);
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
        seed.setText("Seed: " + (info.seed().isEmpty() ? "—" : info.seed()));
        long end = run.endMicrosProperty().get();
        time.setText("Run time: " + RunTimes.brief(run.nowMicrosProperty().get() / 100_000 * 100_000)
                + (end > 0 ? " of " + RunTimes.brief(end) : ""));
        rate.setText(String.format(Locale.ROOT, "%,.0f events/s", run.eventsPerSecondProperty().get()));
    }
}
