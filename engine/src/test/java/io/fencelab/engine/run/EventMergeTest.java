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
        EventMerge merge = new EventMerge(0);
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
}
