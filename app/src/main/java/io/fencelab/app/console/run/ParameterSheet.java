package io.fencelab.app.console.run;

import io.fencelab.app.console.model.ConsoleModel;
import io.fencelab.app.console.model.Parameters;
import io.fencelab.app.console.ui.Intents;
import io.fencelab.engine.fence.FencingMode;
import io.fencelab.engine.fence.TokenScheme;
import io.fencelab.engine.run.ExecutorKind;
import java.util.List;
import java.util.Optional;
import java.util.function.Consumer;
import java.util.function.Function;
import javafx.beans.value.ObservableValue;
import javafx.geometry.Insets;
import javafx.scene.control.Button;
import javafx.scene.control.Label;
import javafx.scene.layout.HBox;
import javafx.scene.layout.Priority;
import javafx.scene.layout.VBox;
import org.controlsfx.control.PropertySheet;

/**
 * The scenario's knobs in a ControlsFX {@link PropertySheet}: lease ttl, renew interval, worker
 * count, pause length, network delay, fencing mode, token scheme and executor. Edits collect in a
 * draft; Apply hands it on as an intent. A live run under way takes the change from then on; any
 * other run starts again from the start with the same seed (a simulated run then replays exactly,
 * changed only by the edit).
 */
final class ParameterSheet extends VBox {

    private final ConsoleModel model;
    private final PropertySheet sheet = new PropertySheet();
    private final Label problem = new Label();
    private final Button apply = new Button();
    private final Button reset = new Button("As in the scenario");
    private Draft draft;

    /** The values being edited. */
    private static final class Draft {
        double ttl;
        double renew;
        int workers;
        Parameters.PauseLength pauses;
        double pauseSeconds;
        long delay;
        FencingMode fencing;
        TokenScheme tokens;
        ExecutorKind executor;

        Draft(Parameters p) {
            ttl = p.leaseTtlSeconds();
            renew = p.renewEverySeconds();
            workers = p.workers();
            pauses = p.pauses();
            pauseSeconds = p.pauseSeconds();
            delay = p.networkDelayMillis();
            fencing = p.fencing();
            tokens = p.tokenScheme();
            executor = p.executor();
        }

        Parameters toParameters() {
            return new Parameters(ttl, renew, workers, pauses, pauseSeconds, delay, fencing, tokens, executor);
        }
    }

    ParameterSheet(ConsoleModel model, Intents.Runs runs) {
        this.model = model;
        getStyleClass().add("parameter-sheet");
        setSpacing(8);
        setPadding(new Insets(8));
        sheet.setModeSwitcherVisible(false);
        sheet.setSearchBoxVisible(false);
        sheet.setMode(PropertySheet.Mode.CATEGORY);
        sheet.setId("parameter-sheet");
        VBox.setVgrow(sheet, Priority.ALWAYS);
        problem.getStyleClass().add("problem-text");
        problem.setWrapText(true);
        problem.setManaged(false);
        apply.setId("apply-parameters");
        apply.setDefaultButton(false);
        apply.setOnAction(e -> {
            try {
                runs.applyParameters().accept(draft.toParameters());
                problem.setText("");
                problem.setManaged(false);
            } catch (IllegalArgumentException ex) {
                problem.setText(ex.getMessage());
                problem.setManaged(true);
            }
        });
        reset.setOnAction(e -> {
            if (model.scenario() != null) {
                runs.applyParameters().accept(io.fencelab.app.console.run.SpecEditor.parametersOf(model.scenario().spec()));
            }
        });
        apply.textProperty().bind(javafx.beans.binding.Bindings.createStringBinding(
                () -> model.capabilitiesProperty().get().liveChanges()
                        ? "Apply (a running live run changes now)" : "Apply (runs again, same seed)",
                model.capabilitiesProperty()));
        HBox buttons = new HBox(8, apply, reset);
        getChildren().addAll(sheet, problem, buttons);
        model.parametersProperty().addListener((o, was, now) -> show(now));
        show(model.parametersProperty().get());
    }

    private void show(Parameters p) {
        setDisable(p == null);
        if (p == null) {
            sheet.getItems().clear();
            return;
        }
        draft = new Draft(p);
        sheet.getItems().setAll(List.of(
                item("Lease", "lease ttl (s)", "How long a grant lasts unless renewed", Double.class,
                        d -> d.ttl, (d, v) -> d.ttl = v),
                item("Lease", "renew every (s)", "How often holders renew; 0 means never", Double.class,
                        d -> d.renew, (d, v) -> d.renew = v),
                item("Workers", "worker count", "How many holders; extra ones copy the scenario's workers",
                        Integer.class, d -> d.workers, (d, v) -> d.workers = v),
                item("Faults", "pause length", "How long pauses last: as the scenario says, none, or a distribution",
                        Parameters.PauseLength.class, d -> d.pauses, (d, v) -> d.pauses = v),
                item("Faults", "mean pause (s)", "The mean of the pause-length distribution", Double.class,
                        d -> d.pauseSeconds, (d, v) -> d.pauseSeconds = v),
                item("Faults", "network delay (ms)", "Extra delay on every holder's requests for the whole run",
                        Long.class, d -> d.delay, (d, v) -> d.delay = v),
                item("Resources", "fencing mode", "FENCED compares the token in the write; the others are broken",
                        FencingMode.class, d -> d.fencing, (d, v) -> d.fencing = v),
                item("Resources", "token scheme", "Where holders' tokens come from; only MONOTONIC orders holders",
                        TokenScheme.class, d -> d.tokens, (d, v) -> d.tokens = v),
                item("Run", "executor", "SIMULATED: virtual time, replayable, pausable. LIVE: real threads and time",
                        ExecutorKind.class, d -> d.executor, (d, v) -> d.executor = v)));
    }

    private <T> PropertySheet.Item item(String category, String name, String description, Class<T> type,
                                        Function<Draft, T> get, java.util.function.BiConsumer<Draft, T> set) {
        return new PropertySheet.Item() {
            @Override
            public Class<?> getType() {
                return type;
            }

            @Override
            public String getCategory() {
                return category;
            }

            @Override
            public String getName() {
                return name;
            }

            @Override
            public String getDescription() {
                return description;
            }

            @Override
            public Object getValue() {
                return get.apply(draft);
            }

            @Override
            public void setValue(Object value) {
                if (value != null && type.isInstance(value)) {
                    set.accept(draft, type.cast(value));
                } else if (value instanceof Number n) {
                    Object converted = type == Double.class ? (Object) n.doubleValue()
                            : type == Integer.class ? (Object) n.intValue() : (Object) n.longValue();
                    set.accept(draft, type.cast(converted));
                }
            }

            @Override
            public Optional<ObservableValue<?>> getObservableValue() {
                return Optional.empty();
            }
        };
    }

    /** For tests: sets a knob by its name and applies. */
    void set(String name, Object value, Consumer<Parameters> apply) {
        sheet.getItems().stream().filter(i -> i.getName().equals(name)).findFirst().orElseThrow().setValue(value);
        apply.accept(draft.toParameters());
    }
}
