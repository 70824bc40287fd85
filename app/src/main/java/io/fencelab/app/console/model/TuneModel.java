package io.fencelab.app.console.model;

import io.fencelab.engine.run.Backend;
import io.fencelab.engine.tune.SweepResults;
import java.util.List;
import javafx.beans.property.BooleanProperty;
import javafx.beans.property.IntegerProperty;
import javafx.beans.property.ObjectProperty;
import javafx.beans.property.SimpleBooleanProperty;
import javafx.beans.property.SimpleIntegerProperty;
import javafx.beans.property.SimpleObjectProperty;
import javafx.beans.property.SimpleStringProperty;
import javafx.beans.property.StringProperty;
import javafx.collections.FXCollections;
import javafx.collections.ObservableList;

/**
 * The Tune view's state: the sweep asked for (scenario, up to two axes, seeds, jobs, constraints,
 * output folder, as the form shows them), the sweep's phase and progress, what it has found so far,
 * the metric on show and the recommended setting in words. State only: {@code TuneController}
 * changes it, {@code TuneView} binds to it.
 */
public final class TuneModel {

    /** The tuning scenarios, offered first as profile presets. */
    public static final List<String> PRESETS = List.of("k8s-leader-gc", "k8s-leader-long-gc", "vm-suspension",
            "redisson-long-gc", "consul-lock-delay");

    /** Where a sweep is. */
    public enum Phase {
        /** No sweep yet. */
        IDLE,
        RUNNING,
        /** Stop pressed; runs under way are ending. */
        STOPPING,
        /** Stopped with results kept: Resume goes on. */
        STOPPED,
        DONE,
        /** The sweep could not be set up or could not go on; {@link #statusProperty()} says why. */
        FAILED;

        public boolean busy() {
            return this == RUNNING || this == STOPPING;
        }
    }

    /** One axis of the form: a path and its range, as {@code fencelab tune --vary} takes them. */
    public static final class AxisForm {
        private final StringProperty path = new SimpleStringProperty(this, "path", "");
        private final StringProperty from = new SimpleStringProperty(this, "from", "");
        private final StringProperty to = new SimpleStringProperty(this, "to", "");
        private final IntegerProperty steps = new SimpleIntegerProperty(this, "steps", 3);
        private final BooleanProperty log = new SimpleBooleanProperty(this, "log");

        /** The varied path ({@code lease.ttl}); empty means the axis is not used. */
        public StringProperty pathProperty() {
            return path;
        }

        public StringProperty fromProperty() {
            return from;
        }

        public StringProperty toProperty() {
            return to;
        }

        public IntegerProperty stepsProperty() {
            return steps;
        }

        public BooleanProperty logProperty() {
            return log;
        }

        /** {@code lease.ttl=10s..40s:4log}, or null when no path is chosen. */
        public String vary() {
            String p = path.get() == null ? "" : path.get().strip();
            if (p.isEmpty()) {
                return null;
            }
            String f = from.get().strip();
            String t = to.get().strip();
            if (f.equals(t) || t.isEmpty()) {
                return p + "=" + f;
            }
            return p + "=" + f + ".." + t + ":" + steps.get() + (log.get() ? "log" : "");
        }
    }

    private final StringProperty scenario = new SimpleStringProperty(this, "scenario", "");
    private final ObservableList<String> variablePaths = FXCollections.observableArrayList();
    private final AxisForm across = new AxisForm();
    private final AxisForm upwards = new AxisForm();
    private final IntegerProperty seeds = new SimpleIntegerProperty(this, "seeds", 2);
    private final IntegerProperty jobs = new SimpleIntegerProperty(this, "jobs",
            Math.max(1, Math.min(2, Runtime.getRuntime().availableProcessors())));
    private final StringProperty require = new SimpleStringProperty(this, "require", "");
    /** Where the runs keep their state, as {@code --backend}; null: the fastest the scenario allows. */
    private final ObjectProperty<Backend> backend = new SimpleObjectProperty<>(this, "backend");
    private final StringProperty out = new SimpleStringProperty(this, "out", "");

    private final ObjectProperty<Phase> phase = new SimpleObjectProperty<>(this, "phase", Phase.IDLE);
    private final StringProperty status = new SimpleStringProperty(this, "status",
            "Pick a scenario or a preset, the settings to vary and the seeds, then press Run sweep.");
    private final IntegerProperty runsTotal = new SimpleIntegerProperty(this, "runsTotal");
    private final IntegerProperty runsDone = new SimpleIntegerProperty(this, "runsDone");
    private final IntegerProperty runsAlreadyDone = new SimpleIntegerProperty(this, "runsAlreadyDone");
    private final ObjectProperty<SweepResults> results = new SimpleObjectProperty<>(this, "results");
    private final StringProperty metric = new SimpleStringProperty(this, "metric", "failoverP99Seconds");
    private final StringProperty recommendation = new SimpleStringProperty(this, "recommendation", "");
    private final StringProperty report = new SimpleStringProperty(this, "report", "");
    private final BooleanProperty shown = new SimpleBooleanProperty(this, "shown");

    /** The catalog name (or file) to sweep. */
    public StringProperty scenarioProperty() {
        return scenario;
    }

    /** The paths the chosen scenario can vary. */
    public ObservableList<String> variablePaths() {
        return variablePaths;
    }

    /** The first axis: across the heatmap. */
    public AxisForm across() {
        return across;
    }

    /** The second axis (optional): up the heatmap. */
    public AxisForm upwards() {
        return upwards;
    }

    public IntegerProperty seedsProperty() {
        return seeds;
    }

    public IntegerProperty jobsProperty() {
        return jobs;
    }

    public ObjectProperty<Backend> backendProperty() {
        return backend;
    }

    /** Constraints as {@code --require} takes them, separated by commas or spaces. */
    public StringProperty requireProperty() {
        return require;
    }

    /** The output folder; Resume runs again on it. */
    public StringProperty outProperty() {
        return out;
    }

    public ObjectProperty<Phase> phaseProperty() {
        return phase;
    }

    public Phase phase() {
        return phase.get();
    }

    /** One line for people: what the sweep is doing, or what went wrong. */
    public StringProperty statusProperty() {
        return status;
    }

    /** Runs in the whole plan (valid points times seeds). */
    public IntegerProperty runsTotalProperty() {
        return runsTotal;
    }

    /** Runs finished, counting those an earlier, stopped sweep left in the folder. */
    public IntegerProperty runsDoneProperty() {
        return runsDone;
    }

    /** Runs the folder held when this sweep started (a resumed sweep does not run them again). */
    public IntegerProperty runsAlreadyDoneProperty() {
        return runsAlreadyDone;
    }

    /** What the sweep has found so far, replaced (at most once a frame) as points finish; null before a sweep. */
    public ObjectProperty<SweepResults> resultsProperty() {
        return results;
    }

    public SweepResults results() {
        return results.get();
    }

    /** The metric the heatmap shows, one of {@code TuningMetrics.NAMES}. */
    public StringProperty metricProperty() {
        return metric;
    }

    /** The recommended setting in words, or why there is none; empty before any result. */
    public StringProperty recommendationProperty() {
        return recommendation;
    }

    /** Where the sweep's report is (or what exporting it said). */
    public StringProperty reportProperty() {
        return report;
    }

    /** Whether the Tune view is the one on show (else the timeline is). */
    public BooleanProperty shownProperty() {
        return shown;
    }
}
