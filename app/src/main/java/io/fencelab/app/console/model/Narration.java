package io.fencelab.app.console.model;

import io.fencelab.engine.event.Event;
import java.util.Locale;

/**
 * Events in plain language, as the console says them: one line for "what just happened", a type
 * name for tables and tooltips, and run times as people read them.
 */
public final class Narration {

    private Narration() {
    }

    /** One sentence about {@code event}, starting with its run time. */
    public static String line(Event event) {
        return seconds(event.atMicros()) + "  " + sentence(event);
    }

    public static String sentence(Event event) {
        return switch (event) {
            case Event.RunStarted e -> "The run of " + e.scenario() + " starts (" + e.executor() + ", "
                    + (e.fencing().equals("FENCED") ? "fencing on" : "fencing off: " + e.fencing()) + ", seed "
                    + e.seed() + ").";
            case Event.RunEnded e -> switch (e.reason()) {
                case "completed" -> "The run is over.";
                case "stopped" -> "The run was stopped.";
                default -> "The run could not go on: " + e.reason() + ".";
            };
            case Event.LeaseAcquired e -> e.token() == e.fencingToken()
                    ? e.holder() + " gets the lease on " + e.scope() + " with token " + e.token() + "."
                    : e.holder() + " gets the lease on " + e.scope() + " (counter " + e.token()
                            + ") but will present token " + e.fencingToken() + ".";
            case Event.LeaseBusy e -> e.holder() + " asks for " + e.scope() + ": busy, " + e.currentHolder()
                    + " holds token " + e.currentToken() + ".";
            case Event.LeaseExhausted e -> e.holder() + " asks for " + e.scope() + ": the token counter is used up at "
                    + e.token() + ".";
            case Event.LeaseRenewed e -> e.holder() + " renews token " + e.token() + " on " + e.scope() + ".";
            case Event.LeaseRenewalFailed e -> e.holder() + "'s renewal of token " + e.token() + " failed: "
                    + e.reason() + ".";
            case Event.LeaseExpired e -> e.holder() + "'s lease (token " + e.token()
                    + ") has expired, but " + e.holder() + " may not know it yet.";
            case Event.LeaseReleased e -> e.holder() + " releases the lease on " + e.scope() + " (token "
                    + e.token() + ").";
            case Event.PauseStarted e -> e.holder() + " freezes for " + seconds(e.durationMicros())
                    + " (" + e.cause() + "): it cannot notice time passing.";
            case Event.PauseEnded e -> e.holder() + " wakes up, still believing whatever it believed before.";
            case Event.FaultInjected e -> "Fault: " + e.fault() + " on " + e.appliesTo()
                    + (e.detail() == null || e.detail().isEmpty() ? "" : " (" + e.detail() + ")") + ".";
            case Event.FaultHealed e -> "The " + e.fault() + " fault on " + e.appliesTo() + " is over.";
            case Event.SettingChanged e -> "Changed while running: " + change(e) + ". It applies from now on.";
            case Event.WriteAttempted e -> e.holder() + " sends a write to " + e.key() + " with token " + e.token()
                    + ".";
            case Event.WriteAccepted e -> e.key() + " accepts " + e.holder() + "'s write with token " + e.token()
                    + ".";
            case Event.WriteRejectedStale e -> e.key() + " refuses " + e.holder() + "'s write with token "
                    + e.token() + ": it has already accepted " + e.highest() + ". The fence held.";
            case Event.WriteMissing e -> e.key() + " does not exist, so " + e.holder() + "'s write changed nothing.";
            case Event.WriteOutOfOrder e -> e.key() + " refuses " + e.holder() + "'s operation " + e.opSeq()
                    + " under token " + e.token() + ": operation " + e.highestOpSeq() + " came first.";
            case Event.BeliefStarted e -> e.holder() + " now believes it holds " + e.scope() + " with token "
                    + e.token() + ".";
            case Event.BeliefEnded e -> e.holder() + " stops believing it holds token " + e.token() + " ("
                    + e.reason() + ").";
            case Event.OperationFailed e -> (e.holder() == null ? "An" : e.holder() + "'s") + " " + e.operation()
                    + " failed: " + e.reason() + ".";
            case Event.Violation e -> "VIOLATION (" + words(e.invariant()) + "): " + e.description();
        };
    }

    private static final ClassValue<String> TYPES = new ClassValue<>() {
        @Override
        protected String computeValue(Class<?> type) {
            return type.getSimpleName();
        }
    };

