package io.fencelab.engine.run;

import io.fencelab.engine.chaos.FaultOccurrence;
import io.fencelab.engine.chaos.FaultPlan;
import io.fencelab.engine.chaos.FaultSpec;
import java.time.Duration;

/**
 * One occurrence of a run's fault plan, or one injected by hand. A live change can cancel it before
 * it starts or cut it short ({@link #cutAtMicros}); the {@link FaultScheduler}'s starts and heals
 * check for that, and so do the workers' fault queries.
 */
final class PlannedFault {
    final FaultOccurrence occurrence;
    /** The spec it was expanded from; null for a fault injected by hand. */
    final FaultSpec spec;
    final boolean byHand;
    /** Its place in the plan the run started with; null for one added later (by hand, by a live change, at a failpoint). */
    final FaultPlan.Place place;
    volatile long cutAtMicros = Long.MAX_VALUE;

    PlannedFault(FaultOccurrence occurrence, FaultSpec spec, boolean byHand) {
        this(occurrence, spec, byHand, null);
    }

    PlannedFault(FaultOccurrence occurrence, FaultSpec spec, boolean byHand, FaultPlan.Place place) {
        this.occurrence = occurrence;
        this.spec = spec;
        this.byHand = byHand;
        this.place = place;
    }

    FaultOccurrence occurrence() {
        return occurrence;
    }

    boolean activeAt(long micros) {
        return micros < cutAtMicros && occurrence.activeAt(Duration.ofNanos(micros * 1_000));
    }

    boolean cut() {
        return cutAtMicros != Long.MAX_VALUE;
    }
}
