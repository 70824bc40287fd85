package io.fencelab.report;

import java.util.List;

/**
 * A stretch of run time on a lane of a {@link Timeline}. Times are run microseconds; a span still
 * open when the log ends is closed at the run's end and says so ({@code openAtEnd}). Each span names
 * the events that bound it ({@code startSeq}, {@code endSeq}; 0 when there is none), so a witness can
 * point at it.
 */
public sealed interface Span {

    /** What a span shows, one row (or shading) of a lane each. */
    enum Kind { HELD, BELIEVED, GAP, PAUSE, FAULT }

    Kind kind();

    long startMicros();

    long endMicros();

    /** The seqs of the events that start and end this span (none for a {@link Coalesced} span). */
    List<Long> seqs();

    default long durationMicros() {
        return endMicros() - startMicros();
    }

    /**
     * Whether the span was still open when the log ended (closed at the run's end for drawing): a
     * lease still held, a belief still held (and its gap), a pause or fault not yet over. While a run
     * goes on, a view may draw such a span on to the playhead.
     */
    boolean openAtEnd();

    /** Why the lease service stopped counting a lease as held. */
    enum HeldEnd { EXPIRED, RELEASED, RUN_END }

    /**
     * The lease service says {@code holder} holds the lease on {@code scope}: from {@code LeaseAcquired}
     * to {@code LeaseExpired} or {@code LeaseReleased}. Renewals extend it rather than start a new span.
     *
     * @param token        the service's counter (the span's label)
     * @param fencingToken what the holder presents; differs from {@code token} only under broken schemes
     */
    record Held(long startMicros, long endMicros, String scope, long token, long fencingToken, int renewals,
                HeldEnd end, long startSeq, long endSeq) implements Span {
        @Override
        public Kind kind() {
            return Kind.HELD;
        }

        @Override
        public List<Long> seqs() {
            return seqsOf(startSeq, endSeq);
        }

        @Override
        public boolean openAtEnd() {
            return end == HeldEnd.RUN_END;
        }
    }

    /**
     * The holder believes it holds the lease with {@code token}: {@code BeliefStarted} to
     * {@code BeliefEnded}. {@code endReason} is what told it otherwise, or null while still believed
     * at the end of the log.
     */
    record Believed(long startMicros, long endMicros, String scope, long token, String endReason, long startSeq,
                    long endSeq) implements Span {
        @Override
        public Kind kind() {
            return Kind.BELIEVED;
        }

        @Override
        public List<Long> seqs() {
            return seqsOf(startSeq, endSeq);
        }

        @Override
        public boolean openAtEnd() {
            return endReason == null;
        }
    }

    /**
     * The dangerous stretch: the holder still believes it holds {@code token} after the lease service
     * stopped counting it as held (or never did). Starts at the service's end ({@code startSeq} is
     * the {@code LeaseExpired} or {@code LeaseReleased}, 0 if never held) and ends with the belief.
     */
    record Gap(long startMicros, long endMicros, String scope, long token, long startSeq, long endSeq)
            implements Span {
        @Override
        public Kind kind() {
            return Kind.GAP;
        }

        /** Open while its belief is: no event ended it (a belief replaced by another ends at that one's start). */
        @Override
        public boolean openAtEnd() {
            return endSeq == 0;
        }

        @Override
        public List<Long> seqs() {
            return seqsOf(startSeq, endSeq);
        }
    }

    /** The holder is paused ({@code PauseStarted} to {@code PauseEnded}). */
    record Pause(long startMicros, long endMicros, String cause, long startSeq, long endSeq) implements Span {
        @Override
        public Kind kind() {
            return Kind.PAUSE;
        }

        @Override
        public boolean openAtEnd() {
            return endSeq == 0;
        }

        @Override
        public List<Long> seqs() {
            return seqsOf(startSeq, endSeq);
        }
    }

    /**
     * A fault other than a pause ({@code FaultInjected} to {@code FaultHealed}); zero length for an
     * instantaneous fault such as a connection kill. {@code detail} may be null.
     */
    record Fault(long startMicros, long endMicros, String fault, String appliesTo, String detail, long startSeq,
                 long endSeq) implements Span {
        @Override
        public Kind kind() {
            return Kind.FAULT;
        }

        /** Not healed by the end of the log; an instantaneous fault (zero length) never is open. */
        @Override
        public boolean openAtEnd() {
            return endSeq == 0 && endMicros > startMicros;
        }

        @Override
        public List<Long> seqs() {
            return seqsOf(startSeq, endSeq);
        }
    }

    /**
     * Several spans of one kind merged by {@link Timeline#aggregated(int)} because a lane had more than
     * a report can usefully draw; {@code count} says how many. The detail stays in the event log.
     */
    record Coalesced(Kind kind, long startMicros, long endMicros, int count) implements Span {
        @Override
        public boolean openAtEnd() {
            return false;
        }

        @Override
        public List<Long> seqs() {
            return List.of();
        }
    }

    private static List<Long> seqsOf(long start, long end) {
        if (start == 0 && end == 0) {
            return List.of();
        }
        if (start == 0 || end == 0 || start == end) {
            return List.of(start == 0 ? end : start);
        }
        return List.of(start, end);
    }
}
