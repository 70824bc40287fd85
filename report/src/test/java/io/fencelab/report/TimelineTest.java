package io.fencelab.report;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.tuple;

import io.fencelab.engine.check.Invariant;
import io.fencelab.engine.check.WriteClass;
import io.fencelab.engine.db.Database;
import io.fencelab.engine.event.Event;
import io.fencelab.engine.fence.FencingMode;
import io.fencelab.engine.resource.ResourceId;
import io.fencelab.engine.resource.TargetKind;
import io.fencelab.testing.EmbeddedDatabase;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

@ExtendWith(EmbeddedDatabase.class)
class TimelineTest {

    private static final long S = 1_000_000L;
    private static final ResourceId REPORT_ROW = new ResourceId(TargetKind.ROW, "report", "report-1");

    @Test
    void theFencedStoryShowsAHeldLeaseALongerBeliefTheGapThePauseAndTheRejection(Database db, @TempDir Path dir)
            throws Exception {
        Timeline t = Judged.timeline(Stories.run(db, FencingMode.FENCED, dir).events());

        HolderLane a = t.holder("A").orElseThrow();
        assertThat(a.held()).as("A's lease as the lease service sees it").singleElement()
                .satisfies(h -> assertThat(List.of(h.startMicros(), h.endMicros(), h.token())).containsExactly(0L, 30 * S, 41L))
                .satisfies(h -> assertThat(h.end()).isEqualTo(Span.HeldEnd.EXPIRED));
        assertThat(a.believed()).as("what A believes").singleElement()
                .satisfies(b -> assertThat(List.of(b.startMicros(), b.endMicros(), b.token())).containsExactly(0L, 45 * S, 41L))
                .satisfies(b -> assertThat(b.endReason()).startsWith("stale"));
        assertThat(a.gaps()).as("believed but not held").extracting(Span::startMicros, Span::endMicros, Span.Gap::token)
                .containsExactly(tuple(30 * S, 45 * S, 41L));
        assertThat(a.pauses()).extracting(Span::startMicros, Span::endMicros).containsExactly(tuple(10 * S, 45 * S));
        assertThat(a.writes()).extracting(Mark.Write::atMicros, Mark.Write::token, Mark.Write::kind, Mark.Write::highestBefore)
                .containsExactly(tuple(45 * S, 41L, WriteClass.REJECTED_STALE, 42L));

        HolderLane b = t.holder("B").orElseThrow();
        assertThat(b.held()).singleElement().satisfies(h -> assertThat(h.startMicros()).isEqualTo(31 * S))
                .satisfies(h -> assertThat(h.token()).isEqualTo(42L));
        assertThat(b.gaps()).as("B released before it stopped believing: no gap").isEmpty();

        ResourceLane report = t.resource(REPORT_ROW).orElseThrow();
        assertThat(report.steps()).extracting(TokenStep::atMicros, TokenStep::token, TokenStep::holder)
                .containsExactly(tuple(35 * S, 42L, "B"));
        assertThat(t.runMicros()).isEqualTo(60 * S);
        assertThat(t.holders()).extracting(HolderLane::holder).as("lanes in order of appearance").containsExactly("A", "B");
        assertThat(t.highlights().isEmpty()).as("a safe run has nothing to highlight").isTrue();
    }

    @Test
    void theUnfencedStoryMarksAsOverwriteAndHighlightsTheWitness(Database db, @TempDir Path dir) throws Exception {
        Stories.Ran ran = Stories.run(db, FencingMode.UNFENCED, dir);
        Timeline t = Timeline.from(ran.events(), ran.result().judgement());

        Mark.Write stale = t.holder("A").orElseThrow().writes().getFirst();
        assertThat(stale.kind()).as("A's write at 45 s landed over token 42").isEqualTo(WriteClass.STALE_OVERWRITE);
        assertThat(List.of(stale.atMicros(), stale.token(), stale.highestBefore())).containsExactly(45 * S, 41L, 42L);
        assertThat(t.resource(REPORT_ROW).orElseThrow().steps()).as("the highest accepted token stays 42")
                .extracting(TokenStep::token).containsExactly(42L);

        var witness = ran.result().verdict().witnesses().stream()
                .filter(w -> w.invariant() == Invariant.STALE_OVERWRITE).findFirst().orElseThrow();
        assertThat(witness.eventSeqs()).allSatisfy(seq -> assertThat(t.highlights().contains(seq)).isTrue());
        HolderLane a = t.holder("A").orElseThrow();
        assertThat(t.highlights().contains(stale)).as("the stale write is outlined").isTrue();
        assertThat(t.highlights().contains(a.held().getFirst())).as("A's grant and expiry are outlined").isTrue();
        assertThat(t.highlights().contains(a.pauses().getFirst())).as("A's pause is outlined").isTrue();
        assertThat(t.highlights().numbersOf(stale.seq())).contains(1);
    }

