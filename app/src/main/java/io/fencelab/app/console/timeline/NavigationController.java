package io.fencelab.app.console.timeline;

import io.fencelab.app.console.model.ConsoleModel;
import io.fencelab.app.console.model.RunModel;
import io.fencelab.app.console.model.TimeWindow;
import io.fencelab.engine.event.Event;
import java.util.List;

/**
 * Where the timelines look: zoom, pan, fit, following the playhead, pinning an event and moving to
 * a witness. Changes the model's {@link TimeWindow} and a run's pinned event and focused witness.
 */
public final class NavigationController {

    private final ConsoleModel model;

    public NavigationController(ConsoleModel model) {
        this.model = model;
    }

    /** Zoom by {@code factor} (below 1 zooms in) keeping run time {@code aroundMicros} in place. */
    public void zoom(double factor, double aroundMicros) {
        TimeWindow w = model.window();
        double limit = Math.max(w.extentProperty().get() * 1.5, 10_000_000);
        double span = Math.max(TimeWindow.MIN_SPAN, Math.min(limit, w.span() * factor));
        double start = aroundMicros - (aroundMicros - w.start()) * span / w.span();
        w.followProperty().set(false);
        w.show(start, span);
    }

    /** Move the window by {@code deltaMicros} of run time. */
    public void pan(double deltaMicros) {
        TimeWindow w = model.window();
        w.followProperty().set(false);
        double max = Math.max(0, w.extentProperty().get() - w.span() * 0.5);
        w.show(Math.max(-w.span() * 0.5, Math.min(max, w.start() + deltaMicros)), w.span());
    }

    /** Pin the event {@code seq} of {@code run} (0 unpins). */
    public void pin(RunModel run, long seq) {
        run.pinnedSeqProperty().set(seq);
    }

    /** Shows the whole run and follows the playhead again. */
    public void fit() {
        model.window().followProperty().set(true);
        model.window().showAll();
    }

    /**
     * Looks at witness {@code number} (1-based) of {@code run}: the timeline shades it and moves to
     * show all its events, and the offending event is pinned.
     */
    public void focusWitness(RunModel run, int number) {
        run.focusedWitnessProperty().set(number);
        if (number <= 0 || number > run.verdict().witnesses().size()) {
            return;
        }
        List<Long> seqs = run.verdict().witnesses().get(number - 1).eventSeqs();
        long lo = Long.MAX_VALUE;
        long hi = Long.MIN_VALUE;
        for (long seq : seqs) {
            Event e = run.events().bySeq(seq);
            if (e != null) {
                lo = Math.min(lo, e.atMicros());
                hi = Math.max(hi, e.atMicros());
            }
        }
        if (!seqs.isEmpty()) {
            run.pinnedSeqProperty().set(seqs.getLast());
        }
        if (lo <= hi) {
            double width = Math.max((hi - lo) * 1.3, 2_000_000);
            TimeWindow w = model.window();
            w.followProperty().set(false);
            w.show(lo - (width - (hi - lo)) / 2, width);
        }
    }

    /** Keeps the playhead in view while following; picks up a replayed log's length. Once per frame. */
    public void follow() {
        TimeWindow w = model.window();
        RunModel shown = model.focused();
        long end = shown.endMicrosProperty().get();
        if (end > 0 && end != (long) w.extentProperty().get()) {
            w.extentProperty().set(end);
            if (w.followProperty().get()) {
                w.showAll();
            }
        }
        if (!w.followProperty().get()) {
            return;
        }
        long now = model.compareProperty().get()
                ? Math.max(model.first().nowMicrosProperty().get(), model.second().nowMicrosProperty().get())
                : shown.nowMicrosProperty().get();
        // A window that already reaches the end of the run never needs to move.
        if (w.end() < w.extentProperty().get() && now > w.end() - w.span() * 0.03) {
            w.show(now - w.span() * 0.7, w.span());
        }
    }
}
