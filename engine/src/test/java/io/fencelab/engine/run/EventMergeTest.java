package io.fencelab.engine.run;

import static org.assertj.core.api.Assertions.assertThat;

import io.fencelab.engine.agent.AgentTables.AgentEventRow;
import io.fencelab.engine.event.Event;
import io.fencelab.engine.event.EventJson;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The merge of a process run's agents' events: by corrected time, held back, grants in the service's order. */
class EventMergeTest {

    private static AgentEventRow row(String agent, long localSeq, Event e) throws Exception {
        return new AgentEventRow(agent, localSeq, e.atMicros(), EventJson.writer().writeValueAsString(e));
    }

    private static List<Event> numbered(List<com.fasterxml.jackson.databind.node.ObjectNode> due, long first) {
        List<Event> out = new ArrayList<>();
        long seq = first;
        for (var json : due) {
            out.add(EventMerge.numbered(json, seq++));
        }
        return out;
    }

    @Test
    void releasesEventsInCorrectedTimeOrderOnlyOnceHeldLongEnoughAndNumbersThemForTheRun() throws Exception {
        EventMerge merge = new EventMerge(300_000);
        merge.add(List.of(
                row("B", 1, new Event.WriteAttempted(1, 1_200_000, "B", "s", 42, io.fencelab.engine.resource.TargetKind.ROW, "k", null)),
                row("A", 1, new Event.PauseEnded(1, 1_000_000, "A")),
                row("A", 2, new Event.PauseEnded(2, 1_400_000, "A"))));

        List<Event> first = numbered(merge.due(1_550_000), 7);
        assertThat(first).extracting(Event::atMicros).containsExactly(1_000_000L, 1_200_000L);
        assertThat(first).extracting(Event::seq).containsExactly(7L, 8L);
        assertThat(merge.waiting()).as("the event 150 ms old is held back").isEqualTo(1);
        assertThat(numbered(merge.due(Long.MAX_VALUE), 9)).extracting(Event::holder).containsExactly("A");
    }

    @Test
    void grantsOfOneScopeGoOutInTheOrderOfTheServicesCounterWhateverTheirCorrectedTimes() throws Exception {
        EventMerge merge = new EventMerge(0, java.util.Map.of("report", 7L, "other", 3L));
        // B's host clock is a little fast: its later grant (counter 8) carries an earlier corrected time.
        merge.add(List.of(
                row("B", 1, new Event.LeaseAcquired(1, 2_000_000, "B", "report", 8, 8, 5_000_000)),
                row("A", 1, new Event.LeaseAcquired(1, 2_000_100, "A", "report", 7, 7, 4_000_000)),
                row("C", 1, new Event.LeaseAcquired(1, 2_000_050, "C", "other", 3, 3, 4_000_000))));

        List<Event> out = numbered(merge.due(2_000_000), 1);
        assertThat(out).as("A's grant (counter 7) is pulled forward to go before B's")
                .extracting(Event::holder).containsExactly("A", "B");
        assertThat(out).extracting(e -> ((Event.LeaseAcquired) e).token()).containsExactly(7L, 8L);
        assertThat(numbered(merge.due(Long.MAX_VALUE), 3)).extracting(Event::holder).containsExactly("C");
    }

    @Test
    void aGrantThatSkipsACounterWaitsWithEverythingAfterItUntilTheMissingGrantArrives() throws Exception {
        EventMerge merge = new EventMerge(0, java.util.Map.of("report", 41L));
        // B's grant (42) arrives first: A was frozen between the database's answer (41) and its event.
        merge.add(List.of(
                row("B", 1, new Event.LeaseAcquired(1, 1_000_000, "B", "report", 42, 42, 5_000_000)),
                row("B", 2, new Event.WriteAttempted(2, 1_100_000, "B", "report", 42,
                        io.fencelab.engine.resource.TargetKind.ROW, "k", null))));

        assertThat(merge.due(2_000_000)).as("42 waits for 41, and B's write waits behind it").isEmpty();
        merge.add(List.of(row("A", 1, new Event.LeaseAcquired(1, 2_500_000, "A", "report", 41, 41, 4_000_000))));

        List<Event> out = numbered(merge.due(3_000_000), 1);
        assertThat(out).extracting(Event::holder).containsExactly("A", "B", "B");
        assertThat(out.get(0).tokenOrNull()).isEqualTo(41L);
        assertThat(out.get(1).tokenOrNull()).isEqualTo(42L);
    }

