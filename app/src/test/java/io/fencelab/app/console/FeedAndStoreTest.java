package io.fencelab.app.console;

import static org.assertj.core.api.Assertions.assertThat;

import io.fencelab.app.console.feed.EventFeed;
import io.fencelab.app.console.feed.Notice;
import io.fencelab.app.console.model.EventStore;
import io.fencelab.app.console.model.RunPhase;
import io.fencelab.app.console.run.Narration;
import io.fencelab.engine.check.SafetyChecker;
import io.fencelab.engine.clock.RunTimes;
import io.fencelab.engine.event.Event;
import io.fencelab.engine.resource.TargetKind;
import io.fencelab.report.EventText;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.LongStream;
import org.junit.jupiter.api.Test;

class FeedAndStoreTest {

    @Test
    void theFeedHandsOverBatchesAndNoticesInArrivalOrderWithinABudget() {
        EventFeed feed = new EventFeed();
        feed.accept(events(1, 3));
        feed.notice(new Notice.Phase(RunPhase.PLAYING));
        feed.accept(events(4, 6));
        List<String> seen = new ArrayList<>();
        EventFeed.Target target = new EventFeed.Target() {
            @Override
            public void events(List<Event> batch) {
                seen.add("events " + batch.getFirst().seq() + "-" + batch.getLast().seq());
            }

            @Override
            public void notice(Notice notice) {
                seen.add(notice.toString());
            }
        };
        assertThat(feed.drain(target, 3)).as("stops once the budget is spent").isEqualTo(3);
        assertThat(feed.drain(target, 100)).isEqualTo(3);
        assertThat(seen).containsExactly("events 1-3", "Phase[phase=PLAYING]", "events 4-6");
        assertThat(feed.received()).isEqualTo(6);
    }

    @Test
    void aClosedFeedTakesNothingMore() {
        EventFeed feed = new EventFeed();
        feed.close();
        feed.accept(events(1, 2));
        assertThat(feed.received()).isZero();
    }

    @Test
    void theStoreFindsEventsBySeqWithAndWithoutGapsAndSnapshotsStayFixed() {
        EventStore store = new EventStore();
        store.addAll(events(1, 1500));
        List<Event> snapshot = store.snapshot();
        store.addAll(events(1502, 1510));
        assertThat(snapshot).hasSize(1500);
        assertThat(store.size()).isEqualTo(1509);
        assertThat(store.bySeq(700).seq()).isEqualTo(700);
        assertThat(store.bySeq(1505).seq()).as("after a gap: found by search").isEqualTo(1505);
        assertThat(store.bySeq(1501)).isNull();
        assertThat(store.last().seq()).isEqualTo(1510);
    }

    @Test
    void narrationTellsTheStaleRejectionPlainlyAndRanksItAboveRoutine() {
        Event stale = new Event.WriteRejectedStale(12, 45_000_000, "A", "report", 41, TargetKind.ROW, "report-1", 42);
        Event attempt = new Event.WriteAttempted(11, 45_000_000, "A", "report", 41, TargetKind.ROW, "report-1", null);
        assertThat(Narration.line(stale, null))
                .isEqualTo("45.000 s  report-1 refuses A's write with token 41: it has already accepted 42. The fence held.");
        assertThat(Narration.weight(stale)).isGreaterThan(Narration.weight(attempt));
        assertThat(EventText.type(stale)).isEqualTo("WriteRejectedStale");
        assertThat(RunTimes.precise(125_500_000)).isEqualTo("2 min 05.500 s");
        assertThat(RunTimes.brief(250_000)).isEqualTo("250 ms");
        assertThat(RunTimes.brief(45_000_000)).isEqualTo("45 s");
    }

    @Test
    void narrationTellsAnAcceptedStaleWriteAsTheJudgementClassifiesIt() {
        List<Event> log = List.of(
                new Event.LeaseAcquired(1, 0, "A", "report", 41, 41, 30_000_000),
                new Event.LeaseAcquired(2, 31_000_000, "B", "report", 42, 42, 61_000_000),
                new Event.WriteAccepted(3, 35_000_000, "B", "report", 42, TargetKind.ROW, "report-1", "b", null),
                new Event.WriteAccepted(4, 45_000_000, "A", "report", 41, TargetKind.ROW, "report-1", "a", 42L));

        assertThat(Narration.line(log.get(3), SafetyChecker.judgement(log))).as("not told as an ordinary write")
                .isEqualTo("45.000 s  report-1 accepts A's write with token 41 over newer work (token 42): "
                        + "a stale write got through.");
    }

    private static List<Event> events(long from, long to) {
        return LongStream.rangeClosed(from, to)
                .mapToObj(seq -> (Event) new Event.PauseEnded(seq, seq * 1_000, "A")).toList();
    }
}
