package io.fencelab.app.console.workshop;

import io.fencelab.app.console.model.ConsoleModel;
import io.fencelab.app.console.model.LessonModel;
import io.fencelab.app.console.model.RunModel;
import io.fencelab.app.console.model.RunPhase;
import io.fencelab.app.console.model.TimeWindow;
import io.fencelab.app.console.timeline.TimelineCanvas;
import io.fencelab.app.console.timeline.TimelineRenderer;
import io.fencelab.app.console.ui.FrameLoop;
import io.fencelab.engine.check.Witness;
import io.fencelab.engine.event.Event;
import io.fencelab.report.HolderLane;
import io.fencelab.report.Span;
import io.fencelab.report.Timeline;
import java.util.Comparator;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.function.DoubleSupplier;
import javafx.scene.canvas.Canvas;
import javafx.scene.control.Label;
import javafx.scene.layout.Region;
import javafx.scene.transform.Scale;

/**
 * The presenter's view of the main run's timeline, drawn {@link TimelineRenderer#PRESENTATION}
 * times larger. Paced as the desk's timeline is (both draw through a {@link TimelineCanvas}): a
 * moving playhead moves its layer, and the canvas repaints only when what it shows changed.
 */
final class PresenterTimeline extends Region {

    private final TimelineCanvas parts;
    /** The presenter's own window: from 0 to just past the latest event shown (see {@link #fittedSpan}). */
    private final TimeWindow fit = new TimeWindow();
    private final ConsoleModel model;
    /** Says how many holder lanes are shown when not all fit ("8 of 40 holders"), else empty. */
    private final Label lanes;
    /** The timeline's size in layout units. */
    private double w;
    private double h;
    /** How many canvas pixels each layout unit has (the screen's scale). */
    private final DoubleSupplier screenScale;

    PresenterTimeline(ConsoleModel model, FrameLoop loop, Label lanes, DoubleSupplier screenScale) {
        this.model = model;
        this.screenScale = screenScale;
        this.lanes = lanes;
        RunModel run = model.main();
        parts = new TimelineCanvas(run, fit, TimelineRenderer.PRESENTATION, this::playheadStep);
        // The layer is scaled as the drawing is, and so covers exactly the timeline.
        double scale = TimelineRenderer.PRESENTATION;
        parts.playhead().getTransforms().setAll(new Scale(scale, scale, 0, 0));
        getStyleClass().add("presenter-timeline");
        getChildren().addAll(parts.canvas(), parts.playhead());
        setMinSize(200, 160);
        loop.addDraw(now -> {
            if (!isVisible() || getScene() == null || w < 10 || h < 10) {
                return;
            }
            double span = fittedSpan(run);
            if (span != fit.span()) {
                fit.show(0, span);
            }
            parts.pace(now, this::redraw, this::movePlayhead);
        });
    }

    Canvas canvas() {
        return parts.canvas();
    }

    TimelineRenderer renderer() {
        return parts.renderer();
    }

    /** The timeline's height in the presenter's layout (before the screen's scale). */
    double height() {
        return h;
    }

    private long playheadStep() {
        return parts.playheadStep(TimelineCanvas.plotWidth(w / TimelineRenderer.PRESENTATION), 1);
    }

    @Override
    protected void layoutChildren() {
        w = Math.floor(getWidth());
        h = Math.floor(getHeight());
        parts.resize(w, h, screenScale.getAsDouble());
        // In drawing units: the layer is scaled as the drawing is, and so covers exactly the timeline.
        parts.playhead().resizeRelocate(0, 0, w / TimelineRenderer.PRESENTATION, h / TimelineRenderer.PRESENTATION);
    }

    void redraw() {
        if (w < 10 || h < 10) {
            return;
        }
        RunModel run = model.main();
        Timeline timeline = lanesThatFit(run.timeline(), h / TimelineRenderer.PRESENTATION);
        parts.paint(parts.frame(timeline, 0, -1, 0, run.phase() == RunPhase.IDLE ? "Choose a lesson." : "Press Play."),
                w, h);
        movePlayhead();
    }

