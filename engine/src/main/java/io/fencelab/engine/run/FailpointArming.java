package io.fencelab.engine.run;

import io.fencelab.engine.chaos.FaultKind;
import io.fencelab.engine.chaos.FaultOccurrence;
import io.fencelab.engine.chaos.FaultSpec;
import io.fencelab.engine.failpoint.Failpoint;
import io.fencelab.engine.store.StoreSession;
import io.fencelab.engine.worker.Worker;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Consumer;
import java.util.function.Supplier;

/**
 * A run's failpoints (tests only): which are armed for which worker, and what happens when a
 * statement reaches one. Part of every executor; an executor runs each of its actions through
 * {@link #act}, so that an after-statement failpoint happens once the action is done.
 */
final class FailpointArming {

    private record Armed(Failpoint point, String holder, FailpointAction action, AtomicBoolean fired) {}

    private final RunCore run;
    private final FaultScheduler faults;
    /** The worker whose action runs now on this thread, or null (a fault, an expiry watch). */
    private final Supplier<Worker> acting;
    /** Told the holder a failpoint is armed for: an executor may give it a connection of its own. */
    private final Consumer<String> armedFor;
    /** Armed failpoints; empty in production, where the store has no seam installed at all. */
    private final List<Armed> armed = new CopyOnWriteArrayList<>();
    /** Per action (its thread), what an after-statement failpoint does once the action is done; null when none. */
    private final ThreadLocal<List<Runnable>> afterAction = new ThreadLocal<>();

    FailpointArming(RunCore run, FaultScheduler faults, Supplier<Worker> acting, Consumer<String> armedFor) {
        this.run = run;
        this.faults = faults;
        this.acting = acting;
        this.armedFor = armedFor;
    }

    /** See {@link Executor#armFailpoint}. */
    void arm(Failpoint point, String holder, FailpointAction action) {
        if (!run.hasWorker(holder)) {
            throw new IllegalArgumentException("no worker named '" + holder + "' to arm " + point + " for; workers: "
                    + run.workerNames());
        }
        if (armed.isEmpty()) {
            run.store().failpoints(this::reached);
        }
        armed.add(new Armed(point, holder, action, new AtomicBoolean()));
        armedFor.accept(holder);
    }

    /** Runs one action of the run; an after-statement failpoint reached inside it happens once it is done. */
    void act(Runnable action) {
        if (armed.isEmpty()) {
            action.run();
            return;
        }
        List<Runnable> outer = afterAction.get();
        List<Runnable> mine = new ArrayList<>(1);
        afterAction.set(mine);
        try {
            action.run();
        } finally {
            afterAction.set(outer);
        }
        mine.forEach(Runnable::run);
    }

    /** Whether every armed failpoint has been reached. */
    boolean allReached() {
        return armed.stream().allMatch(a -> a.fired().get());
    }

    private void reached(Failpoint point, StoreSession session) {
        Worker w = acting.get();
        if (w == null) {
            return;
        }
        for (Armed a : armed) {
            if (a.point() == point && a.holder().equals(w.name()) && a.fired().compareAndSet(false, true)) {
                List<Runnable> after = afterAction.get();
                if (point.afterStatement() && after != null) {
                    after.add(() -> apply(a, session));
                } else {
                    apply(a, session);
                }
            }
        }
    }

    private void apply(Armed a, StoreSession session) {
        Duration now = Duration.ofNanos(run.nowMicros() * 1_000);
        FaultOccurrence occurrence = switch (a.action()) {
            case FailpointAction.KillConnection k ->
                    new FaultOccurrence(FaultKind.CONNECTION_KILL, a.holder(), now, Duration.ZERO, Duration.ZERO);
            case FailpointAction.RestartDatabase r -> new FaultOccurrence(FaultKind.DATABASE_RESTART,
                    FaultSpec.DATABASE, now, r.down(), Duration.ZERO);
            case FailpointAction.Pause p -> new FaultOccurrence(FaultKind.PAUSE, a.holder(), now, p.length(),
                    Duration.ZERO);
            case FailpointAction.StopDatabase s -> null;
            case FailpointAction.BreakDatabase b -> null;
        };
        if (a.action() instanceof FailpointAction.BreakDatabase b) {
            b.breakage().run(); // no fault: whatever broke it is outside the scenario
            return;
        }
        if (occurrence == null) {
            run.store().stop(); // no fault: the database is simply gone, as when its host dies
            return;
        }
        PlannedFault pf = new PlannedFault(occurrence, null, false);
        run.faults().register(pf);
        faults.atFailpoint(pf, a.point(), session);
    }
}
