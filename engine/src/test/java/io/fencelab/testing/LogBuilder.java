package io.fencelab.testing;

import io.fencelab.engine.event.Event;
import io.fencelab.engine.resource.TargetKind;
import java.util.ArrayList;
import java.util.List;

/**
 * Builds a run's event log by hand for tests: each method appends one event with the next seq and
 * returns it, so a test can name the seqs it expects. Times are given in seconds for readability.
 */
public final class LogBuilder {

    private final List<Event> events = new ArrayList<>();

    public static long micros(double seconds) {
        return Math.round(seconds * 1_000_000);
    }

    public List<Event> events() {
        return List.copyOf(events);
    }

    private long next() {
        return events.size() + 1;
    }

    private <E extends Event> E add(E event) {
        events.add(event);
        return event;
    }

    public Event.RunStarted runStarted() {
        return add(new Event.RunStarted(next(), 0, "test", "simulated", "FENCED", "MONOTONIC", 42, "embedded"));
    }

    public Event.RunEnded runEnded(double at) {
        return add(new Event.RunEnded(next(), micros(at), Event.RunEnded.Reason.COMPLETED));
    }

    /** A grant under the monotonic scheme: the holder presents the service's counter. */
    public Event.LeaseAcquired acquired(double at, String holder, String scope, long token, double expiresAt) {
        return acquired(at, holder, scope, token, token, expiresAt);
    }

    public Event.LeaseAcquired acquired(double at, String holder, String scope, long token, long fencingToken,
                                        double expiresAt) {
        return add(new Event.LeaseAcquired(next(), micros(at), holder, scope, token, fencingToken, micros(expiresAt)));
    }

    public Event.LeaseBusy busy(double at, String holder, String scope, String currentHolder, long currentToken) {
        return add(new Event.LeaseBusy(next(), micros(at), holder, scope, currentHolder, currentToken));
    }

    public Event.LeaseRenewed renewed(double at, String holder, String scope, long token, double expiresAt) {
        return add(new Event.LeaseRenewed(next(), micros(at), holder, scope, token, micros(expiresAt)));
    }

    public Event.LeaseRenewalFailed renewalFailed(double at, String holder, String scope, long token) {
        return add(new Event.LeaseRenewalFailed(next(), micros(at), holder, scope, token, "not held"));
    }

    public Event.LeaseExpired expired(double at, String holder, String scope, long token) {
        return add(new Event.LeaseExpired(next(), micros(at), holder, scope, token));
    }

    public Event.LeaseReleased released(double at, String holder, String scope, long token) {
        return add(new Event.LeaseReleased(next(), micros(at), holder, scope, token));
    }

    public Event.PauseStarted pauseStarted(double at, String holder, double durationSeconds) {
        return add(new Event.PauseStarted(next(), micros(at), holder, micros(durationSeconds), "gc"));
    }

    public Event.PauseEnded pauseEnded(double at, String holder) {
        return add(new Event.PauseEnded(next(), micros(at), holder));
    }

    public Event.FaultInjected faultInjected(double at, String fault, String appliesTo) {
        return add(new Event.FaultInjected(next(), micros(at), fault, appliesTo, 0, ""));
    }

    /**
     * A crash of {@code holder}, as the faults publish it: {@code FaultInjected(CRASH)} with the
     * restart delay as its duration (0: it never restarts).
     */
    public Event.FaultInjected crashed(double at, String holder, double restartAfterSeconds) {
        return add(new Event.FaultInjected(next(), micros(at), "CRASH", holder, micros(restartAfterSeconds), "crash"));
    }

    public Event.FaultHealed faultHealed(double at, String fault, String appliesTo) {
        return add(new Event.FaultHealed(next(), micros(at), fault, appliesTo));
    }

    public Event.LeaseExhausted exhausted(double at, String holder, String scope, long token) {
        return add(new Event.LeaseExhausted(next(), micros(at), holder, scope, token));
    }

    public Event.LeaseRenewalFailed renewalFailed(double at, String holder, String scope, long token, String reason) {
        return add(new Event.LeaseRenewalFailed(next(), micros(at), holder, scope, token, reason));
    }

    public Event.BeliefStarted beliefStarted(double at, String holder, String scope, long token) {
        return add(new Event.BeliefStarted(next(), micros(at), holder, scope, token));
    }

    public Event.BeliefEnded beliefEnded(double at, String holder, String scope, long token, Event.BeliefEnded.Cause cause,
                                         String reason) {
        return add(new Event.BeliefEnded(next(), micros(at), holder, scope, token, cause, reason));
    }

    public Event.OperationFailed operationFailed(double at, String holder, String operation, String reason) {
        return add(new Event.OperationFailed(next(), micros(at), holder, operation, reason));
    }

    public Event.WriteAttempted attempted(double at, String holder, String scope, long token, TargetKind target,
                                          String key) {
        return add(new Event.WriteAttempted(next(), micros(at), holder, scope, token, target, key, null));
    }

    public Event.WriteAccepted accepted(double at, String holder, String scope, long token, TargetKind target,
                                        String key, String valueDigest) {
        return add(new Event.WriteAccepted(next(), micros(at), holder, scope, token, target, key, valueDigest));
    }

    /** An accepted write with the database's word on the token it replaced (null: it created the resource). */
    public Event.WriteAccepted accepted(double at, String holder, String scope, long token, TargetKind target,
                                        String key, String valueDigest, Long replacedToken) {
        return add(new Event.WriteAccepted(next(), micros(at), holder, scope, token, target, key, valueDigest,
                replacedToken));
    }

    public Event.WriteRejectedStale rejectedStale(double at, String holder, String scope, long token,
                                                  TargetKind target, String key, long highest) {
        return add(new Event.WriteRejectedStale(next(), micros(at), holder, scope, token, target, key, highest));
    }

    public Event.WriteMissing missing(double at, String holder, String scope, long token, TargetKind target,
                                      String key) {
        return add(new Event.WriteMissing(next(), micros(at), holder, scope, token, target, key));
    }

    public Event.WriteOutOfOrder outOfOrder(double at, String holder, String scope, long token, TargetKind target,
                                            String key, long opSeq, long highestOpSeq) {
        return add(new Event.WriteOutOfOrder(next(), micros(at), holder, scope, token, target, key, opSeq, highestOpSeq));
    }

    /** A process run's agent of {@code holder} is up on {@code host} as process {@code pid}, its clock not measured. */
    public Event.AgentReport agentStarted(double at, String holder, String host, long pid) {
        return add(new Event.AgentReport(next(), micros(at), Event.AgentReport.Kind.STARTED, host, holder, pid, null,
                null, null));
    }

    public Event.AgentReport agentExited(double at, String holder, String host, long pid, String detail) {
        return add(new Event.AgentReport(next(), micros(at), Event.AgentReport.Kind.EXITED, host, holder, pid, null,
                null, detail));
    }

    /** A process run's agent host stopped answering. */
    public Event.AgentReport hostLost(double at, String host) {
        return add(new Event.AgentReport(next(), micros(at), Event.AgentReport.Kind.LOST, host, null, null, null,
                null, "no heartbeat for 5s"));
    }

    /**
     * A line as logs written before the judgement was kept apart carried it: the checker's
     * conclusion, numbered like an event. Readers must read past it.
     */
    public static String legacyViolationLine(long seq, double at, String invariant, List<Long> witness) {
        return "{\"type\":\"Violation\",\"seq\":%d,\"atMicros\":%d,\"invariant\":\"%s\",\"description\":\"published by a checker\",\"witness\":%s}"
                .formatted(seq, micros(at), invariant, witness.toString().replace(" ", ""));
    }
}
