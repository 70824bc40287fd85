package io.fencelab.engine.event;

import com.fasterxml.jackson.annotation.JsonFormat;
import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonSubTypes;
import com.fasterxml.jackson.annotation.JsonTypeInfo;
import io.fencelab.engine.resource.TargetKind;
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
        @JsonSubTypes.Type(Event.WriteContradicted.class),
        @JsonSubTypes.Type(Event.BeliefStarted.class),
        @JsonSubTypes.Type(Event.BeliefEnded.class),
        @JsonSubTypes.Type(Event.OperationFailed.class),
        @JsonSubTypes.Type(Event.SettingChanged.class),
        @JsonSubTypes.Type(Event.AgentReport.class),
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

    /**
     * Last event of a log: how the run ended ({@code end}), why it failed when it did ({@code cause}),
     * and the same in words ({@code reason}: {@code completed}, {@code stopped} or {@code failed: <cause>})
     * for people reading the log. Code reads {@link #ending()}, never the words.
     *
     * <p>Logs written before {@code end} was recorded have only the words; {@link Reason#ofWords} reads
     * them, the one place that does.
     */
    record RunEnded(long seq, long atMicros, @MayBeAbsent End end, @MayBeAbsent String cause, String reason)
            implements Event {

        public RunEnded {
            if (end == null) {
                Reason read = Reason.ofWords(reason);
                end = read.end();
                cause = read.cause();
            } else {
                new Reason(end, cause); // checks that a cause comes with FAILED and only with it
            }
        }

        public RunEnded(long seq, long atMicros, Reason ending) {
            this(seq, atMicros, ending.end(), ending.cause(), ending.words());
        }

        /** How the run ended, typed. */
        public Reason ending() {
            return new Reason(end, cause);
        }

        /** How a run ends. */
        public enum End {
            /** It ran for its whole duration. */
            COMPLETED,
            /** Its user stopped it. */
            STOPPED,
            /** It could not go on (the database broke or went away, the log could not be written); see {@code cause}. */
            FAILED
        }

        /**
         * How a run ended, with the cause when it failed: the one wording of an end reason
         * ({@link #words()}).
         *
         * @param cause why a {@link End#FAILED} run failed, in a few words ({@code permission denied for table
         *              lease}); null for the other ends
         */
        public record Reason(End end, String cause) {

            public static final Reason COMPLETED = new Reason(End.COMPLETED, null);
            public static final Reason STOPPED = new Reason(End.STOPPED, null);
            private static final String FAILED_PREFIX = "failed: ";

            public Reason {
                java.util.Objects.requireNonNull(end, "end");
                if ((end == End.FAILED) != (cause != null)) {
                    throw new IllegalArgumentException(end == End.FAILED
                            ? "a FAILED end needs a \"cause\"" : "only a FAILED end has a \"cause\", not " + end);
                }
            }

            /** The end of a run that failed because of {@code cause}. */
            public static Reason failed(String cause) {
                return new Reason(End.FAILED, cause);
            }

            public boolean completed() {
                return end == End.COMPLETED;
            }

            /** Whether the run failed: neither completed nor stopped by its user ({@code docs/RELIABILITY.md}). */
            public boolean failed() {
                return end == End.FAILED;
            }

            /** Why the run failed; empty unless it failed. */
            public java.util.Optional<String> failureCause() {
                return java.util.Optional.ofNullable(cause);
            }

            /** The one wording: {@code completed}, {@code stopped} or {@code failed: <cause>}. */
            public String words() {
                return switch (end) {
                    case COMPLETED -> "completed";
                    case STOPPED -> "stopped";
                    case FAILED -> FAILED_PREFIX + cause;
                };
            }

            @Override
            public String toString() {
                return words();
            }

            /**
             * The end a log written before {@code end} was recorded gives in words. Anything but
             * {@code completed} and {@code stopped} was a failure, {@code failed: } before its cause or not.
             */
            static Reason ofWords(String words) {
                if (words == null) {
                    throw new IllegalArgumentException("RunEnded needs field \"end\" or field \"reason\"");
                }
                return switch (words) {
                    case "completed" -> COMPLETED;
                    case "stopped" -> STOPPED;
                    default -> failed(words.startsWith(FAILED_PREFIX) ? words.substring(FAILED_PREFIX.length()) : words);
                };
            }
        }
    }

    // ---- leases (what the lease service says) ----------------------------------------------

    /**
     * The service granted a lease. {@code token} is the service's counter; {@code fencingToken} is
     * what the holder will present (equal under the monotonic scheme). {@code grantedAtMicros}: where the
     * service grants first and the holder takes its token in a later step (Redis's lock, then {@code INCR}),
     * when the grant was made, which can be long before the holder logs it with its token; absent where
     * grant and token are one step.
     */
    record LeaseAcquired(long seq, long atMicros, String holder, String scope,
                         @JsonFormat(shape = JsonFormat.Shape.STRING) long token,
                         @JsonFormat(shape = JsonFormat.Shape.STRING) long fencingToken,
                         long expiresAtMicros, @MayBeAbsent Long grantedAtMicros) implements Event {

        /** A grant whose token came with it. */
        public LeaseAcquired(long seq, long atMicros, String holder, String scope, long token, long fencingToken,
                             long expiresAtMicros) {
            this(seq, atMicros, holder, scope, token, fencingToken, expiresAtMicros, null);
        }

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

    /**
     * A user's SQL fence answered one thing and its row, read back in the same transaction, holds
     * another: it said accepted and the row does not hold the write (or holds it under another token:
     * a {@code float8} column rounds), or it said stale or missing and the row holds the write.
     * Follows the outcome event of the same write. {@code said} is what the statement answered
     * ({@code ACCEPTED}, {@code STALE}, {@code MISSING}, {@code REFUSED}); {@code heldToken} the
     * stored token exactly as the column holds it, null when the row is absent; {@code detail} the
     * same in one sentence, naming tokens, never the row's data.
     */
    record WriteContradicted(long seq, long atMicros, String holder, String scope,
                             @JsonFormat(shape = JsonFormat.Shape.STRING) long token, TargetKind target, String key,
                             String said, @MayBeAbsent @JsonFormat(shape = JsonFormat.Shape.STRING) String heldToken,
                             String detail) implements Event {
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

    /**
     * The holder stops believing it: {@code cause} is what told it, {@code reason} the same in the
     * worker's words for people (with details such as the tokens of a stale answer). Code reads the
     * cause, never the words.
     *
     * <p>Logs written before {@code cause} was recorded have only the words; {@link Cause#ofWords}
     * reads them, the one place that does, and leaves the cause null for words it does not know.
     */
    record BeliefEnded(long seq, long atMicros, String holder, String scope,
                       @JsonFormat(shape = JsonFormat.Shape.STRING) long token, @MayBeAbsent Cause cause,
                       String reason) implements Event {

        public BeliefEnded {
            if (cause == null) {
                cause = Cause.ofWords(reason);
            }
        }

        /** What ends a holder's belief that it holds the lease. */
        public enum Cause {
            /** Its process crashed (a {@code CRASH} fault). */
            CRASHED("crashed"),
            /** It released the lease after its last job. */
            RELEASED("released"),
            /** It asked to release, and the service said the lease was no longer its own. */
            RELEASE_REFUSED("release refused"),
            /** Its release could not be sent or answered (the service unreachable). */
            RELEASE_FAILED("release failed"),
            /** The service refused a renewal: the lease had expired or moved on. */
            RENEWAL_REFUSED("renewal failed"),
            /** No renewal succeeded within the lease profile's renew deadline, so it gave up on its own. */
            RENEW_DEADLINE("renew deadline"),
            /** A write was rejected as stale: a newer token had been presented. */
            STALE_ANSWER("stale"),
            /** Its own clock said the lease had expired before its next write. */
            OWN_CLOCK("its own clock");

            /** How the worker's words for this cause began in logs written before the cause was recorded. */
            private final String oldWords;

            Cause(String oldWords) {
                this.oldWords = oldWords;
            }

            /**
             * The cause a log written before {@code cause} was recorded gives in words, or null for
             * words no Fencelab wrote. Reading old logs is the only use of the words.
             */
            static Cause ofWords(String reason) {
                if (reason == null) {
                    return null;
                }
                Cause found = null;
                for (Cause c : values()) {
                    // The longest match wins: "release failed" is not "released".
                    if (reason.startsWith(c.oldWords) && (found == null || c.oldWords.length() > found.oldWords.length())) {
                        found = c;
                    }
                }
                return found;
            }
        }
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

    // ---- processes (process runs only) --------------------------------------------------------

    /**
     * News of a process run's agents and hosts ({@code docs/DISTRIBUTED.md}): an agent is up
     * ({@code STARTED}, with its pid and its host's clock offset) or gone ({@code EXITED}), a host's clock
     * was measured again ({@code CLOCK}), or a host stopped answering ({@code LOST}). Offsets are the
     * database's time minus the host's, within plus or minus the uncertainty; the verdict never uses
     * them (see {@code docs/EVENTS.md}).
     */
    record AgentReport(long seq, long atMicros, Kind kind, String host, @MayBeAbsent String holder,
                       @MayBeAbsent Long pid, @MayBeAbsent Long clockOffsetMicros,
                       @MayBeAbsent Long clockUncertaintyMicros, @MayBeAbsent String detail) implements Event {
        /** What happened to the agent or host. */
        public enum Kind { STARTED, EXITED, CLOCK, LOST }
    }

    // ---- trouble -----------------------------------------------------------------------------

    /** An operation failed for a reason other than the protocol (connection killed, database down). */
    record OperationFailed(long seq, long atMicros, String holder, String operation,
                           @MayBeAbsent String reason) implements Event {}
}
