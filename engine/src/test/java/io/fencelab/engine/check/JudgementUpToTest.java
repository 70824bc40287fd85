package io.fencelab.engine.check;

import static org.assertj.core.api.Assertions.assertThat;

import io.fencelab.engine.event.Event;
import io.fencelab.engine.resource.TargetKind;
import io.fencelab.testing.LogBuilder;
import java.util.List;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;
import org.junit.jupiter.api.Test;

/**
 * A judgement cut to the first events of its history (what a screen shows while later events wait)
 * is the judgement the checker gives those events alone.
 */
class JudgementUpToTest {

    /** The unfenced paused-holder story: A's token-41 write accepted over B's 42 at seq 10. */
    private static List<Event> unfencedStory() {
        LogBuilder log = new LogBuilder();
        log.runStarted();                                                                       // 1
        log.acquired(0, "A", "report", 41, 30);                                                 // 2
        log.pauseStarted(10, "A", 35);                                                          // 3
        log.expired(30, "A", "report", 41);                                                     // 4
        log.acquired(31, "B", "report", 42, 61);                                                // 5
        log.attempted(35, "B", "report", 42, TargetKind.ROW, "report-1");                       // 6
        log.accepted(35, "B", "report", 42, TargetKind.ROW, "report-1", ValueDigest.of("B"));   // 7
        log.pauseEnded(45, "A");                                                                // 8
        log.attempted(45, "A", "report", 41, TargetKind.ROW, "report-1");                       // 9
        log.accepted(45, "A", "report", 41, TargetKind.ROW, "report-1", ValueDigest.of("A"));   // 10
        log.runEnded(46);                                                                       // 11
        return log.events();
    }

    @Test
    void theOverwriteIsNotJudgedBeforeItIsShown() {
        List<Event> events = unfencedStory();
        Judgement whole = SafetyChecker.judgement(events);
        assertThat(whole.isSafe()).as("the whole story").isFalse();

        Judgement atTheAttempt = whole.upTo(events.get(8));
        assertThat(atTheAttempt.isSafe()).as("up to A's attempt (seq 9), before the row answers").isTrue();
        assertThat(atTheAttempt.end()).isEqualTo(new LogEnd.Incomplete(9, LogBuilder.micros(45)));
        assertThat(atTheAttempt.kept().values()).extracting(Event.WriteAccepted::holder).containsExactly("B");

        assertThat(whole.upTo(events.get(9)).verdict().witnesses()).as("once the overwrite is shown")
                .isEqualTo(whole.verdict().witnesses());
        assertThat(whole.upTo(events.getLast())).as("cut at its own end, the judgement itself").isSameAs(whole);
    }

    @Property(tries = 30)
    void cutAtAnyEventItIsTheVerdictOfThoseEventsAlone(@ForAll @IntRange(min = 1, max = 11) int shown) {
        List<Event> events = unfencedStory();
        Judgement cut = SafetyChecker.judgement(events).upTo(events.get(shown - 1));
        Judgement alone = SafetyChecker.judgement(events.subList(0, shown));
        assertThat(cut.verdict().witnesses()).as("witnesses of the first %d events", shown)
                .isEqualTo(alone.verdict().witnesses());
        assertThat(cut.end().lastSeq()).isEqualTo(alone.end().lastSeq());
    }
}
