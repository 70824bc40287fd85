package io.fencelab.app.console.run;

import io.fencelab.app.console.feed.EventFeed;
import io.fencelab.app.console.feed.Notice;
import io.fencelab.app.console.model.RunModel;
import io.fencelab.app.console.model.RunPhase;
import io.fencelab.app.console.timeline.TimelineRebuilder;
import io.fencelab.app.console.ui.FrameLoop;
import io.fencelab.engine.check.Judgement;
import io.fencelab.engine.check.Verdict;
import io.fencelab.engine.event.Event;
import io.fencelab.engine.run.RunResult;
import io.fencelab.report.EventText;
import io.fencelab.report.Timeline;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * Once per frame, moves what a run's feed received into its {@link RunModel}: events into the
 * store and the table, new holders and scopes into the filters, the most telling event into the
 * narration line, notices into the phase; then polls the driver for run time, verdict, metrics and
 * (at the metrics' pace) the tuning figures its run worked out, and has the
 * timeline model brought up to date when events arrived. While a run plays, the counts, the
 * narration and the timeline model change a few times a second, not every frame.
 */
public final class RunUpdater implements FrameLoop.Task, EventFeed.Target {

    /**
     * Events moved into a model in one frame, at least: the rest wait for the next frame. When a
     * backlog builds up (a flood of events), a frame takes a fifth of it, so the console catches up
     * within a few frames at the cost of longer frames meanwhile.
     */
    static final long EVENTS_PER_FRAME = 20_000;
    private static final long METRICS_EVERY_NANOS = 250_000_000;
    /**
     * While a run plays, how often the counts (events, events per second) and the narration line
     * change: a few times a second is all a reader takes in, and each change costs a layout.
     */
    private static final long COUNTS_EVERY_NANOS = 250_000_000;
    private static final long RATE_WINDOW_NANOS = 1_000_000_000;

    private final RunModel model;
    private final EventFeed feed;
    private final RunDriver driver;
    private final TimelineRebuilder rebuilder = new TimelineRebuilder();
    private final int generation;
    private final Set<String> holders = new HashSet<>();
    private final Set<String> scopes = new HashSet<>();
    private final Set<String> types = new HashSet<>();
    private final ArrayDeque<long[]> rate = new ArrayDeque<>();
    private final List<Event> frameEvents = new ArrayList<>();
    /**
     * Holders, scopes and event types first seen this frame, added to the model's lists at once:
     * a live run's first second meets a thousand holders, and one change per holder had the
     * filters rebuild their item lists a thousand times (the console's longest stall of a run).
     */
    private final List<String> newHolders = new ArrayList<>();
    private final List<String> newScopes = new ArrayList<>();
    private final List<String> newTypes = new ArrayList<>();
    /** Fed each frame's new events only; asked for its figures at the metrics' pace, not every frame. */
    private Event telling;
    /** The most telling event since the narration line last changed. */
    private Event untold;
    private long lastCountsNanos;
    private static final long MIN_REBUILD_GAP_NANOS = 30_000_000;
    /** While a run plays, the timeline model is brought up to date at most this often. */
    private static final long STREAM_REBUILD_GAP_NANOS = 200_000_000;
    private boolean timelineStale;
    private long lastBuildNanos;
    private long lastBuiltAt;
    private int timelineEvents;
    private long lastMetricsNanos;
    private boolean finished;
    /** The witnesses the driver's checker had found when the shown verdict was last worked out. */
    private int checkerWitnesses = -1;
    /** Events arrived (or the checker found more) since the shown verdict was last worked out. */
    private boolean verdictStale;
    private long lastVerdictNanos;
    /** The finished run's judgement (with its final state), once there is one. */
    private Judgement finalJudgement;
    private static int generations;

    public RunUpdater(RunModel model, EventFeed feed, RunDriver driver) {
        this.model = model;
        this.feed = feed;
        this.driver = driver;
        this.generation = ++generations;
    }

    public RunModel model() {
        return model;
    }

    public RunDriver driver() {
        return driver;
    }

    @Override
    public void frame(long nowNanos) {
        frameEvents.clear();
        telling = null;
        long moved = feed.drain(this, Math.max(EVENTS_PER_FRAME, feed.backlog() / 5));
        addNames();
        if (!frameEvents.isEmpty()) {
            model.events().addAll(frameEvents);
            model.rows().addAll(frameEvents);
            timelineStale = true;
        }
        if (telling != null && (untold == null || Narration.weight(telling) >= Narration.weight(untold))) {
            untold = telling;
        }
        rate.addLast(new long[] {nowNanos, moved});
        while (rate.size() > 1 && nowNanos - rate.peekFirst()[0] > RATE_WINDOW_NANOS) {
            rate.removeFirst();
        }
        // Paused or stepping, every frame shows its events at once; a stream, a few times a second.
        if (model.phase() != RunPhase.PLAYING || nowNanos - lastCountsNanos >= COUNTS_EVERY_NANOS) {
            lastCountsNanos = nowNanos;
            showCounts(nowNanos);
        }

        if (!finished) {
            long now = driver.nowMicros();
            if (now > model.nowMicrosProperty().get()) {
                model.nowMicrosProperty().set(now);
            }
            // The verdict on the events shown, not on those the checker has seen beyond them (a driver
            // holds events back at a story stop, and a live checker runs ahead of the screen).
            // While a run streams, at the counts' pace (a judgement snapshot per frame is wasted work).
            int seen = driver.verdictSoFar().witnesses().size();
            verdictStale |= !frameEvents.isEmpty() || seen != checkerWitnesses;
            boolean due = model.phase() != RunPhase.PLAYING || nowNanos - lastVerdictNanos >= COUNTS_EVERY_NANOS;
            if (verdictStale && due && model.events().size() > 0) {
                verdictStale = false;
                lastVerdictNanos = nowNanos;
                checkerWitnesses = seen;
                Verdict v = driver.judgementSoFar().upTo(model.events().last()).verdict();
                if (v.witnesses().size() != model.verdict().witnesses().size() || v.kind() != model.verdict().kind()) {
                    if (v.witnesses().size() > model.verdict().witnesses().size()) {
                        model.narrationProperty().set(Narration.line(v.witnesses().getLast(), now));
                    }
                    model.verdictProperty().set(v);
                    verdictChanged();
                }
            }
            if (nowNanos - lastMetricsNanos > METRICS_EVERY_NANOS || moved > 0 && lastMetricsNanos == 0) {
                model.metricsProperty().set(driver.metricsSoFar());
                model.tuningProperty().set(driver.tuningSoFar());
                lastMetricsNanos = nowNanos;
            }
        }
        refreshTimeline(nowNanos);
    }

    /** Adds the names first seen since the last frame to the model's lists, one change per list. */
    private void addNames() {
        addAll(model.holders(), newHolders);
        addAll(model.scopes(), newScopes);
        addAll(model.types(), newTypes);
    }

    private static void addAll(List<String> to, List<String> names) {
        if (!names.isEmpty()) {
            to.addAll(names);
            names.clear();
        }
    }

    /** Shows the event count, the events per second and the narration of the most telling event since the last time. */
    private void showCounts(long nowNanos) {
        model.eventCountProperty().set(model.events().size());
        if (!rate.isEmpty()) {
            long inWindow = 0;
            for (long[] r : rate) {
                inWindow += r[1];
            }
            double span = Math.max(1, nowNanos - rate.peekFirst()[0]) / 1e9;
            model.eventsPerSecondProperty().set(rate.size() < 2 ? 0 : (inWindow - rate.peekFirst()[1]) / span);
        }
        if (untold != null) {
            // A write is told as the checker classified it; the checker sees each batch before this feed does.
            model.narrationProperty().set(Narration.line(untold,
                    untold instanceof Event.WriteAccepted ? driver.judgementSoFar() : null));
            untold = null;
        }
    }

    /**
     * Installs a finished timeline and asks for the next one. A build walks every event, so under a
     * flood of events the next starts only after a pause as long as the last build took: the
     * builder thread never takes more than about half a core from the run and the screen.
     */
    private void refreshTimeline(long nowNanos) {
        TimelineRebuilder.Built built = rebuilder.take();
        if (built != null && built.generation() == generation && built.events() >= timelineEvents) {
            timelineEvents = built.events();
            lastBuildNanos = built.buildNanos();
            lastBuiltAt = nowNanos;
            model.judgementProperty().set(built.judgement());
            model.timelineProperty().set(highlighted(built.timeline()));
        }
        long gap = model.phase() == RunPhase.PLAYING ? STREAM_REBUILD_GAP_NANOS : MIN_REBUILD_GAP_NANOS;
        boolean rested = nowNanos - lastBuiltAt >= Math.max(gap, lastBuildNanos);
        if (timelineStale && !rebuilder.busy() && (rested || finished)) {
            timelineStale = false;
            List<Event> shown = model.events().snapshot();
            // The timeline is drawn with the judgement of exactly the events it draws.
            rebuilder.request(generation, shown, finalJudgement != null ? finalJudgement
                    : shown.isEmpty() ? driver.judgementSoFar() : driver.judgementSoFar().upTo(shown.getLast()));
        }
    }

    private Timeline highlighted(Timeline timeline) {
        Verdict v = model.verdict();
        return v.witnesses().isEmpty() ? timeline : timeline.highlight(v);
    }

    /** Makes the timeline show the model's current verdict's witnesses (the verdict changed). */
    public void verdictChanged() {
        Timeline t = model.timeline();
        if (t != null) {
            model.timelineProperty().set(highlighted(t));
        }
    }

    @Override
    public void events(List<Event> batch) {
        frameEvents.addAll(batch);
        String lastHolder = null;
        String lastScope = null;
        Class<?> lastType = null;
        int tellingWeight = telling == null ? -1 : Narration.weight(telling);
        for (Event e : batch) {
            // Neighbouring events mostly share holder, scope or type: skip the set lookups then.
            String h = e.holder();
            if (h != null && h != lastHolder) {
                lastHolder = h;
                if (holders.add(h)) {
                    newHolders.add(h);
                }
            }
            String s = e.scope();
            if (s != null && s != lastScope) {
                lastScope = s;
                if (scopes.add(s)) {
                    newScopes.add(s);
                }
            }
            if (e.getClass() != lastType) {
                lastType = e.getClass();
                String type = EventText.type(e);
                if (types.add(type)) {
                    newTypes.add(type);
                }
            }
            int w = Narration.weight(e);
            if (w >= tellingWeight) {
                telling = e;
                tellingWeight = w;
            }
        }
    }

    @Override
    public void notice(Notice notice) {
        switch (notice) {
            case Notice.Prepared p -> {
                model.infoProperty().set(p.info());
                model.endMicrosProperty().set(p.info().durationMicros());
            }
            case Notice.Phase p -> {
                if (!model.phase().isOver()) {
                    model.phaseProperty().set(p.phase());
                }
            }
            case Notice.Finished f -> finish(f.result(), null);
            case Notice.Failed f -> finish(f.result(), f.message());
        }
    }

    private void finish(RunResult result, String problem) {
        // Events delivered before the end notice are already in this frame's batch.
        addNames();
        if (!frameEvents.isEmpty()) {
            model.events().addAll(frameEvents);
            model.rows().addAll(frameEvents);
            frameEvents.clear();
            timelineStale = true;
        }
        finished = true;
        if (telling != null && (untold == null || Narration.weight(telling) >= Narration.weight(untold))) {
            untold = telling;
        }
        showCounts(rate.isEmpty() ? lastCountsNanos : rate.peekLast()[0]);
        long now = Math.max(driver.nowMicros(), model.events().size() == 0 ? 0 : model.events().last().atMicros());
        model.nowMicrosProperty().set(now);
        if (result != null) {
            finalJudgement = result.judgement();
            model.resultProperty().set(result);
            model.verdictProperty().set(result.verdict());
            model.metricsProperty().set(result.metrics());
        } else {
            finalJudgement = driver.judgementSoFar();
            model.verdictProperty().set(finalJudgement.verdict());
            model.metricsProperty().set(driver.metricsSoFar());
        }
        // A finished run carries its figures (judged with its final state); a replay's come from its driver.
        model.tuningProperty().set(result != null ? result.tuning().totals() : driver.tuningSoFar());
        // The last timeline is drawn with the final judgement, whether or not events came with the end.
        timelineStale = true;
        verdictChanged();
        String failure = problem;
        if (failure == null && result != null && result.failed()) {
            failure = "The run could not go on: " + result.failureCause().orElseThrow() + ". Its verdict covers only "
                    + "what happened before; the events so far are kept, and you can still look at them and export them.";
        }
        if (failure != null) {
            model.problemProperty().set(failure);
            model.phaseProperty().set(RunPhase.FAILED);
        } else {
            model.phaseProperty().set(RunPhase.ENDED);
        }
    }

    /** Stops showing this run: its driver is told to let go, and nothing more reaches the model. */
    public void close() {
        driver.close();
    }
}