    /**
     * How much a line about this event is worth showing when many arrive in one frame: the
     * console tells the most telling event of the frame, not merely the last.
     */
    public static int weight(Event event) {
        return switch (event) {
            case Event.Violation e -> 9;
            case Event.WriteRejectedStale e -> 8;
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
            case Event.RunStarted e -> 2;
            case Event.LeaseReleased e -> 2;
            case Event.LeaseExhausted e -> 5;
            case Event.BeliefStarted e -> 1;
            case Event.WriteAttempted e -> 1;
            case Event.LeaseRenewed e -> 1;
            case Event.LeaseBusy e -> 0;
        };
    }

    private static String change(Event.SettingChanged e) {
        return new io.fencelab.report.Timeline.Change(e.atMicros(), e.seq(), e.setting(), e.from(), e.to()).text();
    }

    /** The event's type name, as in the log ({@code WriteRejectedStale}). */
    public static String type(Event event) {
        return TYPES.get(event.getClass());
    }

    /** What an event says beyond holder, scope and token, for the event table. */
    public static String detail(Event event) {
        return switch (event) {
            case Event.RunStarted e -> e.scenario() + ", " + e.executor() + ", " + e.fencing() + ", " + e.tokenScheme()
                    + ", seed " + e.seed() + ", " + e.database();
            case Event.RunEnded e -> e.reason();
            case Event.LeaseAcquired e -> "presents " + e.fencingToken() + ", expires at " + seconds(e.expiresAtMicros());
            case Event.LeaseBusy e -> "held by " + e.currentHolder() + " with " + e.currentToken();
            case Event.LeaseExhausted e -> "counter at its maximum";
            case Event.LeaseRenewed e -> "until " + seconds(e.expiresAtMicros());
            case Event.LeaseRenewalFailed e -> e.reason();
            case Event.LeaseExpired e -> "the service's view";
            case Event.LeaseReleased e -> "";
            case Event.PauseStarted e -> seconds(e.durationMicros()) + ", " + e.cause();
            case Event.PauseEnded e -> "";
            case Event.FaultInjected e -> e.fault() + " on " + e.appliesTo()
                    + (e.durationMicros() > 0 ? " for " + seconds(e.durationMicros()) : "")
                    + (e.detail() == null ? "" : ": " + e.detail());
            case Event.FaultHealed e -> e.fault() + " on " + e.appliesTo();
            case Event.SettingChanged e -> change(e);
            case Event.WriteAttempted e -> e.target() + " " + e.key() + (e.opSeq() == null ? "" : " op " + e.opSeq());
            case Event.WriteAccepted e -> e.target() + " " + e.key() + " " + e.valueDigest()
                    + (e.replacedToken() == null ? "" : ", replaced " + e.replacedToken());
            case Event.WriteRejectedStale e -> e.target() + " " + e.key() + ", highest " + e.highest();
            case Event.WriteMissing e -> e.target() + " " + e.key();
            case Event.WriteOutOfOrder e -> e.target() + " " + e.key() + ", op " + e.opSeq() + " after "
                    + e.highestOpSeq();
            case Event.BeliefStarted e -> "";
            case Event.BeliefEnded e -> e.reason();
            case Event.OperationFailed e -> e.operation() + ": " + e.reason();
            case Event.Violation e -> words(e.invariant()) + ": " + e.description() + " (events " + e.witness() + ")";
        };
    }

    /** {@code STALE_OVERWRITE} as {@code stale overwrite}. */
    public static String words(String constant) {
        return constant.toLowerCase(Locale.ROOT).replace('_', ' ');
    }

    /** Run time as people read it: {@code 45.000 s}, {@code 0.250 s}, {@code 2 min 05.000 s}. */
    public static String seconds(long micros) {
        String sign = micros < 0 ? "-" : "";
        long abs = Math.abs(micros);
        long minutes = abs / 60_000_000;
        double secs = (abs % 60_000_000) / 1e6;
        if (minutes == 0) {
            return sign + String.format(Locale.ROOT, "%.3f s", secs);
        }
        return sign + String.format(Locale.ROOT, "%d min %06.3f s", minutes, secs);
    }

    /** A short form for axes and labels: {@code 45 s}, {@code 1.5 s}, {@code 250 ms}, {@code 2 min}. */
    public static String shortTime(long micros) {
        long abs = Math.abs(micros);
        String sign = micros < 0 ? "-" : "";
        if (abs == 0) {
            return "0 s";
        }
        if (abs < 1_000) {
            return sign + abs + " µs";
        }
        if (abs < 1_000_000) {
            return sign + trim(abs / 1e3) + " ms";
        }
        if (abs < 120_000_000 || abs % 60_000_000 != 0) {
            return sign + trim(abs / 1e6) + " s";
        }
        return sign + (abs / 60_000_000) + " min";
    }

    private static String trim(double v) {
        String s = String.format(Locale.ROOT, "%.3f", v);
        s = s.replaceAll("0+$", "");
        return s.endsWith(".") ? s.substring(0, s.length() - 1) : s;
    }
}
