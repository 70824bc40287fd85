package io.fencelab.app.console.model;

import javafx.beans.property.BooleanProperty;
import javafx.beans.property.DoubleProperty;
import javafx.beans.property.SimpleBooleanProperty;
import javafx.beans.property.SimpleDoubleProperty;

/**
 * The stretch of run time a timeline shows: where it starts and how wide it is, in run
 * microseconds. Two timelines sharing one window (compare view) stay aligned. While
 * {@code follow} is on, the window keeps the playhead in view.
 */
public final class TimeWindow {

    /** Narrowest window: one millisecond across the whole canvas. */
    public static final double MIN_SPAN = 1_000;

    private final DoubleProperty start = new SimpleDoubleProperty(this, "start", 0);
    private final DoubleProperty span = new SimpleDoubleProperty(this, "span", 60_000_000);
    private final BooleanProperty follow = new SimpleBooleanProperty(this, "follow", true);
    /** The run time the whole window can show at most (the run's length). */
    private final DoubleProperty extent = new SimpleDoubleProperty(this, "extent", 60_000_000);

    public DoubleProperty startProperty() {
        return start;
    }

    public DoubleProperty spanProperty() {
        return span;
    }

    public BooleanProperty followProperty() {
        return follow;
    }

    public DoubleProperty extentProperty() {
        return extent;
    }

    public double start() {
        return start.get();
    }

    public double span() {
        return span.get();
    }

    public double end() {
        return start.get() + span.get();
    }

    /** Shows {@code [from, from + width)}. */
    public void show(double from, double width) {
        double w = Math.max(MIN_SPAN, width);
        span.set(w);
        start.set(Math.max(-w * 0.02, from));
    }

    /** Shows the whole run. */
    public void showAll() {
        double e = Math.max(extent.get(), MIN_SPAN);
        show(-e * 0.01, e * 1.02);
    }
}