    @Test
    void offlineTheLogJudgedAgainHighlightsTheSameWitness(Database db, @TempDir Path dir) throws Exception {
        Timeline t = Judged.timeline(Stories.run(db, FencingMode.UNFENCED, dir).events());

        assertThat(t.highlights().witnesses()).extracting(w -> w.invariant()).containsExactly(Invariant.STALE_OVERWRITE);
        assertThat(t.highlights().contains(t.holder("A").orElseThrow().writes().getFirst())).isTrue();
    }

    @Test
    void spansStillOpenAtTheEndCloseAtTheRunsEnd() {
        List<Event> events = List.of(
                new Event.RunStarted(1, 0, "s", "simulated", "FENCED", "MONOTONIC", 1, "db"),
                new Event.LeaseAcquired(2, 0, "A", "x", 7, 7, 10 * S),
                new Event.BeliefStarted(3, 0, "A", "x", 7),
                new Event.PauseStarted(4, 2 * S, "A", 100 * S, "gc"),
                new Event.FaultInjected(5, 3 * S, "REQUEST_DELAY", "A", 50 * S, "amount PT1S"),
                new Event.RunEnded(6, 20 * S, Event.RunEnded.Reason.STOPPED));

        HolderLane a = Judged.timeline(events).holder("A").orElseThrow();

        assertThat(a.held()).singleElement().satisfies(h -> assertThat(h.endMicros()).isEqualTo(20 * S))
                .satisfies(h -> assertThat(h.openAtEnd()).isTrue());
        assertThat(a.believed()).singleElement().satisfies(b -> assertThat(b.endMicros()).isEqualTo(20 * S))
                .satisfies(b -> assertThat(b.openAtEnd()).isTrue());
        assertThat(a.gaps()).as("held as long as believed").isEmpty();
        assertThat(a.pauses()).extracting(Span::endMicros).containsExactly(20 * S);
        assertThat(a.faults()).extracting(Span::endMicros).containsExactly(20 * S);
    }

    @Test
    void renewalsExtendOneHeldSpanAndDatabaseFaultsAreGlobalWhileFaultsOnAllReachEveryLane() {
        List<Event> events = List.of(
                new Event.LeaseAcquired(1, 0, "A", "x", 1, 1, 2 * S),
                new Event.LeaseAcquired(2, 0, "B", "y", 1, 1, 2 * S),
                new Event.LeaseRenewed(3, S, "A", "x", 1, 3 * S),
                new Event.LeaseRenewed(4, 2 * S, "A", "x", 1, 4 * S),
                new Event.FaultInjected(5, 2 * S, "DATABASE_RESTART", "database", 3 * S, null),
                new Event.FaultInjected(6, 2 * S, "REPLY_DELAY", "all", S, "amount PT0.2S"),
                new Event.FaultInjected(7, 2 * S, "CONNECTION_KILL", "B", 0, null),
                new Event.FaultHealed(8, 3 * S, "REPLY_DELAY", "all"),
                new Event.LeaseReleased(9, 4 * S, "A", "x", 1),
                new Event.FaultHealed(10, 5 * S, "DATABASE_RESTART", "database"),
                new Event.RunEnded(11, 6 * S, Event.RunEnded.Reason.COMPLETED));

        Timeline t = Judged.timeline(events);

        assertThat(t.holder("A").orElseThrow().held()).singleElement()
                .satisfies(h -> assertThat(List.of(h.startMicros(), h.endMicros(), (long) h.renewals())).containsExactly(0L, 4 * S, 2L))
                .satisfies(h -> assertThat(h.end()).isEqualTo(Span.HeldEnd.RELEASED));
        assertThat(t.globalFaults()).extracting(Span.Fault::fault, Span::startMicros, Span::endMicros)
                .containsExactly(tuple("DATABASE_RESTART", 2 * S, 5 * S));
        assertThat(t.holder("A").orElseThrow().faults()).extracting(Span.Fault::fault).containsExactly("REPLY_DELAY");
        assertThat(t.holder("B").orElseThrow().faults()).extracting(Span.Fault::fault, Span::durationMicros)
                .containsExactlyInAnyOrder(tuple("REPLY_DELAY", S), tuple("CONNECTION_KILL", 0L));
    }

