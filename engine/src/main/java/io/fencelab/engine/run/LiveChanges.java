package io.fencelab.engine.run;

import io.fencelab.engine.chaos.Distribution;
import io.fencelab.engine.chaos.FaultKind;
import io.fencelab.engine.chaos.FaultOccurrence;
import io.fencelab.engine.chaos.FaultPlan;
import io.fencelab.engine.chaos.FaultSpec;
import io.fencelab.engine.event.Event;
import io.fencelab.engine.lease.LeaseProfile;
import io.fencelab.engine.worker.WorkerSpec;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/**
 * What a running live run lets its user change, and how: a changed spec ({@link #change}) and a fault
 * by hand ({@link #inject}). Settings fixed for a run are refused by name; every change is recorded
 * as a {@code SettingChanged} event; workers join and leave; faults added or removed go to the run's
 * {@link FaultScheduler}, which starts, cancels and heals them.
 *
 * <p>Not thread-safe on its own: {@link LiveExecutor} calls it under the lock with which it ends the
 * run, so a change is either refused as too late or recorded before {@code RunEnded}.
 */
final class LiveChanges {

    private final RunCore run;
    private final FaultScheduler faults;
    /** Live changes so far: salts the generators of what they add. */
    private int changes;

    LiveChanges(RunCore run, FaultScheduler faults) {
        this.run = run;
        this.faults = faults;
    }

    /** See {@link LiveExecutor#inject}. */
    FaultOccurrence inject(FaultKind kind, String target, Duration length, Duration amount) {
        if (run.finished()) {
            throw new IllegalStateException("the run is over");
        }
        boolean onDatabase = FaultSpec.DATABASE.equals(target);
        if (kind == FaultKind.DATABASE_RESTART != onDatabase) {
            throw new IllegalArgumentException("a database restart targets 'database'; other faults target a holder");
        }
        if (onDatabase) {
            run.store().restartRefusal().ifPresent(why -> {
                throw new IllegalArgumentException(why);
            });
        }
        if (!onDatabase && !run.hasWorker(target)) {
            throw new IllegalArgumentException("no holder named '" + target + "' in this run");
        }
        if (length.isNegative()) {
            throw new IllegalArgumentException("a fault cannot last a negative time");
        }
        FaultOccurrence f = new FaultOccurrence(kind, target, Duration.ofNanos(run.nowMicros() * 1_000),
                kind == FaultKind.CONNECTION_KILL ? Duration.ZERO : length, amount == null ? Duration.ZERO : amount);
        add(new PlannedFault(f, null, true));
        return f;
    }

    /** See {@link LiveExecutor#change}. */
    void change(RunSpec next) {
        if (run.finished()) {
            throw new IllegalStateException("the run is over");
        }
        RunSpec cur = run.current();
        List<String> fixed = new ArrayList<>();
        check(fixed, "name", cur.name(), next.name());
        check(fixed, "first tokens", cur.firstTokens(), next.firstTokens());
        check(fixed, "first write", cur.firstWrite(), next.firstWrite());
        check(fixed, "seed", cur.seed(), next.seed());
        check(fixed, "duration", cur.duration(), next.duration());
        check(fixed, "executor", cur.executor(), next.executor());
        check(fixed, "time scale", cur.timeScale(), next.timeScale());
        // The running spec holds the started server's address: the service and its token are what is fixed.
        check(fixed, "lease service", cur.service().kind(), next.service().kind());
        check(fixed, "lease token", cur.service().token(), next.service().token());
        // A pause at a grant is armed before the workers start: one added now would never happen.
        check(fixed, "pauses at a grant", GrantPauses.of(cur.faults()), GrantPauses.of(next.faults()));
        if (!fixed.isEmpty()) {
            throw new IllegalArgumentException("cannot change during a live run: " + String.join(", ", fixed));
        }
        changes++;
        run.changeSettings(() -> {
            run.change(next);
            if (cur.lease() instanceof LeaseProfile.Generic && next.lease() instanceof LeaseProfile.Generic) {
                if (!cur.leaseTtl().equals(next.leaseTtl())) {
                    changed("leaseTtl", Distribution.text(cur.leaseTtl()), Distribution.text(next.leaseTtl()));
                }
                if (!cur.renewInterval().equals(next.renewInterval())) {
                    changed("renewEvery", Distribution.text(cur.renewInterval()), Distribution.text(next.renewInterval()));
                }
            } else if (!cur.lease().equals(next.lease())) {
                changed("lease", cur.lease().describe(), next.lease().describe());
            }
            if (cur.fencing() != next.fencing()) {
                changed("fencing", cur.fencing().name(), next.fencing().name());
            }
            if (cur.tokenScheme() != next.tokenScheme()) {
                changed("tokenScheme", cur.tokenScheme().name(), next.tokenScheme().name());
            }
        });
        List<WorkerPlacement.Placed> added = changeWorkers(cur, next);
        changeFaults(cur, next, added);
        long now = run.nowMicros();
        for (WorkerPlacement.Placed w : added) {
            w.startAfter(Duration.ofNanos(Math.max(0, RunCore.micros(w.spec().startAt()) - now) * 1_000));
        }
    }

