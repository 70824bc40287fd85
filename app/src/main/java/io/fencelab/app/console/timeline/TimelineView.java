package io.fencelab.app.console.timeline;

import io.fencelab.app.console.model.RunModel;
import io.fencelab.app.console.model.TimeWindow;
import io.fencelab.app.console.ui.FrameLoop;
import io.fencelab.app.console.ui.Intents;
import io.fencelab.engine.clock.RunTimes;
import io.fencelab.engine.event.Event;
import io.fencelab.report.EventText;
import io.fencelab.report.HolderLane;
import io.fencelab.report.Mark;
import io.fencelab.report.Palette;
import io.fencelab.report.Span;
import io.fencelab.report.Timeline;
import io.fencelab.report.TokenStep;
import javafx.geometry.Insets;
import javafx.scene.canvas.Canvas;
import javafx.scene.control.Label;
import javafx.scene.input.MouseButton;
import javafx.scene.input.MouseEvent;
import javafx.scene.input.ScrollEvent;
import javafx.scene.layout.Region;

/**
 * One run's timeline on a canvas (drawn by {@link TimelineRenderer} from the run's
 * {@link Timeline}). Ctrl + wheel zooms around the pointer; dragging or the wheel pans (the wheel
 * scrolls the lanes when they do not fit); hovering shows what is under the pointer; a click pins
 * an event. It redraws at most once per frame, and only when something it shows changed.
 *
 * <p>What moves every frame while a run plays, the playhead and the tint over what is still to
 * come, is a light layer of small nodes over the canvas ({@link PlayheadLayer}), so the canvas
 * repaints only when its events, the window, the size or a choice of the user change; while a run
 * plays, new events repaint it at most {@value #STREAM_REDRAWS_PER_SECOND} times a second.
 */
public final class TimelineView extends Region {

    private final RunModel run;
    private final TimeWindow window;
    /** Zoom, pan and pin go here; the window and the pinned event come back through the model. */
    private final Intents.Navigation intents;
    /** How often new events may repaint the timeline's canvas while a run plays. */
    static final int STREAM_REDRAWS_PER_SECOND = 4;
    public static final long STREAM_REDRAW_GAP_NANOS = 1_000_000_000L / STREAM_REDRAWS_PER_SECOND;

    /** The canvas, the playhead and the tint of what is still to come over it, and their pacing. */
    private final TimelineCanvas parts;
    private final Canvas canvas;
    private final TimelineRenderer renderer;
    private final Label tooltip = new Label();
    private double scrollY;
    private double pressX;
    private double pressY;
    private double pressScroll;
    private double lastDragX;
    private boolean dragging;
    private long lastDrawNanos;
    private long redraws;

    public TimelineView(RunModel run, TimeWindow window, Intents.Navigation intents, FrameLoop loop) {
        this.run = run;
        this.window = window;
        this.intents = intents;
        parts = new TimelineCanvas(run, window, 1, this::playheadPosition, run.pinnedSeqProperty());
        canvas = parts.canvas();
        renderer = parts.renderer();
        getStyleClass().add("timeline");
        tooltip.getStyleClass().add("timeline-tooltip");
        tooltip.setManaged(false);
        tooltip.setVisible(false);
        tooltip.setMouseTransparent(true);
        tooltip.setWrapText(true);
        tooltip.setMaxWidth(420);
        tooltip.setPadding(new Insets(6, 9, 6, 9));
        getChildren().addAll(canvas, parts.playhead(), tooltip);
        setMinSize(200, 120);
        loop.addDraw(this::redrawIfDirty);
        canvas.setOnMouseMoved(this::hover);
        canvas.setOnMouseExited(e -> tooltip.setVisible(false));
        canvas.setOnMousePressed(this::press);
        canvas.setOnMouseDragged(this::drag);
        canvas.setOnMouseReleased(this::release);
        canvas.setOnScroll(this::scroll);
    }

    public RunModel run() {
        return run;
    }

    public Canvas canvas() {
        return canvas;
    }

    /** The hover text showing now (empty when none), for tests. */
    public String tooltipText() {
        return tooltip.isVisible() ? tooltip.getText() : "";
    }

    /** How many times the canvas has been drawn (the playhead layer's moves not counted). */
    public long redraws() {
        return redraws;
    }

    /** How long the last redraw took, in nanoseconds. */
    public long lastDrawNanos() {
        return lastDrawNanos;
    }

    @Override
    protected void layoutChildren() {
        double w = Math.floor(getWidth());
        double h = Math.floor(getHeight());
        parts.resize(w, h, 1);
        canvas.relocate(0, 0);
        parts.playhead().resizeRelocate(0, 0, w, h);
    }

    @Override
    protected double computePrefWidth(double height) {
        return 900;
    }

    @Override
    protected double computePrefHeight(double width) {
        return 420;
    }

    /** Draws now what changed since the last drawing, as the frame at {@code frameNanos} allows. */
    public void redrawIfDirty(long frameNanos) {
        if (canvas.getWidth() < 10 || canvas.getHeight() < 10) {
            return;
        }
        parts.pace(frameNanos, this::redraw, this::redrawNow);
    }

