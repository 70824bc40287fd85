package io.fencelab.app.console.timeline;

import io.fencelab.app.console.model.RunModel;
import io.fencelab.app.console.model.TimeWindow;
import java.util.function.LongSupplier;
import javafx.beans.Observable;

/**
 * When a timeline's canvas repaints and when only its playhead layer moves, for the desk's
 * {@link TimelineView} and the presenter's timeline alike. The canvas repaints at the next frame
 * for anything the user changed, and for new events too unless a run streams, when it repaints at
 * most every {@link TimelineView#STREAM_REDRAW_GAP_NANOS}. A moving playhead only moves the layer,
 * except while the drawing has spans open to the playhead (a frozen holder's lanes grow with it
 * while nothing is logged): then the canvas repaints at the streaming pace.
 */
public final class RedrawPacing {

    /** What a frame does. */
    public enum Step { NOTHING, REPAINT, MOVE_PLAYHEAD }

    private boolean changed = true;
    private boolean eventsChanged;
    private boolean nowMoved = true;
    private boolean openSpans;
    private long lastRepaint = Long.MIN_VALUE / 2;
    /** Where the playhead is, in the view's own steps (null until {@link #follow}). */
    private LongSupplier playheadStep;
    /** {@link #playheadStep} when the playhead layer last moved. */
    private long drawnStep = Long.MIN_VALUE;

    /**
     * Listens to what a timeline of {@code run} in {@code window} shows: its phase, focused witness,
     * the window and {@code alsoChanging} repaint it; a new timeline model is new events; the run's
     * end, and the playhead once {@code playheadStep} (a step the eye sees) differs from where the
     * layer was last drawn, move the playhead.
     */
    public void follow(RunModel run, TimeWindow window, LongSupplier playheadStep, Observable... alsoChanging) {
        this.playheadStep = playheadStep;
        for (Observable o : new Observable[] {run.phaseProperty(), run.focusedWitnessProperty(),
                window.startProperty(), window.spanProperty()}) {
            o.addListener(x -> changed());
        }
        for (Observable o : alsoChanging) {
            o.addListener(x -> changed());
        }
        run.timelineProperty().addListener(x -> eventsChanged());
        run.endMicrosProperty().addListener(x -> nowMoved());
        // The playhead moves every frame while a run plays, mostly by a fraction of a pixel (a live
        // run at 1x crosses a minute in a thousand pixels): move the layer only when it visibly moves.
        run.nowMicrosProperty().addListener(x -> {
            if (playheadStep.getAsLong() != drawnStep) {
                nowMoved();
            }
        });
    }

    /** Something the canvas shows changed (the window, a choice of the user, its size). */
    public void changed() {
        changed = true;
    }

    /** New events: a new timeline model. */
    void eventsChanged() {
        eventsChanged = true;
    }

    /** The playhead or the run's end moved visibly. */
    void nowMoved() {
        nowMoved = true;
    }

    /** What the frame at {@code frameNanos} does, while a run {@code streaming} or not. */
    public Step next(long frameNanos, boolean streaming) {
        boolean rested = frameNanos - lastRepaint >= TimelineView.STREAM_REDRAW_GAP_NANOS;
        if (changed || eventsChanged && (!streaming || rested) || nowMoved && openSpans && rested) {
            lastRepaint = frameNanos;
            return Step.REPAINT;
        }
        return nowMoved ? Step.MOVE_PLAYHEAD : Step.NOTHING;
    }

    /** The canvas was repainted with a timeline that has {@code openSpans} or not. */
    public void repainted(boolean openSpans) {
        changed = false;
        eventsChanged = false;
        this.openSpans = openSpans;
    }

    /** The playhead layer was moved. */
    public void playheadMoved() {
        nowMoved = false;
        if (playheadStep != null) {
            drawnStep = playheadStep.getAsLong();
        }
    }
}
