package io.fencelab.app.console.model;

import io.fencelab.engine.check.Judgement;
import io.fencelab.engine.check.Verdict;
import io.fencelab.engine.event.Event;
import io.fencelab.engine.metrics.MetricsCollector;
import io.fencelab.engine.metrics.MetricsSnapshot;
import io.fencelab.engine.metrics.TuningMetrics;
import io.fencelab.engine.run.RunResult;
import io.fencelab.report.Timeline;
import java.util.List;
import javafx.beans.property.DoubleProperty;
import javafx.beans.property.IntegerProperty;
import javafx.beans.property.LongProperty;
import javafx.beans.property.ObjectProperty;
import javafx.beans.property.SimpleDoubleProperty;
import javafx.beans.property.SimpleIntegerProperty;
import javafx.beans.property.SimpleLongProperty;
import javafx.beans.property.SimpleObjectProperty;
import javafx.beans.property.SimpleStringProperty;
import javafx.beans.property.StringProperty;
import javafx.collections.FXCollections;
import javafx.collections.ObservableList;

/**
 * One run as the console shows it: its events, the timeline drawn from them, the verdict and
 * metrics so far, where its time is, and what the user picked in it. State only: the feed updates
 * it once per frame on the FX thread, and views bind to it.
 */
public final class RunModel {

    /** A verdict with nothing to witness, shown before the checker has said anything. */
    public static final Verdict NO_VIOLATION = Verdict.of(List.of());
    public static final MetricsSnapshot NO_METRICS = new MetricsCollector().snapshot();

    private final String name;
    private final EventStore events = new EventStore();
    private final ObservableList<Event> rows = FXCollections.observableArrayList();
    private final ObservableList<String> holders = FXCollections.observableArrayList();
    private final ObservableList<String> scopes = FXCollections.observableArrayList();
    private final ObservableList<String> types = FXCollections.observableArrayList();
    private final ObjectProperty<Timeline> timeline = new SimpleObjectProperty<>(this, "timeline");
    private final ObjectProperty<Verdict> verdict = new SimpleObjectProperty<>(this, "verdict", NO_VIOLATION);
    private final ObjectProperty<Judgement> judgement = new SimpleObjectProperty<>(this, "judgement", Judgement.EMPTY);
    private final ObjectProperty<MetricsSnapshot> metrics = new SimpleObjectProperty<>(this, "metrics", NO_METRICS);
    private final ObjectProperty<TuningMetrics> tuning = new SimpleObjectProperty<>(this, "tuning", TuningMetrics.NONE);
    private final ObjectProperty<RunPhase> phase = new SimpleObjectProperty<>(this, "phase", RunPhase.IDLE);
    private final ObjectProperty<RunInfo> info = new SimpleObjectProperty<>(this, "info", RunInfo.NONE);
    private final ObjectProperty<RunResult> result = new SimpleObjectProperty<>(this, "result");
    private final StringProperty narration = new SimpleStringProperty(this, "narration", "");
    private final StringProperty problem = new SimpleStringProperty(this, "problem", "");
    private final LongProperty nowMicros = new SimpleLongProperty(this, "nowMicros");
    private final LongProperty eventCount = new SimpleLongProperty(this, "eventCount");
    private final DoubleProperty eventsPerSecond = new SimpleDoubleProperty(this, "eventsPerSecond");
    private final LongProperty pinnedSeq = new SimpleLongProperty(this, "pinnedSeq");
    private final IntegerProperty focusedWitness = new SimpleIntegerProperty(this, "focusedWitness");
    private final LongProperty endMicros = new SimpleLongProperty(this, "endMicros");

    public RunModel(String name) {
        this.name = name;
    }

    /** Which of the console's runs this is ({@code main}, {@code fencing on}, {@code fencing off}). */
    public String name() {
        return name;
    }

    /** Every event received, in seq order. */
    public EventStore events() {
        return events;
    }

    /** The events as the table shows them (the same events, observable). */
    public ObservableList<Event> rows() {
        return rows;
    }

    /** Holder names in order of first appearance. */
    public ObservableList<String> holders() {
        return holders;
    }

    public ObservableList<String> scopes() {
        return scopes;
    }

    /** Event type names seen so far. */
    public ObservableList<String> types() {
        return types;
    }

    /** The timeline of the events so far (rebuilt off the FX thread), or null before the first. */
    public ObjectProperty<Timeline> timelineProperty() {
        return timeline;
    }

    public Timeline timeline() {
        return timeline.get();
    }

    public ObjectProperty<Verdict> verdictProperty() {
        return verdict;
    }

    public Verdict verdict() {
        return verdict.get();
    }

    /**
     * The checker's judgement of exactly the events the shown timeline was drawn from (write classes
     * included; {@code Judgement.upTo} the last of them). The presenter's badge, verdict words and
     * lanes all read this one; the verdict above, also of the shown events, may be a frame or two newer.
     */
    public ObjectProperty<Judgement> judgementProperty() {
        return judgement;
    }

    public Judgement judgement() {
        return judgement.get();
    }

    public ObjectProperty<MetricsSnapshot> metricsProperty() {
        return metrics;
    }

    /** The tuning figures of the events so far (docs/TUNING.md), refreshed a few times a second. */
    public ObjectProperty<TuningMetrics> tuningProperty() {
        return tuning;
    }

    public ObjectProperty<RunPhase> phaseProperty() {
        return phase;
    }

    public RunPhase phase() {
        return phase.get();
    }

    public ObjectProperty<RunInfo> infoProperty() {
        return info;
    }

    /** The finished run, once it has ended (null before, and for a replayed log). */
    public ObjectProperty<RunResult> resultProperty() {
        return result;
    }

    /** One line: what just happened, in plain language. */
    public StringProperty narrationProperty() {
        return narration;
    }

    /** Why the run could not go on, for people; empty when all is well. */
    public StringProperty problemProperty() {
        return problem;
    }

    /** Run time now: the playhead. */
    public LongProperty nowMicrosProperty() {
        return nowMicros;
    }

    /** The run's planned length in run microseconds (or the log's, for a replay). */
    public LongProperty endMicrosProperty() {
        return endMicros;
    }

    public LongProperty eventCountProperty() {
        return eventCount;
    }

    public DoubleProperty eventsPerSecondProperty() {
        return eventsPerSecond;
    }

    /** The event the user clicked (0: none). */
    public LongProperty pinnedSeqProperty() {
        return pinnedSeq;
    }

    /** The witness the user chose to look at, 1-based (0: none). */
    public IntegerProperty focusedWitnessProperty() {
        return focusedWitness;
    }

    /** Forgets everything shown: a new run is coming. */
    public void clear() {
        events.clear();
        rows.clear();
        holders.clear();
        scopes.clear();
        types.clear();
        timeline.set(null);
        verdict.set(NO_VIOLATION);
        judgement.set(Judgement.EMPTY);
        metrics.set(NO_METRICS);
        tuning.set(TuningMetrics.NONE);
        phase.set(RunPhase.IDLE);
        info.set(RunInfo.NONE);
        result.set(null);
        narration.set("");
        problem.set("");
        nowMicros.set(0);
        endMicros.set(0);
        eventCount.set(0);
        eventsPerSecond.set(0);
        pinnedSeq.set(0);
        focusedWitness.set(0);
    }
}