    /**
     * On two loaded cores a cold agent can take longer than {@link EventMerge#GAP_LIMIT} between the
     * database's answer and its event: the merge goes on waiting while that agent, silent since, runs,
     * and stops waiting once the only silent agent is killed.
     */
    @Test
    void aMissingGrantIsAwaitedPastTheGapLimitWhileAnAgentThatCouldHoldItIsSilentAndRunning() throws Exception {
        long[] nanos = {0};
        EventMerge merge = new EventMerge(0, java.util.Map.of("report", 41L), () -> nanos[0]);
        for (String agent : List.of("A", "B", "C")) {
            merge.joined(agent);
        }
        merge.add(List.of(
                row("A", 1, new Event.LeaseBusy(1, 500_000, "A", "report", "C", 40)),
                row("B", 1, new Event.LeaseAcquired(1, 1_000_000, "B", "report", 42, 42, 5_000_000)),
                row("C", 1, new Event.LeaseBusy(1, 2_000_000, "C", "report", "B", 42))));

        assertThat(numbered(merge.due(3_000_000), 1)).as("A's last word is older than 42: A may hold 41")
                .extracting(Event::holder).containsExactly("A");
        nanos[0] += EventMerge.GAP_LIMIT.toNanos() + 1;
        assertThat(merge.due(40_000_000)).as("A is still silent and running past the gap limit").isEmpty();

        merge.add(List.of(row("A", 2, new Event.LeaseAcquired(2, 39_000_000, "A", "report", 41, 41, 40_000_000))));
        List<Event> out = numbered(merge.due(41_000_000), 1);
        assertThat(out).extracting(Event::holder).containsExactly("A", "B", "C");
        assertThat(out).filteredOn(e -> e instanceof Event.LeaseAcquired).extracting(Event::tokenOrNull)
                .containsExactly(41L, 42L);
    }

    @Test
    void aMissingGrantWhoseOnlyPossibleHolderWasKilledStopsBeingAwaitedAtTheGapLimit() throws Exception {
        long[] nanos = {0};
        EventMerge merge = new EventMerge(0, java.util.Map.of("report", 41L), () -> nanos[0]);
        merge.joined("A");
        merge.joined("B");
        merge.add(List.of(
                row("A", 1, new Event.LeaseBusy(1, 500_000, "A", "report", "C", 40)),
                row("B", 1, new Event.LeaseAcquired(1, 1_000_000, "B", "report", 42, 42, 5_000_000))));
        assertThat(numbered(merge.due(2_000_000), 1)).extracting(Event::holder).containsExactly("A");

        merge.left("A");
        nanos[0] += EventMerge.GAP_LIMIT.toNanos() - 1;
        assertThat(merge.due(3_000_000)).as("within the gap limit it waits anyway").isEmpty();
        nanos[0] += 2;
        assertThat(numbered(merge.due(3_000_000), 2)).extracting(Event::holder).containsExactly("B");
    }

    @Test
    void evenASilentAgentIsAwaitedNoLongerThanTheStallLimit() throws Exception {
        long[] nanos = {0};
        EventMerge merge = new EventMerge(0, java.util.Map.of("report", 41L), () -> nanos[0]);
        merge.joined("A");
        merge.joined("B");
        merge.add(List.of(row("B", 1, new Event.LeaseAcquired(1, 1_000_000, "B", "report", 42, 42, 5_000_000))));
        assertThat(merge.due(2_000_000)).isEmpty();
        nanos[0] += EventMerge.STALL_LIMIT.toNanos() - 1;
        assertThat(merge.due(3_000_000)).as("A, never heard from, could hold 41").isEmpty();
        nanos[0] += 2;
        assertThat(numbered(merge.due(3_000_000), 1)).extracting(Event::tokenOrNull).containsExactly(42L);
    }

    /** etcd's revisions skip numbers: a gap is nothing missing, but grants that have arrived still go in token order. */
    @Test
    void withTokensThatSkipNumbersAGapIsNotAwaitedYetArrivedGrantsGoInTokenOrder() throws Exception {
        EventMerge merge = new EventMerge(0, java.util.Map.of(), () -> 0L, false);
        merge.joined("A");
        merge.joined("B");
        merge.add(List.of(
                row("B", 1, new Event.LeaseAcquired(1, 1_000_000, "B", "report", 57, 57, 5_000_000)),
                row("A", 1, new Event.LeaseAcquired(1, 1_500_000, "A", "report", 31, 31, 4_000_000))));

        List<Event> out = numbered(merge.due(1_200_000), 1);

        assertThat(out).as("A's earlier revision, already here though stamped later, goes first; 1..30 are not awaited")
                .extracting(Event::tokenOrNull).containsExactly(31L, 57L);
    }
}
