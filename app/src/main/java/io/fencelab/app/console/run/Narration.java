package io.fencelab.app.console.run;

import io.fencelab.engine.check.Judgement;
import io.fencelab.engine.check.Witness;
import io.fencelab.engine.clock.RunTimes;
import io.fencelab.engine.event.Event;
import io.fencelab.report.EventText;

/**
 * The console's "what just happened": which event of a frame is worth telling, told in the one
 * wording ({@link EventText}) with its run time, and the checker's witnesses as they appear.
 */
public final class Narration {

    private Narration() {
    }

    /** One sentence about {@code event}, starting with its run time; a write as {@code judgement} classifies it. */
    public static String line(Event event, Judgement judgement) {
        return RunTimes.precise(event.atMicros()) + "  "
                + EventText.sentence(event, judgement == null ? null : judgement.writes().of(event.seq()));
    }

    /** A witness the checker has just found, told at {@code atMicros}. */
    public static String line(Witness witness, long atMicros) {
        return RunTimes.precise(atMicros) + "  VIOLATION (" + EventText.words(witness.invariant().name()) + "): "
                + witness.summary();
    }

    /**
     * How much a line about this event is worth showing when many arrive in one frame: the
     * console tells the most telling event of the frame, not merely the last.
     */
    public static int weight(Event event) {
        return switch (event) {
            case Event.WriteRejectedStale e -> 8;
            // A false answer from the user's own statement is the news of its frame.
            case Event.WriteContradicted e -> 9;
            // The run's end is the last word, whatever else arrived in the same frame.
            case Event.RunEnded e -> 10;
            case Event.LeaseExpired e -> 6;
            case Event.PauseStarted e -> 6;
            case Event.FaultInjected e -> 6;
            case Event.OperationFailed e -> 5;
            case Event.PauseEnded e -> 5;
            case Event.WriteOutOfOrder e -> 5;
            case Event.WriteMissing e -> 4;
            case Event.LeaseAcquired e -> 4;
            case Event.LeaseRenewalFailed e -> 4;
            case Event.WriteAccepted e -> 3;
            case Event.BeliefEnded e -> 3;
            case Event.FaultHealed e -> 3;
            case Event.SettingChanged e -> 7;
            // A lost host is news; an agent starting or a clock measured is background.
            case Event.AgentReport e -> e.kind() == Event.AgentReport.Kind.LOST ? 7 : 1;
            case Event.RunStarted e -> 2;
            case Event.LeaseReleased e -> 2;
            case Event.LeaseExhausted e -> 5;
            case Event.BeliefStarted e -> 1;
            case Event.WriteAttempted e -> 1;
            case Event.LeaseRenewed e -> 1;
            case Event.LeaseBusy e -> 0;
        };
    }
}
