package io.fencelab.engine.check;

/**
 * The checker's classification of one write outcome event.
 *
 * @param seq           the outcome event ({@code WriteAccepted}, {@code WriteRejectedStale},
 *                      {@code WriteMissing} or {@code WriteOutOfOrder})
 * @param against       the newer token that decided it: the one it overwrote for
 *                      {@link WriteClass#STALE_OVERWRITE}, the resource's highest for
 *                      {@link WriteClass#REJECTED_STALE}; null otherwise
 * @param againstSeq    for a stale overwrite, the seq of the newer write it went over when that
 *                      write was already in the log when it was judged; 0 otherwise
 */
public record WriteJudgement(long seq, WriteClass kind, Long against, long againstSeq) {

    public boolean isStaleOverwrite() {
        return kind == WriteClass.STALE_OVERWRITE;
    }
}
