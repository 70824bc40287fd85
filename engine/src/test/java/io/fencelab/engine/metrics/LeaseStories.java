package io.fencelab.engine.metrics;

import io.fencelab.engine.event.Event.BeliefEnded.Cause;
import io.fencelab.testing.LogBuilder;

/**
 * Hand-built 20 s logs of one scope that several metric tests read, each for its own figure: A holds
 * the lease and B waits for it, then something takes A's lease away.
 */
final class LeaseStories {

    private LeaseStories() {
    }

    /** A holds {@code scope} from 0 s (token 1, until {@code expiresAt}) and believes it; B is refused at 1 s. */
    static LogBuilder aHoldsAndBWaits(String scope, double expiresAt) {
        LogBuilder log = new LogBuilder();
        log.runStarted();
        log.acquired(0, "A", scope, 1, expiresAt);
        log.beliefStarted(0, "A", scope, 1);
        log.busy(1, "B", scope, "A", 1);
        return log;
    }

    /** A freezes at 4 s for 12 s; its lease runs out at 10 s; B is granted it at 12 s; A hears of it at 16 s. */
    static LogBuilder frozenLeader() {
        LogBuilder log = aHoldsAndBWaits("leader", 10);
        log.pauseStarted(4, "A", 12);
        log.expired(10, "A", "leader", 1);
        log.acquired(12, "B", "leader", 2, 22);
        log.beliefStarted(12, "B", "leader", 2);
        log.pauseEnded(16, "A");
        log.beliefEnded(16, "A", "leader", 1, Cause.RENEWAL_REFUSED, "renewal failed");
        log.runEnded(20);
        return log;
    }

    /** A crashes at 4 s for good; its lease runs out at 10 s; B is granted it at 11 s. */
    static LogBuilder crashedLeader() {
        LogBuilder log = aHoldsAndBWaits("leader", 10);
        log.crashed(4, "A", 0);
        log.beliefEnded(4, "A", "leader", 1, Cause.CRASHED, "crashed");
        log.expired(10, "A", "leader", 1);
        log.acquired(11, "B", "leader", 2, 21);
        log.beliefStarted(11, "B", "leader", 2);
        log.runEnded(20);
        return log;
    }

    /** A renews at 3 s (until 13 s), is refused a renewal at 6 s and gives up; B is granted it at the expiry. */
    static LogBuilder refusedRenewal() {
        LogBuilder log = aHoldsAndBWaits("s", 10);
        log.renewed(3, "A", "s", 1, 13);
        log.renewalFailed(6, "A", "s", 1, "renewal refused");
        log.beliefEnded(6, "A", "s", 1, Cause.RENEWAL_REFUSED, "renewal failed");
        log.expired(13, "A", "s", 1);
        log.acquired(13, "B", "s", 2, 23);
        log.beliefStarted(13, "B", "s", 2);
        log.runEnded(20);
        return log;
    }
}
