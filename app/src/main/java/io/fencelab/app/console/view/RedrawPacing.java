package io.fencelab.app.console.view;

/**
 * When a timeline's canvas repaints and when only its playhead layer moves, for the desk's
 * {@link TimelineView} and the presenter's timeline alike. The canvas repaints at the next frame
 * for anything the user changed, and for new events too unless a run streams, when it repaints at
 * most every {@link TimelineView#STREAM_REDRAW_GAP_NANOS}. A moving playhead only moves the layer,
 * except while the drawing has spans open to the playhead (a frozen holder's lanes grow with it
 * while nothing is logged): then the canvas repaints at the streaming pace.
 */
final class RedrawPacing {

    /** What a frame does. */
    enum Step { NOTHING, REPAINT, MOVE_PLAYHEAD }

    private boolean changed = true;
    private boolean eventsChanged;
    private boolean nowMoved = true;
    private boolean openSpans;
    private long lastRepaint = Long.MIN_VALUE / 2;

    /** Something the canvas shows changed (the window, a choice of the user, its size). */
    void changed() {
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
    Step next(long frameNanos, boolean streaming) {
        boolean rested = frameNanos - lastRepaint >= TimelineView.STREAM_REDRAW_GAP_NANOS;
        if (changed || eventsChanged && (!streaming || rested) || nowMoved && openSpans && rested) {
            lastRepaint = frameNanos;
            return Step.REPAINT;
        }
        return nowMoved ? Step.MOVE_PLAYHEAD : Step.NOTHING;
    }

    /** The canvas was repainted with a timeline that has {@code openSpans} or not. */
    void repainted(boolean openSpans) {
        changed = false;
        eventsChanged = false;
        this.openSpans = openSpans;
    }

    /** The playhead layer was moved. */
    void playheadMoved() {
        nowMoved = false;
    }
}