    /** Where the playhead is, in half pixels of the plot (a finer step than the eye sees). */
    private long playheadPosition() {
        return parts.playheadStep(TimelineCanvas.plotWidth(canvas.getWidth()), 2);
    }

    /** Draws both canvases now. */
    public void redraw() {
        long t0 = System.nanoTime();
        Timeline t = run.timeline();
        TimelineRenderer.Layout layout = TimelineRenderer.layoutFor(t, canvas.getHeight());
        scrollY = Math.max(0, Math.min(scrollY, layout.contentH() - canvas.getHeight()));
        parts.paint(frame(t), canvas.getWidth(), canvas.getHeight());
        lastDrawNanos = System.nanoTime() - t0;
        redraws++;
        redrawNow();
    }

    /** What a drawing of {@code t} depends on besides the canvas size. */
    private TimelineRenderer.Frame frame(Timeline t) {
        long pinned = run.pinnedSeqProperty().get();
        Event pinnedEvent = pinned > 0 ? run.events().bySeq(pinned) : null;
        return parts.frame(t, pinned, pinnedEvent == null ? -1 : pinnedEvent.atMicros(), scrollY, hint());
    }

    /** Moves the playhead and the tint of what is still to come. */
    private void redrawNow() {
        parts.movePlayhead(canvas.getWidth(), canvas.getHeight(), scrollY);
    }

    /** Where the tint of what is still to come begins, in canvas pixels (NaN when there is none), for tests. */
    public double tintStart() {
        return parts.playhead().tintStart();
    }

    /** What an empty timeline says. */
    private String hint() {
        return switch (run.phase()) {
            case IDLE -> "Choose a scenario on the left.";
            case PREPARING -> "Preparing the run…";
            case PAUSED -> "Press Play (space) to start, or Step (right arrow) for one event at a time.";
            case PLAYING -> "Running: nothing has happened yet.";
            case ENDED -> "The run ended without events.";
            case FAILED -> "The run could not start: see the message on the right.";
        };
    }

    private double microsPerPixel() {
        return window.span() / TimelineCanvas.plotWidth(canvas.getWidth());
    }

    private double microsAt(double x) {
        return window.start() + (x - TimelineRenderer.GUTTER) * microsPerPixel();
    }

    private void hover(MouseEvent e) {
        HitIndex.Hit hit = renderer.hits().find(e.getX(), e.getY());
        String text = hit == null ? null : describe(hit);
        if (text == null) {
            if (e.getX() > TimelineRenderer.GUTTER && e.getY() < TimelineRenderer.AXIS) {
                text = RunTimes.precise(Math.round(microsAt(e.getX())));
            } else {
                tooltip.setVisible(false);
                return;
            }
        }
        tooltip.setText(text);
        tooltip.autosize();
        double x = Math.min(e.getX() + 16, getWidth() - tooltip.getWidth() - 4);
        double y = e.getY() + 18;
        if (y + tooltip.getHeight() > getHeight()) {
            y = e.getY() - tooltip.getHeight() - 8;
        }
        tooltip.relocate(Math.max(2, x), Math.max(2, y));
        tooltip.setVisible(true);
    }

    /** What is at canvas point (x, y), in words, or null. */
    public String describeAt(double x, double y) {
        HitIndex.Hit hit = renderer.hits().find(x, y);
        return hit == null ? null : describe(hit);
    }

    /** Where on the canvas event {@code seq} is drawn (its mark or the span it starts), or null. */
    public javafx.geometry.Point2D canvasPointOf(long seq) {
        double[] c = renderer.hits().centreOf(seq);
        return c == null ? null : new javafx.geometry.Point2D(c[0], c[1]);
    }

    /** The seq of the event at canvas point (x, y), or 0. */
    public long seqAt(double x, double y) {
        HitIndex.Hit hit = renderer.hits().find(x, y);
        return hit == null ? 0 : hit.seq();
    }

