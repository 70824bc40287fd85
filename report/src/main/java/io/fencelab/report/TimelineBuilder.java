package io.fencelab.report;

import io.fencelab.engine.check.Judgement;
import io.fencelab.engine.check.ResourceId;
import io.fencelab.engine.check.WriteClass;
import io.fencelab.engine.check.WriteJudgement;
import io.fencelab.engine.event.Event;
import io.fencelab.engine.fence.TargetKind;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Builds a {@link Timeline} from a log and its judgement in one pass. One use per log. What each
 * write outcome means (a stale write accepted over newer work, or an ordinary one) is the
 * judgement's word; the builder only places it.
 */
final class TimelineBuilder {

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
        final Map<LeaseKey, OpenLease> openLeases = new LinkedHashMap<>();
        final Map<LeaseKey, Event.BeliefStarted> openBeliefs = new LinkedHashMap<>();
        final ArrayDeque<Event.PauseStarted> openPauses = new ArrayDeque<>();
        final List<Span.Held> held = new ArrayList<>();
        final List<Span.Believed> believed = new ArrayList<>();
        final List<Span> otherSpans = new ArrayList<>();
        final List<Mark.Write> marks = new ArrayList<>();

        HolderState(String name) {
            this.name = name;
        }
    }

    private static final class ResourceState {
        final ResourceId id;
        Long highest;
        final List<TokenStep> steps = new ArrayList<>();
        final List<Mark.Write> marks = new ArrayList<>();

        ResourceState(ResourceId id) {
            this.id = id;
        }
    }

    private final Map<String, HolderState> holders = new LinkedHashMap<>();
    private final Map<ResourceId, ResourceState> resources = new LinkedHashMap<>();
    private final Map<FaultKey, ArrayDeque<Event.FaultInjected>> openFaults = new HashMap<>();
    private final List<Span.Fault> globalFaults = new ArrayList<>();
    private final List<Span.Fault> faultsOnAll = new ArrayList<>();
    private final Judgement judgement;
    private final List<Timeline.Change> changes = new ArrayList<>();
    private long runMicros;

    private TimelineBuilder(Judgement judgement) {
        this.judgement = judgement;
    }

    static Timeline build(List<? extends Event> events, Judgement judgement) {
        TimelineBuilder b = new TimelineBuilder(judgement);
        for (Event e : inSeqOrder(events)) {
            b.runMicros = Math.max(b.runMicros, e.atMicros());
            b.accept(e);
        }
        return b.finish();
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
            case Event.WriteAttempted e -> {
                holder(e.holder());
                resource(e.target(), e.scope(), e.key());
            }
            case Event.WriteAccepted e -> {
                ResourceState r = resource(e.target(), e.scope(), e.key());
                Long before = r.highest;
                WriteJudgement judged = judgement.writes().of(e.seq());
                // Not judged yet (the console draws while the checker catches up): drawn as accepted until it is.
                boolean overwrote = judged != null && judged.isStaleOverwrite();
                if (before == null || e.token() > before) {
                    r.highest = e.token();
                    r.steps.add(new TokenStep(e.atMicros(), e.seq(), e.token(), e.holder()));
                }
                mark(r, new Mark.Write(e.atMicros(), e.seq(), name(e.holder()), r.id, e.token(),
                        overwrote ? WriteClass.STALE_OVERWRITE : WriteClass.ACCEPTED,
                        overwrote ? judged.against() : before));
            }
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
        } else {
            holder(f.appliesTo()).otherSpans.add(f);
        }
    }

    private void mark(ResourceState r, Mark.Write w) {
        r.marks.add(w);
        holder(w.holder()).marks.add(w);
    }

    private HolderState holder(String name) {
        return holders.computeIfAbsent(name(name), HolderState::new);
    }

    private static String name(String holder) {
        return holder == null ? UNNAMED : holder;
    }

    private ResourceState resource(TargetKind target, String scope, String key) {
        ResourceId id = new ResourceId(target, scope == null ? "" : scope, key == null ? "" : key);
        return resources.computeIfAbsent(id, ResourceState::new);
    }

    private Timeline finish() {
        closeOpenFaults();
        List<HolderLane> holderLanes = new ArrayList<>(holders.size());
        for (HolderState h : holders.values()) {
            closeOpenSpans(h);
            List<Span> spans = new ArrayList<>(h.held);
            spans.addAll(h.believed);
            spans.addAll(gaps(h));
            spans.addAll(h.otherSpans);
            spans.addAll(faultsOnAll);
            spans.sort(SPAN_ORDER);
            h.marks.sort(MARK_ORDER);
            holderLanes.add(new HolderLane(h.name, spans, List.<Mark>copyOf(h.marks)));
        }
        List<ResourceLane> resourceLanes = new ArrayList<>(resources.size());
        for (ResourceState r : resources.values()) {
            r.marks.sort(MARK_ORDER);
            resourceLanes.add(new ResourceLane(r.id, r.steps, List.<Mark>copyOf(r.marks)));
        }
        globalFaults.sort(SPAN_ORDER);
        return new Timeline(runMicros, holderLanes, resourceLanes, globalFaults, changes, Highlights.of(judgement.verdict().witnesses()), 0);
    }

    /** Faults never healed last to the run's end; placed in seq order so the output is deterministic. */
    private void closeOpenFaults() {
        List<Event.FaultInjected> open = new ArrayList<>();
        openFaults.values().forEach(open::addAll);
        open.sort(Comparator.comparingLong(Event::seq));
        for (Event.FaultInjected f : open) {
            placeFault(new Span.Fault(f.atMicros(), runMicros, f.fault(), f.appliesTo(), f.detail(), f.seq(), 0));
        }
        openFaults.clear();
    }

    private void closeOpenSpans(HolderState h) {
        for (OpenLease open : h.openLeases.values()) {
            closeLease(h, open, runMicros, Span.HeldEnd.RUN_END, 0);
        }
        h.openLeases.clear();
        for (Event.BeliefStarted b : h.openBeliefs.values()) {
            h.believed.add(new Span.Believed(b.atMicros(), runMicros, b.scope(), b.token(), null, b.seq(), 0));
        }
        h.openBeliefs.clear();
        for (Event.PauseStarted p : h.openPauses) {
            h.otherSpans.add(new Span.Pause(p.atMicros(), runMicros, p.cause(), p.seq(), 0));
        }
        h.openPauses.clear();
    }

    /**
     * Where a belief outlasts the service's lease with the same presented token (the latest grant
     * that started no later than the belief), or had no grant at all, the excess is a gap.
     */
    private static List<Span.Gap> gaps(HolderState h) {
        Map<LeaseKey, List<Span.Held>> leasesByPresentedToken = new HashMap<>();
        for (Span.Held held : h.held) {
            leasesByPresentedToken.computeIfAbsent(new LeaseKey(held.scope(), held.fencingToken()),
                    k -> new ArrayList<>()).add(held);
        }
        List<Span.Gap> gaps = new ArrayList<>();
        for (Span.Believed b : h.believed) {
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
