package io.fencelab.report;

import io.fencelab.engine.check.WriteClass;
import io.fencelab.engine.resource.ResourceId;

/** A point on a lane: one write's outcome, or, in an aggregated timeline, a bucket of them. */
public sealed interface Mark {

    long startMicros();

    /**
     * One write's outcome ({@code WriteAccepted}, {@code WriteRejectedStale}, {@code WriteMissing} or
     * {@code WriteOutOfOrder}).
     *
     * @param highestBefore the highest token the resource had accepted before this write: the
     *                      refusing token for {@code REJECTED_STALE}, the overwritten one for
     *                      {@code STALE_OVERWRITE}; null when the resource had accepted nothing yet
     */
    record Write(long atMicros, long seq, String holder, ResourceId resource, long token, WriteClass kind,
                 Long highestBefore) implements Mark {
        @Override
        public long startMicros() {
            return atMicros;
        }
    }

    /**
     * The write outcomes of one time bucket {@code [startMicros, endMicros)}, counted per kind, where a
     * lane had too many to draw one by one.
     */
    record Bucket(long startMicros, long endMicros, long accepted, long rejectedStale, long missing,
                  long outOfOrder, long overwroteNewer) implements Mark {

        public long count(WriteClass kind) {
            return switch (kind) {
                case ACCEPTED -> accepted;
                case REJECTED_STALE -> rejectedStale;
                case MISSING -> missing;
                case OUT_OF_ORDER -> outOfOrder;
                case STALE_OVERWRITE -> overwroteNewer;
            };
        }

        public long total() {
            return accepted + rejectedStale + missing + outOfOrder + overwroteNewer;
        }
    }
}