    @Test
    void aBeliefWithoutAnyGrantIsAllGap() {
        List<Event> events = List.of(
                new Event.BeliefStarted(1, S, "C", "x", 9),
                new Event.BeliefEnded(2, 4 * S, "C", "x", 9, Event.BeliefEnded.Cause.RENEWAL_REFUSED, "renewal failed"),
                new Event.RunEnded(3, 5 * S, Event.RunEnded.Reason.COMPLETED));

        assertThat(Judged.timeline(events).holder("C").orElseThrow().gaps())
                .extracting(Span::startMicros, Span::endMicros, Span::seqs).containsExactly(tuple(S, 4 * S, List.of(2L)));
    }

    @Test
    void crowdedLanesAreBucketedPerKindAndHighlightedWritesStayIndividual() {
        Timeline t = Judged.timeline(SyntheticLog.events(20_000, 4, 7));
        HolderLane busiest = t.holders().stream().max((x, y) -> Integer.compare(x.marks().size(), y.marks().size())).orElseThrow();
        Mark.Write kept = busiest.writes().get(busiest.writes().size() / 2);
        Timeline highlighted = t.highlight(List.of(new io.fencelab.engine.check.Witness(Invariant.STALE_OVERWRITE, "w",
                List.of(kept.seq()))));

        Timeline small = highlighted.aggregated(50);

        HolderLane lane = small.holder(busiest.holder()).orElseThrow();
        assertThat(small.isAggregated()).isTrue();
        assertThat(lane.marks()).as("buckets plus the highlighted write").hasSizeLessThanOrEqualTo(51);
        assertThat(lane.writes()).as("the highlighted write is still one mark").containsExactly(kept);
        long before = busiest.writes().stream().filter(w -> w.kind() == WriteClass.ACCEPTED).count();
        long after = lane.marks().stream().mapToLong(m -> m instanceof Mark.Bucket b ? b.accepted()
                : ((Mark.Write) m).kind() == WriteClass.ACCEPTED ? 1 : 0).sum();
        assertThat(after).as("every accepted write still counted").isEqualTo(before);
        assertThat(lane.spans().stream().filter(s -> s.kind() == Span.Kind.HELD).count()).isLessThanOrEqualTo(51);
        assertThat(small.resources()).allSatisfy(r -> assertThat(r.steps().size()).isLessThanOrEqualTo(50));
    }

    @Test
    void aCrowdedLaneKeepsEveryMarkAndSpanOneByOneInsideAZoomWindow() {
        Timeline t = Judged.timeline(SyntheticLog.events(20_000, 4, 7));
        HolderLane busiest = t.holders().stream().max((x, y) -> Integer.compare(x.marks().size(), y.marks().size())).orElseThrow();
        long middle = busiest.writes().get(busiest.writes().size() / 2).atMicros();
        TimelineZoom.Window window = new TimelineZoom.Window(middle - S / 2, middle + S / 2);

        Timeline small = t.aggregated(50, List.of(window));

        HolderLane lane = small.holder(busiest.holder()).orElseThrow();
        List<Mark.Write> inside = busiest.writes().stream()
                .filter(w -> w.atMicros() >= window.fromMicros() && w.atMicros() <= window.toMicros()).toList();
        assertThat(inside).as("the window holds writes to keep").isNotEmpty();
        assertThat(lane.writes()).as("every write inside the window, one by one").containsAll(inside);
        List<Span> spansInside = busiest.spans().stream()
                .filter(sp -> sp.startMicros() <= window.toMicros() && sp.endMicros() >= window.fromMicros()).toList();
        assertThat(lane.spans()).as("every span meeting the window, as it was").containsAll(spansInside);
        assertThat(lane.spans()).as("no group drawn over the window")
                .noneMatch(sp -> sp instanceof Span.Coalesced c && c.startMicros() <= window.toMicros()
                        && c.endMicros() >= window.fromMicros() && spansInside.stream().anyMatch(in -> in.kind() == c.kind()));
        long before = busiest.writes().size();
        long after = lane.marks().stream().mapToLong(m -> m instanceof Mark.Bucket b ? b.total() : 1).sum();
        assertThat(after).as("every write still counted once").isEqualTo(before);
    }

    @Test
    void aTimelineWithinTheLimitIsNotChangedByAggregation() {
        Timeline t = Judged.timeline(SyntheticLog.events(200, 2, 3));

        assertThat(t.aggregated(10_000)).isSameAs(t);
    }
}
