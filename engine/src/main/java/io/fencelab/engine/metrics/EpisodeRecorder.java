package io.fencelab.engine.metrics;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

/**
 * The failovers and lease losses {@link TuningCollector} counts, kept one by one as it counts them:
 * the first {@link TuningEpisodes#KEPT_PER_KIND} of each kind, the rest only counted. An episode
 * still under way (a failover waiting for its next grant, a loss whose scope is not granted again
 * yet) stays open here until the collector finishes it, so the lists can be asked for at any time.
 */
final class EpisodeRecorder {

    private final List<OpenFailover> failovers = new ArrayList<>();
    private final List<OpenLoss> losses = new ArrayList<>();
    private long failoversLeftOut;
    private long lossesLeftOut;

    /** A failover begun; its end is filled in by {@link OpenFailover#end}. Null when it is left out of the list. */
    OpenFailover failover(String scope, long fromMicros, String lostBy, Failover.Cause cause, String behind) {
        if (failovers.size() >= TuningEpisodes.KEPT_PER_KIND) {
            failoversLeftOut++;
            return null;
        }
        OpenFailover f = new OpenFailover(scope, fromMicros, lostBy, cause, behind);
        failovers.add(f);
        return f;
    }

    /** A lease loss; its next holder is filled in by {@link OpenLoss#nextGrant}. Null when it is left out of the list. */
    OpenLoss loss(long atMicros, String scope, String holder, long token, LeaseLoss.Kind kind, LeaseLoss.Reason reason,
                  Long pauseMicros) {
        if (losses.size() >= TuningEpisodes.KEPT_PER_KIND) {
            lossesLeftOut++;
            return null;
        }
        OpenLoss l = new OpenLoss(atMicros, scope, holder, token, kind, reason, pauseMicros);
        losses.add(l);
        return l;
    }

    /** The episodes so far, failovers in order of their start (a lost lease's failover is dated back to its pause). */
    TuningEpisodes episodes() {
        List<Failover> f = new ArrayList<>(failovers.size());
        for (OpenFailover each : failovers) {
            f.add(each.record());
        }
        f.sort(Comparator.comparingLong(Failover::fromMicros));
        List<LeaseLoss> l = new ArrayList<>(losses.size());
        for (OpenLoss each : losses) {
            l.add(each.record());
        }
        return new TuningEpisodes(f, l, failoversLeftOut, lossesLeftOut);
    }

    static final class OpenFailover {
        private final String scope;
        private final long fromMicros;
        private final String lostBy;
        private final Failover.Cause cause;
        private final String behind;
        private Long toMicros;
        private String nextHolder;

        private OpenFailover(String scope, long fromMicros, String lostBy, Failover.Cause cause, String behind) {
            this.scope = scope;
            this.fromMicros = fromMicros;
            this.lostBy = lostBy;
            this.cause = cause;
            this.behind = behind;
        }

        void end(long atMicros, String holder) {
            toMicros = atMicros;
            nextHolder = holder;
        }

        Failover record() {
            return new Failover(scope, fromMicros, toMicros, lostBy, nextHolder, cause, behind);
        }
    }

    static final class OpenLoss {
        private final long atMicros;
        private final String scope;
        private final String holder;
        private final long token;
        private final LeaseLoss.Kind kind;
        private final LeaseLoss.Reason reason;
        private final Long pauseMicros;
        private Long nextHolderAfterMicros;

        private OpenLoss(long atMicros, String scope, String holder, long token, LeaseLoss.Kind kind,
                         LeaseLoss.Reason reason, Long pauseMicros) {
            this.atMicros = atMicros;
            this.scope = scope;
            this.holder = holder;
            this.token = token;
            this.kind = kind;
            this.reason = reason;
            this.pauseMicros = pauseMicros;
        }

        /** The scope was granted again at {@code grantMicros} (a grant logged before the loss was reported counts as 0). */
        void nextGrant(long grantMicros) {
            nextHolderAfterMicros = Math.max(0, grantMicros - atMicros);
        }

        LeaseLoss record() {
            return new LeaseLoss(atMicros, scope, holder, token, kind, reason, pauseMicros, nextHolderAfterMicros);
        }
    }
}
