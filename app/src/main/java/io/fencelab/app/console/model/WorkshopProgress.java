package io.fencelab.app.console.model;

import javafx.beans.property.LongProperty;
import javafx.beans.property.SimpleLongProperty;
import javafx.collections.FXCollections;
import javafx.collections.ObservableList;
import javafx.collections.ObservableSet;

/**
 * How far a workshop has got: the seconds spent on each lesson so far (counted while it is the
 * lesson being taught) and the lessons the teacher has moved on from. State only; the workshop's
 * controller changes it, the lesson list and the teacher's window bind to it.
 */
public final class WorkshopProgress {

    private final ObservableList<Long> seconds = FXCollections.observableArrayList();
    private final ObservableSet<Integer> done = FXCollections.observableSet();
    private final LongProperty totalSeconds = new SimpleLongProperty(this, "totalSeconds");

    /** Seconds spent on each lesson, by lesson index. */
    public ObservableList<Long> seconds() {
        return seconds;
    }

    /** The lessons taught and moved on from. */
    public ObservableSet<Integer> done() {
        return done;
    }

    /** Seconds since the workshop was opened, lessons together. */
    public LongProperty totalSecondsProperty() {
        return totalSeconds;
    }

    /** Starts afresh for a workshop of {@code lessons} lessons. */
    public void reset(int lessons) {
        done.clear();
        seconds.setAll(java.util.Collections.nCopies(lessons, 0L));
        totalSeconds.set(0);
    }
}
