package io.fencelab.app.service;

import static org.assertj.core.api.Assertions.assertThat;

import io.fencelab.engine.event.Event;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Whether a calibration run's pause hit a holder while it held a lease: a cold client can make it miss. */
class CalibrationRunsTest {

    private static Event.BeliefStarted believes(long at, String holder) {
        return new Event.BeliefStarted(at, at, holder, "s", 1);
    }

    private static Event.PauseStarted pause(long at, String holder) {
        return new Event.PauseStarted(at, at, holder, 5_000_000, "pause fault");
    }

    @Test
    void aPauseOfAHolderBelievingItHoldsTheLeaseFoundOne() {
        assertThat(CalibrationRuns.pauseFoundALease(List.of(believes(1, "A"), believes(2, "B"), pause(3, "A")), "A"))
                .isTrue();
    }

    /** A real run where A's client was still starting at its pause: B took the lease, A never had one to lose. */
    @Test
    void aPauseBeforeTheHoldersFirstGrantOrAfterItsReleaseFoundNone() {
        assertThat(CalibrationRuns.pauseFoundALease(List.of(believes(1, "B"), pause(2, "A"), believes(3, "A")), "A"))
                .isFalse();
        Event released = new Event.BeliefEnded(2, 2, "A", "s", 1, Event.BeliefEnded.Cause.RELEASED, "released");
        assertThat(CalibrationRuns.pauseFoundALease(List.of(believes(1, "A"), released, pause(3, "A")), "A")).isFalse();
    }
}
