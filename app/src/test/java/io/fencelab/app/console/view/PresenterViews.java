package io.fencelab.app.console.view;

/** What the console's tests read of the presenter view that its package keeps to itself. */
public final class PresenterViews {

    private PresenterViews() {
    }

    /** The smallest text the presenter's timeline draws on its canvas, in pixels. */
    public static double smallestCanvasTextPx(PresenterView view) {
        return view.renderer().smallestTextPx();
    }
}
