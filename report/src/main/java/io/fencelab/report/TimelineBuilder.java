package io.fencelab.report;

import io.fencelab.engine.check.Judgement;
import io.fencelab.engine.check.WriteClass;
import io.fencelab.engine.check.WriteJudgement;
import io.fencelab.engine.event.Event;
import io.fencelab.engine.event.SeqOrder;
import io.fencelab.engine.resource.ResourceId;
import io.fencelab.engine.resource.TargetKind;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Builds a {@link Timeline} from a log and its judgement, batch by batch as the checker is fed:
 * {@link #accept} reads each event once, {@link #timeline} gives the timeline of the events so far
 * without reading them again, and the builder goes on. {@link Timeline#from} is this builder fed the
 * whole log at once, so a live view and a saved report draw the same model. What each write outcome
 * means (a stale write accepted over newer work, or an ordinary one) is the judgement's word; the
 * builder only places it. A write the judgement given has not classified yet is drawn as accepted and
 * looked up again in each later judgement until it is (a write's class never changes once given:
 * the checker's ledger is append-only). Not thread-safe: one thread feeds it and takes timelines;
 * the timelines themselves are immutable.
 */
public final class TimelineBuilder {

    /** The one {@code appliesTo} value that puts a fault on the global lane. */
    private static final String DATABASE = "database";
    /** The {@code appliesTo} value that puts a fault on every holder's lane. */
    private static final String ALL = "all";
    /** Events that name no holder still get a lane, under this name (as in the metrics). */
    private static final String UNNAMED = "(unnamed)";

    private static final Comparator<Span> SPAN_ORDER = Comparator.comparing(Span::kind)
            .thenComparingLong(Span::startMicros).thenComparingLong(Span::endMicros);
    private static final Comparator<Mark.Write> MARK_ORDER = Comparator.comparingLong(Mark.Write::atMicros)
            .thenComparingLong(Mark.Write::seq);

    private record LeaseKey(String scope, long token) {}

    private record FaultKey(String fault, String appliesTo) {}

    /** A write as a contradiction names it: the resource, the holder, the token. */
    private record WriteKey(ResourceId resource, String holder, long token) {}

    /** A lease the service still counts as held; renewals only bump the count. */
    private static final class OpenLease {
        final Event.LeaseAcquired grant;
        int renewals;

        OpenLease(Event.LeaseAcquired grant) {
            this.grant = grant;
        }
    }

    private static final class HolderState {
        final String name;
        /** Changed since its lane was last made (then {@link #lane} is stale). */
        boolean touched = true;
        HolderLane lane;
        long laneRunMicros = -1;
        int laneAllFaults = -1;
        final Map<LeaseKey, OpenLease> openLeases = new LinkedHashMap<>();
        final Map<LeaseKey, Event.BeliefStarted> openBeliefs = new LinkedHashMap<>();
        final ArrayDeque<Event.PauseStarted> openPauses = new ArrayDeque<>();
        final List<Span.Held> held = new ArrayList<>();
        final List<Span.Believed> believed = new ArrayList<>();
        final List<Span> otherSpans = new ArrayList<>();
        final List<Mark.Write> marks = new ArrayList<>();
        /** Where it runs, in a process run; null until an agent of it started. */
        HolderLane.Agent agent;

        HolderState(String name) {
            this.name = name;
        }
    }

    private static final class ResourceState {
        final ResourceId id;
        boolean touched = true;
        ResourceLane lane;
        Long highest;
        final List<TokenStep> steps = new ArrayList<>();
        final List<Mark.Write> marks = new ArrayList<>();

        ResourceState(ResourceId id) {
            this.id = id;
        }
    }

    private final Map<String, HolderState> holders = new LinkedHashMap<>();
    private final Map<ResourceId, ResourceState> resources = new LinkedHashMap<>();
    /** Each write's latest outcome mark, for the contradiction that follows it ({@link Highlights#sameWrite}). */
    private final Map<WriteKey, Long> lastWrite = new HashMap<>();
    private final Map<Long, Long> sameWrite = new HashMap<>();
    private final Map<FaultKey, ArrayDeque<Event.FaultInjected>> openFaults = new HashMap<>();
    private final List<Span.Fault> globalFaults = new ArrayList<>();
    private final List<Span.Fault> faultsOnAll = new ArrayList<>();
    private final List<Timeline.Change> changes = new ArrayList<>();
    /** Accepted writes the judgement had not classified when they arrived: drawn as accepted meanwhile. */
    private final List<Unjudged> unjudged = new ArrayList<>();
    /** Faults on every holder, opened or closed, counted: a change makes every holder lane stale. */
    private int allFaultsVersion;
    private Judgement judgement = Judgement.EMPTY;
    private long runMicros;
    private long lastSeq;

    /** An accepted write's mark, where it sits in its two lanes, waiting for its class. */
    private record Unjudged(Event.WriteAccepted write, ResourceState resource, int resourceIndex, HolderState holder,
                            int holderIndex, Long before) {}

    /** An empty builder, to be fed a log's events batch by batch. */
    public TimelineBuilder() {
    }

    static Timeline build(List<? extends Event> events, Judgement judgement) {
        TimelineBuilder b = new TimelineBuilder();
        b.judgement = judgement;
        for (Event e : inSeqOrder(events)) {
            b.add(e);
        }
        return b.timeline(judgement);
    }

    /**
     * Reads the next events of the log with their judgement so far (of these events or fewer). The
     * batch may be in any order; it must come after every event already accepted.
     *
     * @throws IllegalArgumentException if an event's seq is not after the last one accepted
     */
    public TimelineBuilder accept(List<? extends Event> batch, Judgement judgementSoFar) {
        judgement = judgementSoFar;
        for (Event e : SeqOrder.after(lastSeq, batch, "the timeline")) {
            add(e);
        }
        return this;
    }

    /** The seq of the last event accepted, 0 before the first. */
    public long lastSeq() {
        return lastSeq;
    }

    private void add(Event e) {
        runMicros = Math.max(runMicros, e.atMicros());
        lastSeq = Math.max(lastSeq, e.seq());
        accept(e);
    }

    /** The log's order is seq order; a list handed over in another order is sorted, not trusted. */
    private static List<? extends Event> inSeqOrder(List<? extends Event> events) {
        for (int i = 1; i < events.size(); i++) {
            if (events.get(i).seq() < events.get(i - 1).seq()) {
                List<Event> sorted = new ArrayList<>(events);
                sorted.sort(Comparator.comparingLong(Event::seq));
                return sorted;
            }
        }
        return events;
    }

    private void accept(Event event) {
        switch (event) {
            case Event.RunStarted ignored -> { }
            case Event.RunEnded ignored -> { }
            case Event.LeaseAcquired e -> {
                OpenLease previous = holder(e.holder()).openLeases.put(new LeaseKey(e.scope(), e.token()), new OpenLease(e));
                if (previous != null) {
                    // Only a broken counter grants one token twice; the older grant ends where the new one starts.
                    closeLease(holder(e.holder()), previous, e.atMicros(), Span.HeldEnd.EXPIRED, 0);
                }
            }
            case Event.LeaseBusy e -> holder(e.holder());
            case Event.LeaseExhausted e -> holder(e.holder());
            case Event.LeaseRenewed e -> {
                OpenLease open = holder(e.holder()).openLeases.get(new LeaseKey(e.scope(), e.token()));
                if (open != null) {
                    open.renewals++;
                }
            }
            case Event.LeaseRenewalFailed e -> holder(e.holder());
            case Event.LeaseExpired e -> leaseEnded(e.holder(), e.scope(), e.token(), e, Span.HeldEnd.EXPIRED);
            case Event.LeaseReleased e -> leaseEnded(e.holder(), e.scope(), e.token(), e, Span.HeldEnd.RELEASED);
            case Event.PauseStarted e -> holder(e.holder()).openPauses.add(e);
            case Event.PauseEnded e -> {
                HolderState h = holder(e.holder());
                Event.PauseStarted start = h.openPauses.poll();
                if (start != null) {
                    h.otherSpans.add(new Span.Pause(start.atMicros(), e.atMicros(), start.cause(), start.seq(), e.seq()));
                }
            }
            case Event.FaultInjected e -> faultInjected(e);
            case Event.SettingChanged e -> changes.add(new Timeline.Change(e.atMicros(), e.seq(), e.setting(), e.from(),
                    e.to()));
            case Event.FaultHealed e -> faultHealed(e);
            case Event.AgentReport e -> agentReport(e);
            case Event.WriteAttempted e -> {
                holder(e.holder());
                resource(e.target(), e.scope(), e.key());
            }
            case Event.WriteAccepted e -> writeAccepted(e);
            case Event.WriteRejectedStale e -> {
                ResourceState r = resource(e.target(), e.scope(), e.key());
                mark(r, new Mark.Write(e.atMicros(), e.seq(), name(e.holder()), r.id, e.token(),
                        WriteClass.REJECTED_STALE, e.highest()));
            }
            case Event.WriteMissing e -> {
                ResourceState r = resource(e.target(), e.scope(), e.key());
                mark(r, new Mark.Write(e.atMicros(), e.seq(), name(e.holder()), r.id, e.token(),
                        WriteClass.MISSING, r.highest));
            }
            case Event.WriteOutOfOrder e -> {
                ResourceState r = resource(e.target(), e.scope(), e.key());
                mark(r, new Mark.Write(e.atMicros(), e.seq(), name(e.holder()), r.id, e.token(),
                        WriteClass.OUT_OF_ORDER, r.highest));
            }
            // The contradiction is the verdict's witness; the write's own mark stands for it on the lane.
            case Event.WriteContradicted e -> contradicted(e);
            case Event.BeliefStarted e -> {
                HolderState h = holder(e.holder());
                Event.BeliefStarted previous = h.openBeliefs.put(new LeaseKey(e.scope(), e.token()), e);
                if (previous != null) {
                    h.believed.add(new Span.Believed(previous.atMicros(), e.atMicros(), previous.scope(),
                            previous.token(), "believed again", previous.seq(), 0));
                }
            }
            case Event.BeliefEnded e -> {
                HolderState h = holder(e.holder());
                Event.BeliefStarted start = h.openBeliefs.remove(new LeaseKey(e.scope(), e.token()));
                if (start != null) {
                    h.believed.add(new Span.Believed(start.atMicros(), e.atMicros(), e.scope(), e.token(),
                            e.reason() == null ? "" : e.reason(), start.seq(), e.seq()));
                }
            }
            case Event.OperationFailed e -> {
                if (e.holder() != null) {
                    holder(e.holder());
                }
            }
        }
    }

    /**
     * A process run's news: a holder's agent started (its host and pid) or is gone; a lost host marks
     * each holder it ran from then on. Clock measurements place nothing on the lanes.
     */
    private void agentReport(Event.AgentReport e) {
        switch (e.kind()) {
            case STARTED -> {
                if (e.holder() != null) {
                    holder(e.holder()).agent = new HolderLane.Agent(e.host(), e.pid(), null, null);
                }
            }
            case EXITED -> {
                HolderState h = e.holder() == null ? null : holders.get(e.holder());
                if (h != null && h.agent != null && (e.pid() == null || e.pid().equals(h.agent.pid()))) {
                    HolderLane.Agent a = h.agent;
                    h.agent = new HolderLane.Agent(a.host(), a.pid(), e.atMicros(), a.lostAtMicros());
                    h.touched = true;
                }
            }
            case LOST -> {
                for (HolderState h : holders.values()) {
                    HolderLane.Agent a = h.agent;
                    if (a != null && a.host().equals(e.host()) && !a.lost()) {
                        h.agent = new HolderLane.Agent(a.host(), a.pid(), a.exitedAtMicros(), e.atMicros());
                        h.touched = true;
                    }
                }
            }
            case CLOCK -> { }
        }
    }

    /** Ties a contradiction to the mark of the write it speaks of, which is drawn for it. */
    private void contradicted(Event.WriteContradicted e) {
        Long write = lastWrite.get(new WriteKey(new ResourceId(e.target(), e.scope() == null ? "" : e.scope(),
                e.key() == null ? "" : e.key()), name(e.holder()), e.token()));
        if (write != null) {
            sameWrite.put(e.seq(), write);
        }
    }

    /** An accepted write: the resource's highest token may step up, and the write is marked as the checker judged it. */
    private void writeAccepted(Event.WriteAccepted e) {
        ResourceState r = resource(e.target(), e.scope(), e.key());
        Long before = r.highest;
        WriteJudgement judged = judgement.writes().of(e.seq());
        if (before == null || e.token() > before) {
            r.highest = e.token();
            r.steps.add(new TokenStep(e.atMicros(), e.seq(), e.token(), e.holder()));
        }
        HolderState h = holder(e.holder());
        mark(r, accepted(e, r.id, judged, before));
        if (judged == null) {
            // Not judged yet (the console draws while the checker catches up): drawn as accepted until it is.
            unjudged.add(new Unjudged(e, r, r.marks.size() - 1, h, h.marks.size() - 1, before));
        }
    }

    private static Mark.Write accepted(Event.WriteAccepted e, ResourceId id, WriteJudgement judged, Long before) {
        boolean overwrote = judged != null && judged.isStaleOverwrite();
        return new Mark.Write(e.atMicros(), e.seq(), name(e.holder()), id, e.token(),
                overwrote ? WriteClass.STALE_OVERWRITE : WriteClass.ACCEPTED, overwrote ? judged.against() : before);
    }

    /** Looks up the writes not judged before in {@code judgement}; those it classifies are marked for good. */
    private void judgeWaiting(Judgement judgement) {
        if (unjudged.isEmpty()) {
            return;
        }
        List<Unjudged> still = new ArrayList<>();
        for (Unjudged u : unjudged) {
            WriteJudgement judged = judgement.writes().of(u.write().seq());
            if (judged == null) {
                still.add(u);
            } else if (judged.isStaleOverwrite()) {
                Mark.Write m = accepted(u.write(), u.resource().id, judged, u.before());
                u.resource().marks.set(u.resourceIndex(), m);
                u.holder().marks.set(u.holderIndex(), m);
                u.resource().touched = true;
                u.holder().touched = true;
            }
        }
        unjudged.clear();
        unjudged.addAll(still);
    }

    private void leaseEnded(String holder, String scope, long token, Event end, Span.HeldEnd how) {
        HolderState h = holder(holder);
        OpenLease open = h.openLeases.remove(new LeaseKey(scope, token));
        if (open != null) {
            closeLease(h, open, end.atMicros(), how, end.seq());
        }
    }

    private static void closeLease(HolderState h, OpenLease open, long endMicros, Span.HeldEnd how, long endSeq) {
        Event.LeaseAcquired g = open.grant;
        h.held.add(new Span.Held(g.atMicros(), endMicros, g.scope(), g.token(), g.fencingToken(), open.renewals, how,
                g.seq(), endSeq));
    }

    private void faultInjected(Event.FaultInjected e) {
        if (e.durationMicros() == 0) {
            // Instantaneous (a connection kill): no FaultHealed will follow.
            placeFault(new Span.Fault(e.atMicros(), e.atMicros(), e.fault(), e.appliesTo(), e.detail(), e.seq(), 0));
        } else {
            openFaults.computeIfAbsent(new FaultKey(e.fault(), e.appliesTo()), k -> new ArrayDeque<>()).add(e);
            if (ALL.equals(e.appliesTo())) {
                allFaultsVersion++;
            }
            if (!DATABASE.equals(e.appliesTo()) && !ALL.equals(e.appliesTo())) {
                holder(e.appliesTo());
            }
        }
    }

    private void faultHealed(Event.FaultHealed e) {
        ArrayDeque<Event.FaultInjected> open = openFaults.get(new FaultKey(e.fault(), e.appliesTo()));
        Event.FaultInjected start = open == null ? null : open.poll();
        if (start != null) {
            placeFault(new Span.Fault(start.atMicros(), e.atMicros(), start.fault(), start.appliesTo(), start.detail(),
                    start.seq(), e.seq()));
        }
    }

    private void placeFault(Span.Fault f) {
        if (DATABASE.equals(f.appliesTo())) {
            globalFaults.add(f);
        } else if (ALL.equals(f.appliesTo())) {
            faultsOnAll.add(f);
            allFaultsVersion++;
        } else {
            holder(f.appliesTo()).otherSpans.add(f);
        }
    }

    private void mark(ResourceState r, Mark.Write w) {
        lastWrite.put(new WriteKey(r.id, w.holder(), w.token()), w.seq());
        r.marks.add(w);
        holder(w.holder()).marks.add(w);
    }

    private HolderState holder(String name) {
        HolderState h = holders.computeIfAbsent(name(name), HolderState::new);
        h.touched = true;
        return h;
    }

    private static String name(String holder) {
        return holder == null ? UNNAMED : holder;
    }

    private ResourceState resource(TargetKind target, String scope, String key) {
        ResourceId id = new ResourceId(target, scope == null ? "" : scope, key == null ? "" : key);
        ResourceState r = resources.computeIfAbsent(id, ResourceState::new);
        r.touched = true;
        return r;
    }

    /**
     * The timeline of the events accepted so far, with {@code judgement} (of these events or fewer;
     * never older than one given before) for the write classes and the witnesses. Spans still open
     * end at the latest event's time. Lanes nothing changed since the last call are reused, not
     * made again.
     */
    public Timeline timeline(Judgement judgement) {
        this.judgement = judgement;
        judgeWaiting(judgement);
        // Faults never healed last to the run's end; placed in seq order so the output is deterministic.
        List<Event.FaultInjected> open = new ArrayList<>();
        openFaults.values().forEach(open::addAll);
        open.sort(Comparator.comparingLong(Event::seq));
        List<Span.Fault> globals = new ArrayList<>(globalFaults);
        List<Span.Fault> onAll = new ArrayList<>(faultsOnAll);
        Map<String, List<Span.Fault>> onHolder = new HashMap<>();
        for (Event.FaultInjected f : open) {
            Span.Fault span = new Span.Fault(f.atMicros(), runMicros, f.fault(), f.appliesTo(), f.detail(), f.seq(), 0);
            if (DATABASE.equals(f.appliesTo())) {
                globals.add(span);
            } else if (ALL.equals(f.appliesTo())) {
                onAll.add(span);
            } else {
                onHolder.computeIfAbsent(name(f.appliesTo()), k -> new ArrayList<>()).add(span);
            }
        }
        List<HolderLane> holderLanes = new ArrayList<>(holders.size());
        for (HolderState h : holders.values()) {
            List<Span.Fault> mine = onHolder.getOrDefault(h.name, List.of());
            // A lane with something still open ends it at the latest event's time, which moves.
            boolean endsNow = !h.openLeases.isEmpty() || !h.openBeliefs.isEmpty() || !h.openPauses.isEmpty()
                    || !mine.isEmpty() || onAll.size() > faultsOnAll.size();
            if (h.lane == null || h.touched || h.laneAllFaults != allFaultsVersion
                    || endsNow && h.laneRunMicros != runMicros) {
                h.lane = lane(h, mine, onAll);
                h.touched = false;
                h.laneRunMicros = runMicros;
                h.laneAllFaults = allFaultsVersion;
            }
            holderLanes.add(h.lane);
        }
        List<ResourceLane> resourceLanes = new ArrayList<>(resources.size());
        for (ResourceState r : resources.values()) {
            if (r.lane == null || r.touched) {
                List<Mark.Write> marks = new ArrayList<>(r.marks);
                marks.sort(MARK_ORDER);
                r.lane = new ResourceLane(r.id, r.steps, List.<Mark>copyOf(marks));
                r.touched = false;
            }
            resourceLanes.add(r.lane);
        }
        globals.sort(SPAN_ORDER);
        return new Timeline(runMicros, holderLanes, resourceLanes, globals, changes,
                Highlights.of(judgement.verdict().witnesses(), sameWrite), 0);
    }

    /** A holder's lane as of now: its open leases, beliefs and pauses end at the latest event's time. */
    private HolderLane lane(HolderState h, List<Span.Fault> openFaultsOfHolder, List<Span.Fault> onAll) {
        List<Span.Held> held = new ArrayList<>(h.held);
        for (OpenLease open : h.openLeases.values()) {
            Event.LeaseAcquired g = open.grant;
            held.add(new Span.Held(g.atMicros(), runMicros, g.scope(), g.token(), g.fencingToken(), open.renewals,
                    Span.HeldEnd.RUN_END, g.seq(), 0));
        }
        List<Span.Believed> believed = new ArrayList<>(h.believed);
        for (Event.BeliefStarted b : h.openBeliefs.values()) {
            believed.add(new Span.Believed(b.atMicros(), runMicros, b.scope(), b.token(), null, b.seq(), 0));
        }
        List<Span> spans = new ArrayList<>(held);
        spans.addAll(believed);
        spans.addAll(gaps(held, believed));
        spans.addAll(h.otherSpans);
        spans.addAll(openFaultsOfHolder);
        for (Event.PauseStarted p : h.openPauses) {
            spans.add(new Span.Pause(p.atMicros(), runMicros, p.cause(), p.seq(), 0));
        }
        spans.addAll(onAll);
        spans.sort(SPAN_ORDER);
        List<Mark.Write> marks = new ArrayList<>(h.marks);
        marks.sort(MARK_ORDER);
        return new HolderLane(h.name, spans, List.<Mark>copyOf(marks), h.agent);
    }

    /**
     * Where a belief outlasts the service's lease with the same presented token (the latest grant
     * that started no later than the belief), or had no grant at all, the excess is a gap.
     */
    private static List<Span.Gap> gaps(List<Span.Held> heldSpans, List<Span.Believed> believed) {
        Map<LeaseKey, List<Span.Held>> leasesByPresentedToken = new HashMap<>();
        for (Span.Held held : heldSpans) {
            leasesByPresentedToken.computeIfAbsent(new LeaseKey(held.scope(), held.fencingToken()),
                    k -> new ArrayList<>()).add(held);
        }
        List<Span.Gap> gaps = new ArrayList<>();
        for (Span.Believed b : believed) {
            Span.Held lease = null;
            for (Span.Held held : leasesByPresentedToken.getOrDefault(new LeaseKey(b.scope(), b.token()), List.of())) {
                if (held.startMicros() <= b.startMicros() && (lease == null || held.startMicros() >= lease.startMicros())) {
                    lease = held;
                }
            }
            long heldEnd = lease == null ? b.startMicros() : lease.endMicros();
            if (b.endMicros() > heldEnd) {
                gaps.add(new Span.Gap(Math.max(b.startMicros(), heldEnd), b.endMicros(), b.scope(), b.token(),
                        lease == null ? 0 : lease.endSeq(), b.endSeq()));
            }
        }
        return gaps;
    }
}
