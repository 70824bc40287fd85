package io.fencelab.app.console.timeline;

import io.fencelab.app.console.model.RunModel;
import io.fencelab.app.console.model.RunPhase;
import io.fencelab.app.console.model.TimeWindow;
import io.fencelab.engine.event.Event;
import io.fencelab.report.Timeline;
import java.util.function.LongSupplier;
import javafx.beans.Observable;
import javafx.scene.canvas.Canvas;
import javafx.scene.canvas.GraphicsContext;
import javafx.scene.transform.Scale;

/**
 * What a run's timeline on screen is made of, for the desk's {@link TimelineView} and the
 * presenter's timeline alike: a canvas the {@link TimelineRenderer} paints, the {@link PlayheadLayer}
 * over it, and the {@link RedrawPacing} that decides, frame by frame, whether the canvas repaints or
 * only the playhead moves. The view that holds it lays the canvas and the layer out, and says what
 * to draw; this keeps the canvas's size, paints it and moves the playhead.
 */
public final class TimelineCanvas {

    private final Canvas canvas = new Canvas();
    private final PlayheadLayer playhead = new PlayheadLayer();
    private final RedrawPacing pacing = new RedrawPacing();
    private final TimelineRenderer renderer;
    private final RunModel run;
    private final TimeWindow window;
    /** Canvas pixels per layout unit: the screen's scale (1 on the desk). */
    private double pixels = 1;
    /** The timeline the canvas shows (the model's may be newer while a stream waits to be drawn). */
    private Timeline drawn;

    /**
     * A timeline of {@code run} in {@code window}, drawn {@code drawScale} times larger than the
     * desk's; {@code playheadStep} and {@code alsoChanging} as {@link RedrawPacing#follow} takes them.
     */
    public TimelineCanvas(RunModel run, TimeWindow window, double drawScale, LongSupplier playheadStep,
                   Observable... alsoChanging) {
        this.run = run;
        this.window = window;
        this.renderer = new TimelineRenderer(drawScale);
        pacing.follow(run, window, playheadStep, alsoChanging);
    }

    public Canvas canvas() {
        return canvas;
    }

    public PlayheadLayer playhead() {
        return playhead;
    }

    public TimelineRenderer renderer() {
        return renderer;
    }

    public Timeline drawn() {
        return drawn;
    }

    /** The plot's width on a timeline {@code width} wide (drawing units): what the gutter and margin leave. */
    public static double plotWidth(double width) {
        return Math.max(10, width - TimelineRenderer.GUTTER - TimelineRenderer.RIGHT_PAD);
    }

    /** Where the playhead is, in steps of {@code 1 / stepsPerUnit} of a plot {@code plotW} wide. */
    public long playheadStep(double plotW, double stepsPerUnit) {
        return (long) Math.floor((run.nowMicrosProperty().get() - window.start()) / window.span() * plotW
                * stepsPerUnit);
    }

    /**
     * Gives the canvas the pixels of {@code w} × {@code h} layout units at {@code pixels} per unit
     * (scaled up as a bitmap a canvas blurs, so it draws at the screen's own scale); a new size
     * repaints it.
     */
    public void resize(double w, double h, double pixels) {
        double cw = Math.ceil(w * pixels);
        double ch = Math.ceil(h * pixels);
        if (canvas.getWidth() == cw && canvas.getHeight() == ch && this.pixels == pixels) {
            return;
        }
        boolean rescaled = this.pixels != pixels;
        this.pixels = pixels;
        canvas.setWidth(cw);
        canvas.setHeight(ch);
        if (rescaled || pixels != 1) {
            canvas.getTransforms().setAll(new Scale(1 / pixels, 1 / pixels, 0, 0));
        }
        pacing.changed();
    }

    /** Something the canvas shows changed (a choice of the user, its scroll): repaint at the next frame. */
    public void changed() {
        pacing.changed();
    }

    /** What the frame at {@code frameNanos} does: {@code repaint} the canvas, {@code movePlayhead}, or nothing. */
    public void pace(long frameNanos, Runnable repaint, Runnable movePlayhead) {
        switch (pacing.next(frameNanos, run.phase() == RunPhase.PLAYING)) {
            case REPAINT -> repaint.run();
            case MOVE_PLAYHEAD -> movePlayhead.run();
            case NOTHING -> { }
        }
    }

    /**
     * What drawing {@code t} depends on besides the canvas's size: the window, the focused witness,
     * where open spans run on to; and the pinned event, the lanes' scroll and the hint of an empty
     * timeline as the view gives them.
     */
    public TimelineRenderer.Frame frame(Timeline t, long pinnedSeq, long pinnedAtMicros, double scrollY, String hint) {
        return new TimelineRenderer.Frame(t, window.start(), window.span(), pinnedSeq, pinnedAtMicros,
                run.focusedWitnessProperty().get(), this::timeOf, scrollY, hint, openUntil());
    }

    /** Where event {@code seq} happened in run time, or -1 when it is not in the run's events. */
    private long timeOf(long seq) {
        Event e = run.events().bySeq(seq);
        return e == null ? -1 : e.atMicros();
    }

    /** Where open spans run on to: the playhead while the run goes on, nowhere once it is over. */
    private long openUntil() {
        return run.phase().isOver() ? 0 : run.nowMicrosProperty().get();
    }

    /** Paints {@code f} (of timeline {@code f.timeline()}) on a canvas {@code w} × {@code h} layout units. */
    public void paint(TimelineRenderer.Frame f, double w, double h) {
        drawn = f.timeline();
        pacing.repainted(drawn != null && drawn.hasOpenSpans());
        GraphicsContext g = canvas.getGraphicsContext2D();
        if (pixels == 1) {
            renderer.draw(g, w, h, f);
            return;
        }
        g.save();
        g.scale(pixels, pixels);
        renderer.draw(g, w, h, f);
        g.restore();
    }

    /**
     * Moves the playhead and the tint of what is still to come over a timeline {@code w} × {@code h}
     * drawing units, its lanes scrolled by {@code scrollY}.
     */
    public void movePlayhead(double w, double h, double scrollY) {
        pacing.playheadMoved();
        playhead.show(drawn, w, h, window.start(), window.span(), run.nowMicrosProperty().get(),
                run.endMicrosProperty().get(), run.phase().isOver(), scrollY);
    }
}
