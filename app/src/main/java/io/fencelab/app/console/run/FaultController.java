package io.fencelab.app.console.run;

import io.fencelab.app.console.model.ConsoleModel;
import io.fencelab.app.console.model.HandFault;
import io.fencelab.engine.chaos.FaultSpec;
import io.fencelab.engine.clock.RunTimes;
import java.time.Duration;

/**
 * Faults added by hand: into a running live run at once, or into a simulated run by running it
 * again with the same seed up to now and on with the fault in place. Lists them in the model.
 */
public final class FaultController {

    private final ConsoleModel model;
    private final RunSessions sessions;

    public FaultController(ConsoleModel model, RunSessions sessions) {
        this.model = model;
        this.sessions = sessions;
    }

    /**
     * Adds a fault on {@code holder} starting now. A live run under way takes it at once. A
     * simulated run is deterministic, so it is run again with the same seed up to now, as fast as
     * possible, and goes on with the fault in place: everything before now happens exactly as it did.
     */
    public void injectFault(HandFault fault, String holder) {
        if (holder == null || sessions.baseSpec() == null || sessions.drivers().isEmpty()
                || !model.capabilitiesProperty().get().handFaults()) {
            return;
        }
        long now = sessions.drivers().getFirst().nowMicros();
        Duration length = Duration.ofNanos((long) (model.faultSecondsProperty().get() * 1e9));
        Duration amount = fault == HandFault.DELAY ? length.dividedBy(2) : Duration.ZERO;
        String words = fault.words + " on " + holder
                + (fault == HandFault.KILL_CONNECTION ? "" : " for " + RunTimes.brief(length.toNanos() / 1_000))
                + (fault == HandFault.DELAY ? " (+" + RunTimes.brief(amount.toNanos() / 1_000) + " per request)" : "");
        if (model.capabilitiesProperty().get().liveChanges()) {
            injectLive(fault, holder, length, amount, words);
            return;
        }
        FaultSpec spec = SpecEditor.withFault(sessions.baseSpec(), fault.kind, holder, now + 1, length, amount)
                .faults().getLast();
        sessions.addHandFault(spec);
        model.handFaults().add(RunTimes.precise(now) + ": " + words);
        sessions.restartFrom(now);
    }

    /** A fault into the running live run; it is in the run's log, so it is not kept for a restart. */
    private void injectLive(HandFault fault, String holder, Duration length, Duration amount, String words) {
        RunDriver live = sessions.liveRunUnderway();
        if (live == null) {
            model.messageProperty().set("A live run takes faults while it runs: press play first "
                    + "(or restart it if it is over).");
            return;
        }
        try {
            live.injectFault(fault.kind, holder, length, amount);
            model.handFaults().add(RunTimes.precise(live.nowMicros()) + ": " + words + " (live)");
        } catch (IllegalArgumentException | IllegalStateException e) {
            model.messageProperty().set("Could not inject the fault: " + e.getMessage() + ".");
        }
    }

    /** Forgets the faults added by hand and runs again from the start. */
    public void clearHandFaults() {
        if (sessions.clearHandFaults()) {
            sessions.restart(0);
        }
    }
}
