package io.fencelab.engine.run;

import io.fencelab.engine.chaos.Distribution;
import io.fencelab.engine.chaos.FaultKind;
import io.fencelab.engine.chaos.FaultPlan;
import io.fencelab.engine.chaos.FaultSpec;
import io.fencelab.engine.chaos.FaultStart;
import io.fencelab.engine.worker.WorkerRole;
import io.fencelab.engine.worker.WorkerSpec;
import java.time.Duration;

/**
 * How many events a run will log, estimated from its spec before it runs, so that a scenario whose
 * log (and memory) would be out of all proportion is refused before it starts rather than after an
 * OutOfMemoryError. The figures are means (a job's events over its cycle, a repeating fault's over its
 * mean gap plus mean length), not bounds: a real run can log somewhat more or fewer.
 *
 * <p>A worker in the {@code jobs} role logs four events a job (grant, belief, release, belief's end)
 * plus two a write (attempt and outcome), one job every {@code workTime + idleTime}; a leader writes
 * again every {@code idleTime}; a renewing holder logs one event a renewal. A fault occurrence logs
 * two events (start and heal), a connection kill one.
 */
public final class EventEstimate {

    private EventEstimate() {
    }

    /** The events of the whole run: its start and end, every worker's and every fault's. */
    public static long of(RunSpec spec) {
        long total = 2;
        for (WorkerSpec w : spec.workers()) {
            total = plus(total, worker(w, spec));
        }
        for (FaultSpec f : spec.faults()) {
            total = plus(total, fault(f, spec.workers().size(), spec.duration()));
        }
        return total;
    }

    /** The events one worker of {@code spec} logs over the run. */
    public static long worker(WorkerSpec w, RunSpec spec) {
        long active = micros(spec.duration()) - micros(w.startAt());
        if (active <= 0) {
            return 0;
        }
        boolean leader = w.role() == WorkerRole.LEADER;
        long cycle = Math.max(1, micros(leader ? w.idleTime() : w.workTime().plus(w.idleTime())));
        double jobs = Math.ceil((double) active / cycle);
        if (w.jobs() > 0) {
            jobs = Math.min(jobs, w.jobs());
        }
        double perJob = (leader ? 0 : 4) + 2.0 * w.writes().size();
        long renew = micros(spec.renewInterval());
        double renewals = renew > 0 ? (double) active / renew : 0;
        return saturate(jobs * perJob + renewals);
    }

    /** The events a fault logs over a run of {@code runLength} with {@code holders} workers ({@code all} hits each). */
    public static long fault(FaultSpec f, int holders, Duration runLength) {
        int targets = FaultSpec.ALL.equals(f.target()) ? holders : 1;
        int perOccurrence = f.kind() == FaultKind.CONNECTION_KILL ? 1 : 2;
        return saturate((double) targets * perOccurrence * occurrences(f.start(), f.duration(), runLength));
    }

    /** How many times a fault starting so, each occurrence lasting {@code length}, comes in {@code runLength}. */
    public static double occurrences(FaultStart start, Distribution length, Duration runLength) {
        return switch (start) {
            case FaultStart.At at -> 1;
            case FaultStart.OnGrant onGrant -> 1;
            case FaultStart.Every every -> {
                long gap = Math.max(micros(every.gap().mean()), micros(FaultPlan.SMALLEST_GAP));
                yield Math.ceil((double) micros(runLength) / (gap + micros(length.mean())));
            }
        };
    }

    private static long plus(long a, long b) {
        long sum = a + b;
        return sum < 0 ? Long.MAX_VALUE : sum;
    }

    private static long saturate(double x) {
        return x >= Long.MAX_VALUE ? Long.MAX_VALUE : Math.round(x);
    }

    private static long micros(Duration d) {
        return RunCore.micros(d);
    }
}
