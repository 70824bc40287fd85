package io.fencelab.app.console.model;

import io.fencelab.engine.probe.ChecklistItem;
import io.fencelab.engine.probe.ItemVerdict;
import java.nio.file.Path;
import javafx.beans.property.BooleanProperty;
import javafx.beans.property.ObjectProperty;
import javafx.beans.property.SimpleBooleanProperty;
import javafx.beans.property.SimpleObjectProperty;
import javafx.beans.property.SimpleStringProperty;
import javafx.beans.property.StringProperty;
import javafx.collections.FXCollections;
import javafx.collections.ObservableList;

/**
 * The probe's state in the console: the checklist, one row per fence and item, each pending until
 * its verdict arrives; where the probe is; what it says; and the folder its outputs went to. State
 * only: {@code ProbeController} changes it, {@code ProbeView} binds to it.
 */
public final class ProbeModel {

    /** Where a probe is. */
    public enum Phase {
        /** No probe yet. */
        IDLE,
        RUNNING,
        /** Stop pressed; the item under way is ending. */
        STOPPING,
        /** Every item has its verdict. */
        DONE,
        /** Stopped before the end: the verdicts found stand, the rest stay pending. */
        STOPPED,
        /** The probe could not start or go on (a fence's SQL, the database); the status says why. */
        FAILED;

        public boolean busy() {
            return this == RUNNING || this == STOPPING;
        }
    }

    /**
     * One row of the checklist: a fence's item and its verdict, null while it is pending.
     *
     * @param verdict null until the probe has tried the item
     */
    public record Row(String fence, ChecklistItem item, ItemVerdict verdict) {

        public boolean pending() {
            return verdict == null;
        }
    }

    private final ObservableList<Row> rows = FXCollections.observableArrayList();
    private final ObjectProperty<Phase> phase = new SimpleObjectProperty<>(this, "phase", Phase.IDLE);
    private final StringProperty status = new SimpleStringProperty(this, "status", "");
    private final ObjectProperty<Path> outDir = new SimpleObjectProperty<>(this, "outDir");
    private final BooleanProperty available = new SimpleBooleanProperty(this, "available");

    /** The checklist, fence by fence in the file's order, items in the checklist's order. */
    public ObservableList<Row> rows() {
        return rows;
    }

    public ObjectProperty<Phase> phaseProperty() {
        return phase;
    }

    /** One line for people: what is being tried, the outcome, or why the probe failed. */
    public StringProperty statusProperty() {
        return status;
    }

    /** Whether the scenario on show has SQL fences of its own, which is what a probe tries. */
    public BooleanProperty availableProperty() {
        return available;
    }

    /** The folder of {@code probe.json} (and {@code probe.html}), as {@code fencelab probe --out} takes it. */
    public ObjectProperty<Path> outDirProperty() {
        return outDir;
    }
}