    /**
     * The timeline with as many holder lanes as fit the canvas ({@code height} drawing units) at a
     * readable height, every resource lane kept. A crowded run (forty holders racing) keeps the
     * lanes a room needs at this step: the holder of the event the current story step tells, then
     * the holders in the witnesses (the newest first), then those active most recently; they stay
     * in their usual order. The header says how many are shown.
     */
    Timeline lanesThatFit(Timeline t, double height) {
        if (t == null) {
            lanes.setText("");
            return null;
        }
        int all = t.holders().size();
        double room = height - TimelineRenderer.AXIS - 6 - (t.resources().isEmpty() ? 0
                : TimelineRenderer.SEPARATOR + t.resources().size() * TimelineRenderer.MIN_RESOURCE_H);
        int fit = Math.max(1, (int) Math.floor(room / PresenterView.READABLE_HOLDER_H));
        if (all <= fit || TimelineRenderer.layoutFor(t, height).contentH() <= height + 1) {
            lanes.setText("");
            return t;
        }
        LinkedHashSet<String> wanted = wantedHolders(t, fit);
        List<HolderLane> kept = t.holders().stream().filter(l -> wanted.contains(l.holder())).toList();
        lanes.setText(kept.size() + " of " + all + " holders");
        return new Timeline(t.runMicros(), kept, t.resources(), t.globalFaults(), t.changes(), t.highlights(),
                t.bucketMicros());
    }

    /** Up to {@code fit} holders, those the room needs first (see {@link #lanesThatFit}). */
    private LinkedHashSet<String> wantedHolders(Timeline t, int fit) {
        RunModel run = model.main();
        LinkedHashSet<String> wanted = new LinkedHashSet<>();
        LessonModel lesson = model.lesson();
        int step = lesson.currentStep();
        if (step >= 0 && step < lesson.reached().size()) {
            Event told = run.events().bySeq(lesson.reached().get(step).throughSeq());
            if (told != null && told.holder() != null) {
                wanted.add(told.holder());
            }
        }
        List<Witness> witnesses = t.highlights().witnesses();
        for (int i = witnesses.size() - 1; i >= 0 && wanted.size() < fit; i--) {
            for (long seq : witnesses.get(i).eventSeqs()) {
                Event e = run.events().bySeq(seq);
                if (e != null && e.holder() != null && wanted.size() < fit) {
                    wanted.add(e.holder());
                }
            }
        }
        t.holders().stream().sorted(Comparator.comparingLong(PresenterTimeline::lastActive).reversed())
                .limit(fit).forEach(l -> {
                    if (wanted.size() < fit) {
                        wanted.add(l.holder());
                    }
                });
        return wanted;
    }

    /** When a holder's lane last shows anything: its latest span's end or mark. */
    private static long lastActive(HolderLane lane) {
        long last = 0;
        for (Span s : lane.spans()) {
            last = Math.max(last, s.endMicros());
        }
        if (!lane.marks().isEmpty()) {
            last = Math.max(last, lane.marks().getLast().startMicros());
        }
        return last;
    }

    /**
     * How much run time the room's axis shows: from 0 to a round figure (1, 2 or 5 times a power
     * of ten seconds) just past the later of the playhead and the last event shown, and never past
     * the run's end. So a story told in its first second (the random tokens) fills the
     * width, and the axis changes only when the story outgrows it. At least one second.
     */
    static double fittedSpan(RunModel run) {
        long latest = run.nowMicrosProperty().get();
        if (run.events().size() > 0) {
            latest = Math.max(latest, run.events().last().atMicros());
        }
        double wanted = Math.max(1_000_000, latest * 1.08);
        double decade = 1_000_000;
        while (decade * 10 < wanted) {
            decade *= 10;
        }
        double round = wanted <= decade ? decade : wanted <= 2 * decade ? 2 * decade
                : wanted <= 5 * decade ? 5 * decade : 10 * decade;
        long end = run.endMicrosProperty().get();
        return end > 0 ? Math.min(round, Math.max(end, latest) * 1.02) : round;
    }

    /** The playhead and the tint, on the same layer as the desk's timeline, scaled as the drawing is. */
    private void movePlayhead() {
        double scale = TimelineRenderer.PRESENTATION;
        parts.movePlayhead(w / scale, h / scale, 0);
    }
}
