package io.fencelab.engine.run;

import io.fencelab.engine.chaos.FaultKind;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.LongSupplier;

/**
 * The fault occurrences a run's workers can be hit by now: what a worker asks on every statement
 * (its request delay, whether its renewals are dropped…). Part of every executor; the
 * {@link FaultScheduler} decides when occurrences start and heal, this only answers "what is active".
 */
final class ActiveFaults {

    /**
     * Occurrences by "target/kind": workers ask about their own faults on every statement, and a live
     * run adds to them while workers read, hence copy-on-write lists.
     */
    private final Map<String, List<PlannedFault>> byTarget = new ConcurrentHashMap<>();
    private final LongSupplier nowMicros;

    ActiveFaults(LongSupplier nowMicros) {
        this.nowMicros = nowMicros;
    }

    /**
     * Makes an occurrence visible to the workers' fault queries, and forgets those of its target and
     * kind that have ended (none can be active again), so the queries stay short however long the run.
     */
    void register(PlannedFault f) {
        List<PlannedFault> mine = byTarget.computeIfAbsent(f.occurrence.target() + "/" + f.occurrence.kind(),
                k -> new CopyOnWriteArrayList<>());
        long now = nowMicros.getAsLong();
        mine.removeIf(old -> RunCore.micros(old.occurrence.end()) <= now);
        mine.add(f);
    }

    /** Every registered occurrence that has not ended, planned and added, in no particular order. */
    List<PlannedFault> registered() {
        return byTarget.values().stream().flatMap(List::stream).toList();
    }

    /** The sum of the amounts of {@code holder}'s active occurrences of {@code kind}. */
    Duration active(String holder, FaultKind kind) {
        List<PlannedFault> mine = byTarget.get(holder + "/" + kind);
        if (mine == null) {
            return Duration.ZERO;
        }
        long t = nowMicros.getAsLong();
        Duration total = Duration.ZERO;
        for (PlannedFault f : mine) {
            if (f.activeAt(t)) {
                total = total.plus(f.occurrence.amount());
            }
        }
        return total;
    }

    boolean anyActive(String target, FaultKind kind) {
        List<PlannedFault> mine = byTarget.get(target + "/" + kind);
        long t = nowMicros.getAsLong();
        return mine != null && mine.stream().anyMatch(f -> f.activeAt(t));
    }
}
