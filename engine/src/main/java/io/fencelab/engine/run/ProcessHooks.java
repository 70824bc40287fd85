package io.fencelab.engine.run;

import io.fencelab.engine.chaos.FaultKind;
import io.fencelab.engine.chaos.FaultSpec;
import io.fencelab.engine.event.Event.RunEnded;
import java.util.function.Consumer;
import java.util.function.Supplier;

/**
 * What a process run's real-time scheduler asks, on the run's side and in each agent alike: no holder
 * is held back by a pause here (a pause freezes the holder's whole process), actions run as they are,
 * and the run ends through {@code end}. The core is asked for lazily: it is built after its scheduler.
 */
record ProcessHooks(Supplier<RunCore> core, Consumer<RunEnded.Reason> end) implements RealTimeScheduler.LiveHost {

    @Override
    public long resumesAt(String holder) {
        return 0;
    }

    @Override
    public void act(Runnable action) {
        action.run();
    }

    @Override
    public boolean over() {
        RunCore c = core.get();
        return c == null || c.finished();
    }

    @Override
    public void finish(RunEnded.Reason reason) {
        end.accept(reason);
    }

    @Override
    public void databaseLost() {
        end.accept(RunResult.UNREACHABLE);
    }

    @Override
    public boolean restartPlanned() {
        RunCore c = core.get();
        return c != null && c.faults().anyActive(FaultSpec.DATABASE, FaultKind.DATABASE_RESTART);
    }
}
