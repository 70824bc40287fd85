package io.fencelab.app.console.run;

import static org.assertj.core.api.Assertions.assertThat;

import io.fencelab.engine.event.Event;
import io.fencelab.engine.resource.TargetKind;
import io.fencelab.scenarios.Cue;
import io.fencelab.scenarios.StoryStep;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Where a story stops a run: exactly at a step's event, before the first event past an {@code at:} time. */
class StoryGateTest {

    private static final List<Event> RUN = List.of(
            new Event.LeaseAcquired(1, 0, "A", "report", 41, 41, 30_000_000),
            new Event.PauseStarted(2, 10_000_000, "A", 35_000_000, "scripted"),
            new Event.LeaseExpired(3, 30_000_000, "A", "report", 41),
            new Event.WriteAttempted(4, 45_000_000, "A", "report", 41, TargetKind.ROW, "report-1", null),
            new Event.WriteRejectedStale(5, 45_000_000, "A", "report", 41, TargetKind.ROW, "report-1", 42));

    private static StoryStep on(String type) {
        return new StoryStep(type, new Cue.On(type, Map.of("holder", "A")), null, "", 0);
    }

    private static StoryStep at(long seconds) {
        return new StoryStep("at " + seconds, new Cue.At(Duration.ofSeconds(seconds)), null, "", 0);
    }

    @Test
    void guidedStopsRightAfterTheStepsEventEvenWhenTheNextOneSharesItsInstant() {
        StoryGate gate = new StoryGate(List.of(on("LeaseAcquired"), on("WriteAttempted")));
        gate.guided(true);
        List<Event> rest = RUN;
        assertThat(gate.cut(rest)).as("through the acquisition").isEqualTo(1);
        assertThat(gate.takeStop()).isEqualTo(new StoryGate.Stop(0, 0));
        rest = rest.subList(1, rest.size());
        assertThat(gate.cut(rest)).as("through A's write, not its answer at the same microsecond").isEqualTo(3);
        assertThat(gate.takeStop()).isEqualTo(new StoryGate.Stop(1, 45_000_000));
        rest = rest.subList(3, rest.size());
        assertThat(gate.cut(rest)).as("the story is told: the rest passes").isEqualTo(1);
        assertThat(gate.takeStop()).isNull();
        assertThat(gate.reached()).isEqualTo(2);
    }

    @Test
    void aStepAtARunTimeStopsBeforeTheFirstEventPastIt() {
        StoryGate gate = new StoryGate(List.of(at(20)));
        gate.guided(true);
        assertThat(gate.cut(RUN)).as("the events up to 20 s").isEqualTo(2);
        assertThat(gate.takeStop()).isEqualTo(new StoryGate.Stop(0, 20_000_000));
        assertThat(gate.cut(RUN.subList(2, RUN.size()))).as("asked again, the held event passes").isEqualTo(3);
        assertThat(gate.takeStop()).isNull();
    }

    @Test
    void aSeekStopsOnlyAtTheStepSoughtAndGuidedModeOffStopsNowhere() {
        StoryGate gate = new StoryGate(List.of(on("LeaseAcquired"), on("PauseStarted"), on("LeaseExpired")));
        gate.seekTo(1);
        assertThat(gate.cut(RUN)).isEqualTo(2);
        assertThat(gate.takeStop()).isEqualTo(new StoryGate.Stop(1, 10_000_000));
        assertThat(gate.seekingTo()).as("the seek is over").isEqualTo(-1);
        assertThat(gate.cut(RUN.subList(2, RUN.size()))).as("not guided: no more stops").isEqualTo(3);
        assertThat(gate.reached()).as("the story is still followed").isEqualTo(3);
    }
}