    private String describe(HitIndex.Hit hit) {
        Timeline t = parts.drawn();
        if (t == null) {
            return null;
        }
        Event event = hit.seq() > 0 ? run.events().bySeq(hit.seq()) : null;
        String eventLine = event == null ? "" : "\n" + EventText.type(event) + " #" + event.seq() + " at "
                + RunTimes.precise(event.atMicros()) + (event.holder() != null ? " · " + event.holder() : "")
                + (event.tokenOrNull() != null ? " · token " + event.tokenOrNull() : "");
        int holders = t.holders().size();
        switch (hit.kind()) {
            case WRITE -> {
                Mark m = hit.lane() < holders ? t.holders().get(hit.lane()).marks().get(hit.item())
                        : t.resources().get(hit.lane() - holders).marks().get(hit.item());
                if (m instanceof Mark.Write w) {
                    String before = w.highestBefore() == null ? "" : " (highest before: " + w.highestBefore() + ")";
                    String witness = t.highlights().contains(w.seq()) ? "\nPart of witness W"
                            + t.highlights().numbersOf(w.seq()).getFirst() + "." : "";
                    return "write " + Palette.describe(w.kind()) + ": " + w.holder() + " with token " + w.token() + " on "
                            + w.resource() + before + eventLine + witness
                            + (event == null ? "" : "\n" + EventText.sentence(event, run.judgement().writes().of(event.seq())));
                }
                return null;
            }
            case STEP -> {
                TokenStep s = t.resources().get(hit.lane() - holders).steps().get(hit.item());
                return "Highest accepted token rose to " + s.token() + " with " + s.holder() + "'s write at "
                        + RunTimes.precise(s.atMicros());
            }
            case CHANGE -> {
                Timeline.Change c = t.changes().get(hit.item());
                return "\u0394" + (hit.item() + 1) + " changed at " + RunTimes.precise(c.atMicros()) + ": " + c.text()
                        + "\nEverything after this line ran with the new setting.";
            }
            case FAULT -> {
                Span.Fault f = hit.lane() < 0 ? t.globalFaults().get(hit.item())
                        : (Span.Fault) t.holders().get(hit.lane()).spans().get(hit.item());
                return "Fault " + f.fault() + " on " + f.appliesTo() + " from " + RunTimes.precise(f.startMicros())
                        + " to " + RunTimes.precise(f.endMicros())
                        + (f.detail() == null ? "" : "\n" + f.detail());
            }
            default -> {
                HolderLane lane = t.holders().get(hit.lane());
                Span s = lane.spans().get(hit.item());
                String range = RunTimes.precise(s.startMicros()) + " to " + RunTimes.precise(s.endMicros());
                return switch (s) {
                    case Span.Held h -> "The lease service says " + lane.holder() + " holds " + h.scope()
                            + " with token " + h.token() + (h.fencingToken() != h.token()
                            ? " (presenting " + h.fencingToken() + ")" : "") + "\n" + range + ", "
                            + switch (h.end()) {
                                case EXPIRED -> "then it expired";
                                case RELEASED -> "then it was released";
                                case RUN_END -> "until the end";
                            } + (h.renewals() > 0 ? ", renewed " + h.renewals() + " times" : "");
                    case Span.Believed b -> lane.holder() + " believes it holds " + b.scope() + " with token "
                            + b.token() + "\n" + range + (b.endReason() == null ? "" : ", until: " + b.endReason());
                    case Span.Gap g -> "GAP: " + lane.holder() + " went on believing it held token " + g.token()
                            + " for " + RunTimes.brief(g.durationMicros())
                            + " after the lease service stopped counting it as held.\n" + range
                            + "\nOnly the resource's token check stands between this holder and the data.";
                    case Span.Pause p -> lane.holder() + " is paused (" + p.cause() + "): it cannot act or notice "
                            + "time passing.\n" + range;
                    case Span.Fault f -> "Fault " + f.fault() + "\n" + range;
                    case Span.Coalesced c -> c.count() + " " + c.kind().name().toLowerCase() + " spans\n" + range;
                };
            }
        }
    }

    private void press(MouseEvent e) {
        pressX = e.getX();
        pressY = e.getY();
        lastDragX = e.getX();
        pressScroll = scrollY;
        dragging = false;
    }

    private void drag(MouseEvent e) {
        if (!dragging && Math.hypot(e.getX() - pressX, e.getY() - pressY) > 4) {
            dragging = true;
            tooltip.setVisible(false);
        }
        if (dragging) {
            intents.pan().accept(-(e.getX() - lastDragX) * microsPerPixel());
            lastDragX = e.getX();
            scrollY = pressScroll - (e.getY() - pressY);
            parts.changed();
        }
    }

    private void release(MouseEvent e) {
        if (!dragging && e.getButton() == MouseButton.PRIMARY) {
            intents.pin().accept(run, seqAt(e.getX(), e.getY()));
        }
        dragging = false;
    }

    /** Wheel notches in a scroll event (platforms report 40 per notch; some robots report 1). */
    private static double notches(double delta) {
        return Math.abs(delta) < 10 ? Math.signum(delta) : delta / 40;
    }

    private void scroll(ScrollEvent e) {
        if (e.isControlDown()) {
            // Wheel up (away from the user) zooms in, 15 % a notch.
            double factor = Math.pow(0.85, notches(e.getDeltaY()));
            intents.zoom().zoom(factor, microsAt(e.getX()));
        } else {
            TimelineRenderer.Layout layout = TimelineRenderer.layoutFor(parts.drawn(), canvas.getHeight());
            boolean tall = layout.contentH() > canvas.getHeight() + 1;
            if (tall && !e.isShiftDown() && Math.abs(e.getDeltaY()) >= Math.abs(e.getDeltaX())) {
                scrollY -= notches(e.getDeltaY()) * 40;
                parts.changed();
            } else {
                double delta = Math.abs(e.getDeltaX()) > Math.abs(e.getDeltaY()) ? e.getDeltaX() : e.getDeltaY();
                intents.pan().accept(-notches(delta) * 40 * microsPerPixel());
            }
        }
        e.consume();
    }
}
