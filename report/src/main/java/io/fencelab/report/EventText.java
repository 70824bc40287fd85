package io.fencelab.report;

import io.fencelab.engine.check.WriteJudgement;
import io.fencelab.engine.clock.RunTimes;
import io.fencelab.engine.event.Event;
import java.util.Locale;

/**
 * Events in plain language, the one wording every reader uses: the console's "what just happened",
 * the event table, the report's witness tables and tooltips. A write's sentence follows the
 * checker's classification of it, so an accepted stale write is never told as an ordinary one.
 */
public final class EventText {

    private EventText() {
    }

    /** One sentence about {@code event}, as if it had no judgement (not a write, or not judged). */
    public static String sentence(Event event) {
        return sentence(event, null);
    }

    /** One sentence about {@code event}; {@code judged} is the checker's classification of it, or null. */
    public static String sentence(Event event, WriteJudgement judged) {
        return switch (event) {
            case Event.RunStarted e -> "The run of " + e.scenario() + " starts (" + e.executor() + ", "
                    + (e.fencing().equals("FENCED") ? "fencing on" : "fencing off: " + e.fencing()) + ", seed "
                    + e.seed() + ").";
            case Event.RunEnded e -> switch (e.end()) {
                case COMPLETED -> "The run is over.";
                case STOPPED -> "The run was stopped.";
                case FAILED -> "The run could not go on: " + e.cause() + ".";
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
            case Event.PauseStarted e -> e.holder() + " freezes for " + RunTimes.seconds(e.durationMicros())
                    + " (" + e.cause() + "): it cannot notice time passing.";
            case Event.PauseEnded e -> e.holder() + " wakes up, still believing whatever it believed before.";
            case Event.FaultInjected e -> "Fault: " + e.fault() + " on " + e.appliesTo()
                    + (e.detail() == null || e.detail().isEmpty() ? "" : " (" + e.detail() + ")") + ".";
            case Event.FaultHealed e -> "The " + e.fault() + " fault on " + e.appliesTo() + " is over.";
            case Event.SettingChanged e -> "Changed while running: " + change(e) + ". It applies from now on.";
            case Event.AgentReport e -> agentSentence(e);
            case Event.WriteAttempted e -> e.holder() + " sends a write to " + e.key() + " with token " + e.token()
                    + ".";
            case Event.WriteAccepted e -> judged != null && judged.isStaleOverwrite()
                    ? e.key() + " accepts " + e.holder() + "'s write with token " + e.token()
                            + " over newer work (token " + judged.against() + "): a stale write got through."
                    : e.key() + " accepts " + e.holder() + "'s write with token " + e.token() + ".";
            case Event.WriteRejectedStale e -> e.key() + " refuses " + e.holder() + "'s write with token "
                    + e.token() + ": it has already accepted " + e.highest() + ". The fence held.";
            case Event.WriteMissing e -> e.key() + " does not exist, so " + e.holder() + "'s write changed nothing.";
            case Event.WriteOutOfOrder e -> e.key() + " refuses " + e.holder() + "'s operation " + e.opSeq()
                    + " under token " + e.token() + ": operation " + e.highestOpSeq() + " came first.";
            case Event.WriteContradicted e -> "Read back, " + e.key() + " contradicts what its statement said of "
                    + e.holder() + "'s write with token " + e.token() + ": " + e.detail() + ".";
            case Event.BeliefStarted e -> e.holder() + " now believes it holds " + e.scope() + " with token "
                    + e.token() + ".";
            case Event.BeliefEnded e -> e.holder() + " stops believing it holds token " + e.token() + " ("
                    + e.reason() + ").";
            case Event.OperationFailed e -> (e.holder() == null ? "An" : e.holder() + "'s") + " " + e.operation()
                    + " failed: " + e.reason() + ".";
        };
    }

    /**
     * An event as one step of a story told line by line (the CLI's {@code demo}): a few words with
     * the times and tokens it carries, a write with its outcome as the checker judged it. The teller
     * knows what one event cannot: whether the holder is frozen ({@code holderPaused}: an expiry it
     * cannot notice) and whether a write is the first thing it does on waking ({@code waking}).
     * Null for an event a story's steps leave out (beliefs, releases, attempts before their outcome).
     */
    public static String step(Event event, WriteJudgement judged, boolean holderPaused, boolean waking) {
        return switch (event) {
            case Event.LeaseAcquired a -> "%s acquires the lease on \"%s\": token %d, expires at %s"
                    .formatted(a.holder(), a.scope(), a.token(), RunTimes.seconds(a.expiresAtMicros()));
            case Event.LeaseExpired x -> holderPaused
                    ? "%s's lease expires; %s, paused, does not notice".formatted(x.holder(), x.holder())
                    : "%s's lease expires (token %d)".formatted(x.holder(), x.token());
            case Event.PauseEnded p -> p.holder() + " resumes";
            case Event.WriteAccepted w -> writeStep(w, w.key(), w.token(), judged, waking);
            case Event.WriteRejectedStale r -> writeStep(r, r.key(), r.token(), judged, waking);
            case Event.WriteMissing m -> writeStep(m, m.key(), m.token(), judged, waking);
            case Event.WriteOutOfOrder o -> writeStep(o, o.key(), o.token(), judged, waking);
            default -> null;
        };
    }

    private static String writeStep(Event e, String key, long token, WriteJudgement judged, boolean waking) {
        String outcome = judged == null ? "not judged" : switch (judged.kind()) {
            case ACCEPTED -> "accepted";
            case STALE_OVERWRITE -> "ACCEPTED over newer work (%s already held token %d)".formatted(key, judged.against());
            case REJECTED_STALE -> "REJECTED as stale (%s already accepted token %d)".formatted(key, judged.against());
            case MISSING -> "refused: there is no " + key;
            case OUT_OF_ORDER -> "REJECTED: a later operation of the same token was already applied";
        };
        return "%s %s %s with token %d -> %s".formatted(e.holder(), waking ? "resumes and writes" : "writes", key, token,
                outcome);
    }

    /** What an event says beyond holder, scope and token, for an event table. */
    public static String detail(Event event) {
        return switch (event) {
            case Event.RunStarted e -> e.scenario() + ", " + e.executor() + ", " + e.fencing() + ", " + e.tokenScheme()
                    + ", seed " + e.seed() + ", " + e.database();
            case Event.RunEnded e -> e.ending().words();
            case Event.LeaseAcquired e -> "presents " + e.fencingToken() + ", expires at "
                    + RunTimes.precise(e.expiresAtMicros());
            case Event.LeaseBusy e -> "held by " + e.currentHolder() + " with " + e.currentToken();
            case Event.LeaseExhausted e -> "counter at its maximum";
            case Event.LeaseRenewed e -> "until " + RunTimes.precise(e.expiresAtMicros());
            case Event.LeaseRenewalFailed e -> e.reason();
            case Event.LeaseExpired e -> "the service's view";
            case Event.LeaseReleased e -> "";
            case Event.PauseStarted e -> RunTimes.precise(e.durationMicros()) + ", " + e.cause();
            case Event.PauseEnded e -> "";
            case Event.FaultInjected e -> e.fault() + " on " + e.appliesTo()
                    + (e.durationMicros() > 0 ? " for " + RunTimes.precise(e.durationMicros()) : "")
                    + (e.detail() == null ? "" : ": " + e.detail());
            case Event.FaultHealed e -> e.fault() + " on " + e.appliesTo();
            case Event.SettingChanged e -> change(e);
            case Event.AgentReport e -> agentDetail(e);
            case Event.WriteAttempted e -> e.target() + " " + e.key() + (e.opSeq() == null ? "" : " op " + e.opSeq());
            case Event.WriteAccepted e -> e.target() + " " + e.key() + " " + e.valueDigest()
                    + (e.replacedToken() == null ? "" : ", replaced " + e.replacedToken());
            case Event.WriteRejectedStale e -> e.target() + " " + e.key() + ", highest " + e.highest();
            case Event.WriteMissing e -> e.target() + " " + e.key();
            case Event.WriteOutOfOrder e -> e.target() + " " + e.key() + ", op " + e.opSeq() + " after "
                    + e.highestOpSeq();
            case Event.WriteContradicted e -> e.target() + " " + e.key() + ", said " + e.said() + ", holds "
                    + (e.heldToken() == null ? "no row" : "token " + e.heldToken());
            case Event.BeliefStarted e -> "";
            case Event.BeliefEnded e -> e.reason();
            case Event.OperationFailed e -> e.operation() + ": " + e.reason();
        };
    }

    private static final ClassValue<String> TYPES = new ClassValue<>() {
        @Override
        protected String computeValue(Class<?> type) {
            return type.getSimpleName();
        }
    };

    /** The event's type name, as in the log ({@code WriteRejectedStale}). */
    public static String type(Event event) {
        return TYPES.get(event.getClass());
    }

    /** {@code STALE_OVERWRITE} as {@code stale overwrite}. */
    public static String words(String constant) {
        return constant.toLowerCase(Locale.ROOT).replace('_', ' ');
    }

    private static String change(Event.SettingChanged e) {
        return new Timeline.Change(e.atMicros(), e.seq(), e.setting(), e.from(), e.to()).text();
    }

    /** A process run's news of an agent or host, as a sentence. */
    private static String agentSentence(Event.AgentReport e) {
        return switch (e.kind()) {
            case STARTED -> e.holder() + " runs as process " + e.pid() + " on host " + e.host()
                    + clock(e) + ".";
            case EXITED -> e.holder() + "'s process " + (e.pid() == null ? "" : e.pid() + " ") + "on host " + e.host()
                    + " is gone" + (e.detail() == null ? "" : " (" + e.detail() + ")") + ".";
            case CLOCK -> "Host " + e.host() + "'s clock measured again" + clock(e) + ".";
            case LOST -> "Host " + e.host() + " stopped answering"
                    + (e.detail() == null ? "" : " (" + e.detail() + ")") + ": its agents' last events are kept.";
        };
    }

    private static String agentDetail(Event.AgentReport e) {
        return e.kind().name().toLowerCase(java.util.Locale.ROOT) + " host " + e.host()
                + (e.pid() == null ? "" : ", pid " + e.pid()) + clock(e)
                + (e.detail() == null ? "" : ", " + e.detail());
    }

    /** ", clock 7.000 s behind the database ± 0.3 ms" or nothing when not measured. */
    private static String clock(Event.AgentReport e) {
        if (e.clockOffsetMicros() == null) {
            return "";
        }
        long off = e.clockOffsetMicros();
        String side = off >= 0 ? "behind" : "ahead of";
        return ", clock " + RunTimes.precise(Math.abs(off)) + " " + side + " the database's, \u00b1 "
                + RunTimes.precise(e.clockUncertaintyMicros() == null ? 0 : e.clockUncertaintyMicros());
    }
}
