package io.fencelab.app.console.run;

import io.fencelab.app.console.feed.EventFeed;
import io.fencelab.app.console.feed.Notice;
import io.fencelab.app.console.model.Capabilities;
import io.fencelab.app.console.model.RunInfo;
import io.fencelab.app.console.model.RunPhase;
import io.fencelab.app.console.ui.Problems;
import io.fencelab.engine.check.Judgement;
import io.fencelab.engine.check.Verdict;
import io.fencelab.engine.clock.Ticker;
import io.fencelab.engine.event.Event;
import io.fencelab.engine.event.EventLogReader;
import io.fencelab.engine.metrics.MetricsSnapshot;
import io.fencelab.engine.metrics.TuningMetrics;
import io.fencelab.engine.run.RunJudgement;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * Replays a saved event log ({@code events.jsonl}) as if it were running: the same controls as a
 * simulated run (play, pause, step one event, speed), no database. The verdict and metrics come
 * from the same checker and collector the engine uses, fed as the events are played, so they match
 * what the run itself said (except final-state checks, which need the database).
 */
public final class ReplayDriver extends PlayerDriver {

    private static final org.slf4j.Logger LOG = org.slf4j.LoggerFactory.getLogger(ReplayDriver.class);

    /** The most events handed over at once (as fast as possible, a command is noticed between batches). */
    private static final int BATCH = 4096;

    private final Path file;

    private final RunJudgement judgement = new RunJudgement();

    public ReplayDriver(Path file, EventFeed feed) {
        this(file, feed, Ticker.system());
    }

    /** Paced by {@code ticker}'s time (a fake one in tests). */
    ReplayDriver(Path file, EventFeed feed, Ticker ticker) {
        super(feed, "fencelab-replay", ticker);
        this.file = file;
    }

    @Override
    public Capabilities capabilities() {
        return new Capabilities(true, false, false);
    }

    @Override
    public Verdict verdictSoFar() {
        return judgement.verdict();
    }

    @Override
    public Judgement judgementSoFar() {
        return judgement.judgement();
    }

    @Override
    public MetricsSnapshot metricsSoFar() {
        return judgement.metrics();
    }

    @Override
    public TuningMetrics tuningSoFar() {
        return judgement.tuningSoFar();
    }

    @Override
    protected void drive() {
        EventLogReader.Contents contents;
        try {
            contents = EventLogReader.readLog(file);
        } catch (IOException | RuntimeException e) {
            LOG.info("could not read the saved run {}: {}", file, e.getMessage());
            feed.notice(new Notice.Failed(Problems.unreadable("The saved run", file, e)
                    + " Open an events.jsonl that a run or a report wrote.", null));
            return;
        }
        List<Event> events = contents.events();
        if (events.isEmpty() || !(events.getFirst() instanceof Event.RunStarted start)) {
            feed.notice(new Notice.Failed(file + " is not a Fencelab event log: it does not begin with RunStarted",
                    null));
            return;
        }
        long end = events.getLast().atMicros();
        feed.notice(new Notice.Prepared(RunInfo.replayOf(start, end)));
        feed.notice(new Notice.Phase(RunPhase.PAUSED));
        if (!play(events)) {
            return; // closed before the end
        }
        // What the judgement says about the log's end is the one definition (check and judgement.json read it too).
        String cut = judgementSoFar().incomplete().map(c -> "the log " + file.getFileName() + " is incomplete: it "
                + c.describe()).orElse(null);
        String torn = contents.tornTail().map(t -> "its last line (" + t.line() + ") was cut off mid-write and dropped")
                .orElse(null);
        if (cut == null && torn == null) {
            feed.notice(new Notice.Phase(((Event.RunEnded) events.getLast()).ending().failed() ? RunPhase.FAILED
                    : RunPhase.ENDED));
        } else {
            String what = cut == null ? "the log " + file.getFileName() + " ends with RunEnded, but " + torn
                    : torn == null ? cut : cut + "; " + torn;
            feed.notice(new Notice.Phase(RunPhase.FAILED));
            feed.notice(new Notice.Failed(what, null));
        }
    }

    /** Plays the log to its end (true) or until the driver is closed (false). */
    private boolean play(List<Event> events) {
        int next = 0;
        while (next < events.size()) {
            Command c = nextCommand();
            if (c == null) {
                return false;
            }
            next = c.step() ? hand(events, next, next + 1) : playOn(events, next, c.speed());
            StoryGate.Stop stop = gate.takeStop();
            if (stop != null) {
                stopAt(stop);
            }
        }
        return true;
    }

    /**
     * Plays at {@code speed} (paced by the {@link #pacer}, or as fast as possible) until a command
     * arrives or the log ends: hands over the events that are due, at most {@link #BATCH} at a time,
     * and moves the playhead on smoothly, never past the next event not yet handed over.
     */
    private int playOn(List<Event> events, int from, double speed) {
        int seen = commands;
        int next = from;
        pacer.play(nowMicros, speed);
        try {
            while (next < events.size() && commands == seen) {
                int until = next;
                while (until < events.size() && until - next < BATCH && pacer.isDue(events.get(until).atMicros())) {
                    until++;
                }
                next = hand(events, next, until);
                if (gate.hasStop()) {
                    break; // the driver pauses there
                }
                if (next < events.size()) {
                    long due = events.get(next).atMicros();
                    nowMicros = Math.max(nowMicros, Math.min(pacer.runMicros(), due));
                    awaitDue(due, seen);
                }
            }
        } finally {
            pacer.pause();
        }
        return next;
    }

    /**
     * Hands events {@code [from, to)} to the checker, the metrics and the console, or those before the
     * next story stop; returns the index of the first event not handed over.
     */
    private int hand(List<Event> events, int from, int to) {
        if (to <= from) {
            return from;
        }
        to = from + gate.cut(events.subList(from, to));
        if (to == from) {
            return from;
        }
        List<Event> batch = List.copyOf(new ArrayList<>(events.subList(from, to)));
        judgement.accept(batch);
        nowMicros = Math.max(nowMicros, batch.getLast().atMicros());
        feed.accept(batch);
        return to;
    }
}
