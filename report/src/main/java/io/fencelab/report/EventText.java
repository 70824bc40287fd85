package io.fencelab.report;

import io.fencelab.engine.check.ResourceId;
import io.fencelab.engine.event.Event;

/** One event in one line of plain language, for witness tables and tooltips. */
final class EventText {

    private EventText() {
    }

    static String describe(Event event) {
        return switch (event) {
            case Event.RunStarted e -> "run of %s started (%s, %s, %s tokens, seed %d)"
                    .formatted(e.scenario(), e.executor(), e.fencing(), e.tokenScheme(), e.seed());
            case Event.RunEnded e -> "run ended: " + e.reason();
            case Event.LeaseAcquired e -> e.token() == e.fencingToken()
                    ? "%s acquired the lease on %s with token %d (expires at %s)"
                            .formatted(e.holder(), e.scope(), e.token(), Times.seconds(e.expiresAtMicros()))
                    : "%s acquired the lease on %s, counter %d, presenting token %d (expires at %s)"
                            .formatted(e.holder(), e.scope(), e.token(), e.fencingToken(), Times.seconds(e.expiresAtMicros()));
            case Event.LeaseBusy e -> "%s asked for the lease on %s: busy, %s holds token %d"
                    .formatted(e.holder(), e.scope(), e.currentHolder(), e.currentToken());
            case Event.LeaseExhausted e -> "%s asked for the lease on %s: the counter is exhausted at %d"
                    .formatted(e.holder(), e.scope(), e.token());
            case Event.LeaseRenewed e -> "%s renewed token %d on %s until %s"
                    .formatted(e.holder(), e.token(), e.scope(), Times.seconds(e.expiresAtMicros()));
            case Event.LeaseRenewalFailed e -> "%s's renewal of token %d on %s failed: %s"
                    .formatted(e.holder(), e.token(), e.scope(), e.reason());
            case Event.LeaseExpired e -> "%s's lease on %s with token %d expired (the lease service's view)"
                    .formatted(e.holder(), e.scope(), e.token());
            case Event.LeaseReleased e -> "%s released the lease on %s with token %d"
                    .formatted(e.holder(), e.scope(), e.token());
            case Event.PauseStarted e -> "%s paused for %s (%s)"
                    .formatted(e.holder(), Times.seconds(e.durationMicros()), e.cause());
            case Event.PauseEnded e -> e.holder() + " resumed";
            case Event.FaultInjected e -> "fault %s on %s%s".formatted(e.fault(), e.appliesTo(),
                    e.detail() == null ? "" : " (" + e.detail() + ")");
            case Event.FaultHealed e -> "fault %s on %s healed".formatted(e.fault(), e.appliesTo());
            case Event.SettingChanged e -> "changed during the run: " + new Timeline.Change(e.atMicros(), e.seq(),
                    e.setting(), e.from(), e.to()).text();
            case Event.WriteAttempted e -> "%s sent a write to %s with token %d"
                    .formatted(e.holder(), resource(e.target(), e.scope(), e.key()), e.token());
            case Event.WriteAccepted e -> "%s accepted %s's write with token %d"
                    .formatted(resource(e.target(), e.scope(), e.key()), e.holder(), e.token());
            case Event.WriteRejectedStale e -> "%s rejected %s's write with token %d as stale (it had accepted %d)"
                    .formatted(resource(e.target(), e.scope(), e.key()), e.holder(), e.token(), e.highest());
            case Event.WriteMissing e -> "%s does not exist: %s's write with token %d changed nothing"
                    .formatted(resource(e.target(), e.scope(), e.key()), e.holder(), e.token());
            case Event.WriteOutOfOrder e -> "%s refused %s's operation %d under token %d (already at %d)"
                    .formatted(resource(e.target(), e.scope(), e.key()), e.holder(), e.opSeq(), e.token(), e.highestOpSeq());
            case Event.BeliefStarted e -> "%s believes it holds %s with token %d"
                    .formatted(e.holder(), e.scope(), e.token());
            case Event.BeliefEnded e -> "%s stopped believing it holds token %d: %s"
                    .formatted(e.holder(), e.token(), e.reason());
            case Event.OperationFailed e -> "%s's %s failed: %s"
                    .formatted(e.holder() == null ? "an" : e.holder(), e.operation(), e.reason());
            case Event.Violation e -> "violation of %s: %s".formatted(e.invariant(), e.description());
        };
    }

    /** {@code ROW report/report-1}, as the checker names resources. */
    static String resource(io.fencelab.engine.fence.TargetKind target, String scope, String key) {
        if (target == null) {
            return scope + "/" + key;
        }
        return new ResourceId(target, scope == null ? "" : scope, key == null ? "" : key).toString();
    }
}
