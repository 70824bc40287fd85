package io.fencelab.engine.worker;

import io.fencelab.engine.event.Event;
import io.fencelab.engine.fence.WriteOutcome;
import java.nio.charset.StandardCharsets;
import java.util.function.LongFunction;

/** What a job writes and how its outcomes are recorded, apart from when the worker sends them. */
final class JobWrites {

    private JobWrites() {
    }

    /**
     * The value write {@code index} of {@code holder}'s job {@code job} writes: text, or bytes for an
     * object. A user fence's body names holder, token and sequence, so its read-back tells whose write
     * the row holds.
     */
    static Object value(WorkerSpec spec, TargetWrite tw, int index, String holder, int job, long token, Long opSeq) {
        // Several writes of one job to the same key are different operations, so their values differ.
        String op = spec.writes().stream().filter(w -> w.equals(tw)).count() > 1 ? ", op " + (index + 1) : "";
        String text = switch (tw.target()) {
            case ROW -> "report by " + holder + ", job " + job + op;
            case OBJECT -> "object written by " + holder + ", job " + job + op;
            case POINTER -> "objects/" + holder + "-job-" + job + op;
            case SQL -> "written by " + holder + " with token " + token + ", job " + job + op
                    + (opSeq == null ? "" : ", seq " + opSeq);
        };
        return tw.target() == io.fencelab.engine.resource.TargetKind.OBJECT ? text.getBytes(StandardCharsets.UTF_8) : text;
    }

    /**
     * The event that records {@code outcome} of a write of {@code tw} by {@code me} with {@code token},
     * timed when the bus numbers it (a live run's events are numbered in time order).
     */
    static LongFunction<Event> outcomeEvent(WriteOutcome outcome, WorkerEnv env, String me, String scope,
                                            TargetWrite tw, String digest, long token) {
        return switch (outcome) {
            case WriteOutcome.Accepted a -> seq -> new Event.WriteAccepted(seq, env.nowMicros(), me,
                    scope, a.token(), tw.target(), tw.key(), digest, a.replaced());
            case WriteOutcome.Stale s -> seq -> new Event.WriteRejectedStale(seq, env.nowMicros(), me,
                    scope, s.presented(), tw.target(), tw.key(), s.highest());
            case WriteOutcome.Missing m -> seq -> new Event.WriteMissing(seq, env.nowMicros(), me,
                    scope, token, tw.target(), tw.key());
            case WriteOutcome.OutOfOrder o -> seq -> new Event.WriteOutOfOrder(seq, env.nowMicros(), me,
                    scope, o.token(), tw.target(), tw.key(), o.presentedSeq(), o.highestSeq());
        };
    }
}
