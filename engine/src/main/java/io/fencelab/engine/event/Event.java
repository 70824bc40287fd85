package io.fencelab.engine.event;

import com.fasterxml.jackson.annotation.JsonFormat;
import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonSubTypes;
import com.fasterxml.jackson.annotation.JsonTypeInfo;
import io.fencelab.engine.fence.TargetKind;
import java.util.List;

/**
 * Everything that happens in a run, as a closed set of records. Every event carries its sequence
 * number in the run ({@code seq}, gap-free from 1) and its run time in microseconds since the run
 * started ({@code atMicros}); most also name a holder, scope, token and target. Tokens are written
 * to JSON as decimal strings so no reader can round them.
 *
 * <p>Every component is required in a log line except those marked {@link MayBeAbsent}.
 *
 * <p>Payloads never appear: a write is identified by holder, token, target and key, and its value by
 * a short digest.
 */
@JsonTypeInfo(use = JsonTypeInfo.Id.NAME, property = "type")
@JsonSubTypes({
        @JsonSubTypes.Type(Event.RunStarted.class),
        @JsonSubTypes.Type(Event.RunEnded.class),
        @JsonSubTypes.Type(Event.LeaseAcquired.class),
        @JsonSubTypes.Type(Event.LeaseBusy.class),
        @JsonSubTypes.Type(Event.LeaseExhausted.class),
        @JsonSubTypes.Type(Event.LeaseRenewed.class),
        @JsonSubTypes.Type(Event.LeaseRenewalFailed.class),
        @JsonSubTypes.Type(Event.LeaseExpired.class),
        @JsonSubTypes.Type(Event.LeaseReleased.class),
        @JsonSubTypes.Type(Event.PauseStarted.class),
        @JsonSubTypes.Type(Event.PauseEnded.class),
        @JsonSubTypes.Type(Event.FaultInjected.class),
        @JsonSubTypes.Type(Event.FaultHealed.class),
        @JsonSubTypes.Type(Event.WriteAttempted.class),
        @JsonSubTypes.Type(Event.WriteAccepted.class),
        @JsonSubTypes.Type(Event.WriteRejectedStale.class),
        @JsonSubTypes.Type(Event.WriteMissing.class),
        @JsonSubTypes.Type(Event.WriteOutOfOrder.class),
        @JsonSubTypes.Type(Event.BeliefStarted.class),
        @JsonSubTypes.Type(Event.BeliefEnded.class),
        @JsonSubTypes.Type(Event.OperationFailed.class),
        @JsonSubTypes.Type(Event.SettingChanged.class),
})
@JsonInclude(JsonInclude.Include.NON_NULL)
public sealed interface Event {

    /** Position in the run's log: 1, 2, 3, … with no gaps. */
    long seq();

    /** Run time in microseconds since the run started (virtual in simulated runs). */
    long atMicros();

    /** The worker concerned, or null. */
    default String holder() {
        return null;
    }

    /** The lease scope concerned, or null. */
    default String scope() {
        return null;
    }

    /** The token concerned, or null. */
    default Long tokenOrNull() {
        return null;
    }

    /** The fenced target concerned, or null. */
    default TargetKind target() {
        return null;
    }

    // ---- run -------------------------------------------------------------------------------

    /** First event of every log: what ran. */
    record RunStarted(long seq, long atMicros, String scenario, String executor, String fencing,
                      String tokenScheme, @JsonFormat(shape = JsonFormat.Shape.STRING) long seed,
                      String database) implements Event {}

    /** Last event of a log: {@code reason} is {@code completed}, {@code stopped} or {@code failed: …}. */
    record RunEnded(long seq, long atMicros, String reason) implements Event {}

    // ---- leases (what the lease service says) ----------------------------------------------

    /**
     * The service granted a lease. {@code token} is the service's counter; {@code fencingToken} is
     * what the holder will present (equal under the monotonic scheme).
     */
    record LeaseAcquired(long seq, long atMicros, String holder, String scope,
                         @JsonFormat(shape = JsonFormat.Shape.STRING) long token,
                         @JsonFormat(shape = JsonFormat.Shape.STRING) long fencingToken,
                         long expiresAtMicros) implements Event {
        @Override
        public Long tokenOrNull() {
            return token;
        }
    }

    /** Acquisition refused: {@code currentHolder} holds {@code currentToken}. */
    record LeaseBusy(long seq, long atMicros, String holder, String scope, String currentHolder,
                     @JsonFormat(shape = JsonFormat.Shape.STRING) long currentToken) implements Event {}

    /** Acquisition refused for good: the scope's counter is at its maximum. */
    record LeaseExhausted(long seq, long atMicros, String holder, String scope,
                          @JsonFormat(shape = JsonFormat.Shape.STRING) long token) implements Event {
        @Override
        public Long tokenOrNull() {
            return token;
        }
    }

    record LeaseRenewed(long seq, long atMicros, String holder, String scope,
                        @JsonFormat(shape = JsonFormat.Shape.STRING) long token, long expiresAtMicros) implements Event {
        @Override
        public Long tokenOrNull() {
            return token;
        }
    }

