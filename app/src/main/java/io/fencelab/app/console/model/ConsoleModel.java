package io.fencelab.app.console.model;

import io.fencelab.scenarios.CatalogEntry;
import io.fencelab.scenarios.Scenario;
import javafx.beans.property.BooleanProperty;
import javafx.beans.property.DoubleProperty;
import javafx.beans.property.ObjectProperty;
import javafx.beans.property.SimpleBooleanProperty;
import javafx.beans.property.SimpleDoubleProperty;
import javafx.beans.property.SimpleObjectProperty;
import javafx.beans.property.SimpleStringProperty;
import javafx.beans.property.StringProperty;
import javafx.collections.FXCollections;
import javafx.collections.ObservableList;

/**
 * The whole console's state: the database, the catalog and the chosen scenario, the parameters,
 * the controls, and the runs on show (one, or two side by side when comparing). State only; the
 * controller changes it and views bind to it.
 */
public final class ConsoleModel {

    private final StringProperty database = new SimpleStringProperty(this, "database", "starting the database…");
    private final BooleanProperty databaseReady = new SimpleBooleanProperty(this, "databaseReady");
    private final StringProperty databaseProblem = new SimpleStringProperty(this, "databaseProblem", "");

    private final ObservableList<CatalogEntry> catalog = FXCollections.observableArrayList();
    private final ObjectProperty<CatalogEntry> selected = new SimpleObjectProperty<>(this, "selected");
    private final ObjectProperty<Scenario> scenario = new SimpleObjectProperty<>(this, "scenario");
    private final StringProperty scenarioProblem = new SimpleStringProperty(this, "scenarioProblem", "");
    private final StringProperty source = new SimpleStringProperty(this, "source", "");
    private final ObjectProperty<Parameters> parameters = new SimpleObjectProperty<>(this, "parameters");
    private final ObservableList<String> handFaults = FXCollections.observableArrayList();

    private final DoubleProperty speed = new SimpleDoubleProperty(this, "speed", 1.0);
    private final BooleanProperty fastest = new SimpleBooleanProperty(this, "fastest");
    private final BooleanProperty compare = new SimpleBooleanProperty(this, "compare");
    private final ObjectProperty<Capabilities> capabilities = new SimpleObjectProperty<>(this,
            "capabilities", Capabilities.NONE);
    private final ObservableList<String> workers = FXCollections.observableArrayList();
    private final StringProperty faultHolder = new SimpleStringProperty(this, "faultHolder");
    private final DoubleProperty faultSeconds = new SimpleDoubleProperty(this, "faultSeconds", 10);
    private final StringProperty message = new SimpleStringProperty(this, "message", "");

    private final RunModel main = new RunModel("main");
    private final RunModel first = new RunModel("first");
    private final RunModel second = new RunModel("second");
    private final ObjectProperty<Comparison> comparison = new SimpleObjectProperty<>(this, "comparison",
            Comparison.FENCING);
    private final TimeWindow window = new TimeWindow();
    private final TuneModel tune = new TuneModel();
    private final LessonModel lesson = new LessonModel();
    private final VoteModel votes = new VoteModel();
    private final ProbeModel probe = new ProbeModel();

    /** {@code Database.describe()} once open; what is happening before. */
    public StringProperty databaseProperty() {
        return database;
    }

    public BooleanProperty databaseReadyProperty() {
        return databaseReady;
    }

    /** Why the database could not be opened, for people; empty when all is well. */
    public StringProperty databaseProblemProperty() {
        return databaseProblem;
    }

    public ObservableList<CatalogEntry> catalog() {
        return catalog;
    }

    public ObjectProperty<CatalogEntry> selectedProperty() {
        return selected;
    }

    /** The scenario on show (from the catalog or a file), or null. */
    public ObjectProperty<Scenario> scenarioProperty() {
        return scenario;
    }

    public Scenario scenario() {
        return scenario.get();
    }

    /** A scenario file's problems, one per line, shown where the scenario would be. */
    public StringProperty scenarioProblemProperty() {
        return scenarioProblem;
    }

    /** Where the scenario came from: {@code catalog}, a file's path, or a saved log's path. */
    public StringProperty sourceProperty() {
        return source;
    }

    public ObjectProperty<Parameters> parametersProperty() {
        return parameters;
    }

    /** Faults added by hand to the current scenario, in words. */
    public ObservableList<String> handFaults() {
        return handFaults;
    }

    /** Run seconds per real second (0.01 to 100), unless {@link #fastestProperty()} is on. */
    public DoubleProperty speedProperty() {
        return speed;
    }

    public BooleanProperty fastestProperty() {
        return fastest;
    }

    /** Whether the same scenario and seed run twice, one above the other (see {@link #comparisonProperty()}). */
    public BooleanProperty compareProperty() {
        return compare;
    }

    /** What the two compared runs differ in. */
    public ObjectProperty<Comparison> comparisonProperty() {
        return comparison;
    }

    public ObjectProperty<Capabilities> capabilitiesProperty() {
        return capabilities;
    }

    /** The holders of the scenario on show, from its spec (known before any event). */
    public ObservableList<String> workers() {
        return workers;
    }

    /** The holder a fault shortcut hits. */
    public StringProperty faultHolderProperty() {
        return faultHolder;
    }

    /** How long a fault added by hand lasts. */
    public DoubleProperty faultSecondsProperty() {
        return faultSeconds;
    }

    /** A passing note for the status bar (exported to …). */
    public StringProperty messageProperty() {
        return message;
    }

    /** The run on show when not comparing. */
    public RunModel main() {
        return main;
    }

    /** The first of two compared runs (fencing on, or the first lease ttl), drawn above. */
    public RunModel first() {
        return first;
    }

    /** The second of two compared runs (fencing off, or the second lease ttl), drawn below. */
    public RunModel second() {
        return second;
    }

    /**
     * The run the verdict panel, table and charts follow: the main run, or when comparing the second
     * one (the unfenced run, where the violations are).
     */
    public RunModel focused() {
        return compare.get() ? second : main;
    }

    /** The stretch of time the timelines show (shared, so compared runs stay aligned). */
    public TimeWindow window() {
        return window;
    }

    /** The Tune view: the sweep asked for, its progress and what it found. */
    public TuneModel tune() {
        return tune;
    }

    /** The room's votes on the lesson's questions. */
    public VoteModel votes() {
        return votes;
    }

    /** The lesson being taught: story progress, guided mode, questions, the workshop. */
    public LessonModel lesson() {
        return lesson;
    }

    /** The probe of the scenario's own SQL fences: its checklist as it fills in. */
    public ProbeModel probe() {
        return probe;
    }
}