    private static void check(List<String> fixed, String name, Object was, Object now) {
        if (!was.equals(now)) {
            fixed.add(name);
        }
    }

    private void changed(String setting, String from, String to) {
        run.sink().publish(seq -> new Event.SettingChanged(seq, run.nowMicros(), setting, from, to));
    }

    /** Retires the workers {@code next} leaves out and adds the ones it brings; returns the added ones. */
    private List<WorkerPlacement.Placed> changeWorkers(RunSpec cur, RunSpec next) {
        Set<String> before = new LinkedHashSet<>();
        cur.workers().forEach(w -> before.add(w.name()));
        Set<String> after = new LinkedHashSet<>();
        next.workers().forEach(w -> after.add(w.name()));
        if (before.equals(after)) {
            return List.of();
        }
        changed("workers", String.valueOf(before.size()), String.valueOf(after.size()));
        for (String name : before) {
            if (!after.contains(name)) {
                run.worker(name).retire();
            }
        }
        List<WorkerPlacement.Placed> added = new ArrayList<>();
        for (WorkerSpec w : next.workers()) {
            if (!before.contains(w.name())) {
                WorkerPlacement.Placed existing = run.worker(w.name());
                if (existing != null) {
                    throw new IllegalArgumentException("worker '" + w.name() + "' left this run and cannot rejoin it");
                }
                added.add(run.addWorker(w, changes));
            }
        }
        return added;
    }

    /**
     * Cancels (or heals now) the occurrences of the fault specs {@code next} removes, and plans the
     * ones it adds, and those on every holder for the workers that joined.
     */
    private void changeFaults(RunSpec cur, RunSpec next, List<WorkerPlacement.Placed> addedWorkers) {
        List<FaultSpec> removed = new ArrayList<>(cur.faults());
        next.faults().forEach(removed::remove);
        List<FaultSpec> added = new ArrayList<>(next.faults());
        cur.faults().forEach(added::remove);
        long now = run.nowMicros();
        for (FaultSpec gone : removed) {
            changed("fault", gone.describe(), null);
            faults.stopPlanOf(gone);
            for (PlannedFault pf : run.faults().registered()) {
                if (gone.equals(pf.spec) && !pf.cut()) {
                    faults.cancel(pf, now);
                }
            }
        }
        List<String> holders = next.workers().stream().map(WorkerSpec::name).toList();
        for (FaultSpec spec : added) {
            changed("fault", null, spec.describe());
            plan(spec, holders, now);
        }
        if (!addedWorkers.isEmpty()) {
            // Faults on every holder apply to the new ones too.
            List<String> newNames = addedWorkers.stream().map(WorkerPlacement.Placed::name).toList();
            for (FaultSpec spec : next.faults()) {
                if (FaultSpec.ALL.equals(spec.target()) && !added.contains(spec)) {
                    plan(spec, newNames, now);
                }
            }
        }
    }

    /** Expands {@code spec} over {@code holders} from run time {@code now} and schedules what it gives. */
    private void plan(FaultSpec spec, List<String> holders, long now) {
        long seed = run.current().seed() ^ (0x9E3779B97F4A7C15L * changes);
        for (FaultOccurrence o : FaultPlan.expandFrom(spec, holders, Duration.ofNanos(now * 1_000),
                run.current().duration(), seed)) {
            add(new PlannedFault(o, spec, false));
        }
    }

    /** Makes an occurrence visible to the workers' fault queries, and schedules its start and heal. */
    private void add(PlannedFault pf) {
        run.faults().register(pf);
        faults.schedule(pf);
    }
}