    /** A renewal did not take: {@code reason} says why (not held, dropped by a fault, database error). */
    record LeaseRenewalFailed(long seq, long atMicros, String holder, String scope,
                              @JsonFormat(shape = JsonFormat.Shape.STRING) long token, String reason) implements Event {
        @Override
        public Long tokenOrNull() {
            return token;
        }
    }

    /** The service's view: the lease's expiry passed without renewal or release. */
    record LeaseExpired(long seq, long atMicros, String holder, String scope,
                        @JsonFormat(shape = JsonFormat.Shape.STRING) long token) implements Event {
        @Override
        public Long tokenOrNull() {
            return token;
        }
    }

    record LeaseReleased(long seq, long atMicros, String holder, String scope,
                         @JsonFormat(shape = JsonFormat.Shape.STRING) long token) implements Event {
        @Override
        public Long tokenOrNull() {
            return token;
        }
    }

    // ---- faults ------------------------------------------------------------------------------

    /** The holder stops: it cannot act or observe time until {@link PauseEnded}. */
    record PauseStarted(long seq, long atMicros, String holder, long durationMicros, String cause) implements Event {}

    record PauseEnded(long seq, long atMicros, String holder) implements Event {}

    /** A fault began; {@code appliesTo} is a holder name, {@code all} or {@code database}. */
    record FaultInjected(long seq, long atMicros, String fault, String appliesTo, long durationMicros,
                         @MayBeAbsent String detail)
            implements Event {}

    record FaultHealed(long seq, long atMicros, String fault, String appliesTo) implements Event {}

    // ---- writes (what the resources say) ------------------------------------------------------

    record WriteAttempted(long seq, long atMicros, String holder, String scope,
                          @JsonFormat(shape = JsonFormat.Shape.STRING) long token, TargetKind target, String key,
                          @MayBeAbsent Long opSeq) implements Event {
        @Override
        public Long tokenOrNull() {
            return token;
        }
    }

    /**
     * Applied. {@code valueDigest} identifies the value written without revealing it.
     * {@code replacedToken} is the token the resource held just before this write, as the database
     * applied it; null when the write created the resource (or the log predates the field). Live
     * runs can report two writes in the other order from the one the database applied them in;
     * this field is the database's own word on that order.
     */
    record WriteAccepted(long seq, long atMicros, String holder, String scope,
                         @JsonFormat(shape = JsonFormat.Shape.STRING) long token, TargetKind target, String key,
                         String valueDigest,
                         @MayBeAbsent @JsonFormat(shape = JsonFormat.Shape.STRING) Long replacedToken)
            implements Event {

        /** An accepted write with nothing known about what it replaced (hand-made logs, older logs). */
        public WriteAccepted(long seq, long atMicros, String holder, String scope, long token, TargetKind target,
                             String key, String valueDigest) {
            this(seq, atMicros, holder, scope, token, target, key, valueDigest, null);
        }

        @Override
        public Long tokenOrNull() {
            return token;
        }
    }

    record WriteRejectedStale(long seq, long atMicros, String holder, String scope,
                              @JsonFormat(shape = JsonFormat.Shape.STRING) long token, TargetKind target, String key,
                              @JsonFormat(shape = JsonFormat.Shape.STRING) long highest) implements Event {
        @Override
        public Long tokenOrNull() {
            return token;
        }
    }

    record WriteMissing(long seq, long atMicros, String holder, String scope,
                        @JsonFormat(shape = JsonFormat.Shape.STRING) long token, TargetKind target, String key)
            implements Event {
        @Override
        public Long tokenOrNull() {
            return token;
        }
    }

    record WriteOutOfOrder(long seq, long atMicros, String holder, String scope,
                           @JsonFormat(shape = JsonFormat.Shape.STRING) long token, TargetKind target, String key,
                           long opSeq, long highestOpSeq) implements Event {
        @Override
        public Long tokenOrNull() {
            return token;
        }
    }

    // ---- belief (what the holder thinks) ------------------------------------------------------

    /** The holder starts believing it holds the lease with {@code token}. */
    record BeliefStarted(long seq, long atMicros, String holder, String scope,
                         @JsonFormat(shape = JsonFormat.Shape.STRING) long token) implements Event {
        @Override
        public Long tokenOrNull() {
            return token;
        }
    }

    /** The holder stops believing it; {@code reason} says what told it (released, renewal failed, stale, …). */
    record BeliefEnded(long seq, long atMicros, String holder, String scope,
                       @JsonFormat(shape = JsonFormat.Shape.STRING) long token, String reason) implements Event {
        @Override
        public Long tokenOrNull() {
            return token;
        }
    }

    // ---- live changes ------------------------------------------------------------------------

    /**
     * A live run's setting was changed while it ran; it applies from {@code atMicros} on. {@code from}
     * is null when something was added (a fault), {@code to} when something was removed.
     */
    record SettingChanged(long seq, long atMicros, String setting, @MayBeAbsent String from,
                          @MayBeAbsent String to) implements Event {}

    // ---- trouble -----------------------------------------------------------------------------

    /** An operation failed for a reason other than the protocol (connection killed, database down). */
    record OperationFailed(long seq, long atMicros, String holder, String operation,
                           @MayBeAbsent String reason) implements Event {}
}
