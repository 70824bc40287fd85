package io.fencelab.app.console.run;

import io.fencelab.app.console.model.ConsoleModel;
import io.fencelab.app.console.model.Parameters;
import io.fencelab.app.console.ui.Intents;
import io.fencelab.engine.fence.FencingMode;
import io.fencelab.engine.fence.TokenScheme;
import io.fencelab.engine.lease.LeaseServiceSpec;
import io.fencelab.engine.lease.ServiceKind;
import io.fencelab.engine.lease.TokenRecipe;
import io.fencelab.engine.run.ExecutorKind;
import java.util.List;
import java.util.Optional;
import java.util.function.Consumer;
import java.util.function.Function;
import javafx.application.Platform;
import javafx.beans.value.ObservableValue;
import javafx.geometry.Insets;
import javafx.scene.control.Button;
import javafx.scene.control.Label;
import javafx.scene.control.PasswordField;
import javafx.scene.layout.HBox;
import javafx.scene.layout.Priority;
import javafx.scene.layout.VBox;
import org.controlsfx.control.PropertySheet;
import org.controlsfx.property.editor.AbstractPropertyEditor;
import org.controlsfx.property.editor.DefaultPropertyEditorFactory;
import org.controlsfx.property.editor.Editors;
import org.controlsfx.property.editor.PropertyEditor;

/**
 * The scenario's knobs in a ControlsFX {@link PropertySheet}: lease ttl, renew interval, worker
 * count, pause length, network delay, fencing mode, token scheme, executor, and the lease service
 * with its token and address. Edits collect in a draft; Apply hands it on as an intent. A live run
 * under way takes the change from then on; any other run starts again from the start with the same
 * seed (a simulated run then replays exactly, changed only by the edit).
 *
 * <p>A real lease service runs in real time, so the executor and the service follow each other
 * ({@link Parameters#executorFor}, {@link Parameters#serviceFor}): the one chosen last wins, the other
 * changes with it, and the note under the sheet says so.
 */
final class ParameterSheet extends VBox {

    private final ConsoleModel model;
    private final PropertySheet sheet = new PropertySheet();
    private final Label problem = new Label();
    private final Label note = new Label();
    private final Button apply = new Button();
    private final Button reset = new Button("As in the scenario");
    private static final DefaultPropertyEditorFactory DEFAULTS = new DefaultPropertyEditorFactory();
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
        ServiceKind service;
        TokenRecipe token;
        /** The user's own server, or null: Fencelab starts one. May hold a Redis password: never shown. */
        String address;

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
            service = p.service().kind();
            token = p.service().token();
            address = p.service().endpoints();
        }

        LeaseServiceSpec leaseService() {
            return new LeaseServiceSpec(service, token, address);
        }

        Parameters toParameters() {
            return new Parameters(ttl, renew, workers, pauses, pauseSeconds, delay, fencing, tokens, executor,
                    leaseService());
        }

        /** The service chosen: its default token, and a simulated run becomes live. What changed besides, or null. */
        String chooseService(ServiceKind kind) {
            if (kind != service) {
                token = kind.defaultToken();
                address = null;
            }
            service = kind;
            ExecutorKind follows = Parameters.executorFor(leaseService(), executor);
            if (follows == executor) {
                return null;
            }
            executor = follows;
            return "The executor is now " + follows + ": " + kind.key() + " runs in real time, which a simulated run "
                    + "cannot wait for, and each holder is its own process, so a pause freezes its client too.";
        }

        /** The executor chosen: a simulated run's leases are PostgreSQL's. What changed besides, or null. */
        String chooseExecutor(ExecutorKind kind) {
            executor = kind;
            LeaseServiceSpec follows = Parameters.serviceFor(kind, leaseService());
            if (follows.equals(leaseService())) {
                return null;
            }
            String was = service.key();
            service = follows.kind();
            token = follows.token();
            address = follows.endpoints();
            return "The lease service is now postgres: a simulated run cannot wait for " + was + ", which runs in "
                    + "real time.";
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
        note.setId("parameter-note");
        note.getStyleClass().add("notes-meta");
        note.setWrapText(true);
        note.managedProperty().bind(note.textProperty().isNotEmpty());
        sheet.setPropertyEditorFactory(this::editorFor);
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
        getChildren().addAll(sheet, note, problem, buttons);
        model.parametersProperty().addListener((o, was, now) -> show(now));
        show(model.parametersProperty().get());
    }

    private void show(Parameters p) {
        setDisable(p == null);
        if (p == null) {
            sheet.getItems().clear();
            return;
        }
        if (draft == null || !p.equals(draft.toParameters())) {
            // A note about the draft outlives its Apply, not a change of scenario or a reset.
            note.setText("");
        }
        draft = new Draft(p);
        showDraft();
    }

    private void showDraft() {
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
                        ExecutorKind.class, d -> d.executor, (d, v) -> {
                            if (v != d.executor) {
                                followed(d.chooseExecutor(v));
                            }
                        }),
                item("Run", "lease service", "Who grants the leases: PostgreSQL's table, or a real etcd, ZooKeeper "
                        + "or Redis through its own client (live or process runs)", ServiceKind.class,
                        d -> d.service, (d, v) -> {
                            if (v != d.service) {
                                followed(d.chooseService(v));
                            }
                        }),
                item("Run", "token", "Where the real service's fencing token comes from (docs/SERVICES.md)",
                        TokenRecipe.class, d -> d.token, (d, v) -> d.token = v),
                item("Run", "service address", "Empty: Fencelab starts a server for the run. Else your own: "
                        + "http://host:2379,… (etcd), host:2181,… (ZooKeeper), redis://[:password@]host:6379 (Redis)",
                        String.class, d -> d.address, (d, v) -> d.address = v)));
    }

    /**
     * After a choice that changed another knob: says so, and shows the sheet again (later, once the
     * editor that made the choice has finished with it) so that every editor shows the draft.
     */
    private void followed(String change) {
        if (change != null) {
            note.setText(change);
        }
        Platform.runLater(this::showDraft);
    }

    /** The token offers only the service's recipes; a Redis address, which may hold a password, is masked. */
    private PropertyEditor<?> editorFor(PropertySheet.Item item) {
        return switch (item.getName()) {
            case "token" -> Editors.createChoiceEditor(item, draft.service.tokens());
            case "service address" -> draft.service == ServiceKind.REDIS ? new MaskedEditor(item)
                    : Editors.createTextEditor(item);
            default -> DEFAULTS.call(item);
        };
    }

    /** A text editor whose text is never shown: a Redis URL may hold a password. */
    private static final class MaskedEditor extends AbstractPropertyEditor<String, PasswordField> {
        MaskedEditor(PropertySheet.Item item) {
            super(item, new PasswordField());
            getEditor().setPromptText("empty: Fencelab starts one");
        }

        @Override
        protected ObservableValue<String> getObservableValue() {
            return getEditor().textProperty();
        }

        @Override
        public void setValue(String value) {
            getEditor().setText(value == null ? "" : value);
        }
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
