package io.fencelab.app.console.run;

import io.fencelab.app.console.model.ConsoleModel;
import io.fencelab.app.console.model.Parameters;
import io.fencelab.app.console.model.RunPhase;
import io.fencelab.engine.clock.Pacer;
import io.fencelab.engine.run.ExecutorKind;
import io.fencelab.engine.run.RunSpec;
import io.fencelab.scenarios.Scenario;
import java.util.random.RandomGenerator;

/**
 * Steering the runs on show: play, pause, step, speed, restart with the same seed or a new one, and
 * the parameter sheet (a live run under way takes a change from then on; any other run starts again).
 */
public final class RunController {

    private final ConsoleModel model;
    private final RunSessions sessions;
    private final ScenarioController scenarios;
    private final RandomGenerator seeds = RandomGenerator.getDefault();

    public RunController(ConsoleModel model, RunSessions sessions, ScenarioController scenarios) {
        this.model = model;
        this.sessions = sessions;
        this.scenarios = scenarios;
    }

    /** Plays the runs on show; runs that are over start again (a saved log plays on from its end). */
    public void play() {
        if (sessions.drivers().isEmpty()) {
            return;
        }
        if (sessions.allOver() && sessions.replayFile() == null) {
            sessions.restart(0, true);
            return;
        }
        sessions.drivers().forEach(RunDriver::play);
    }

    public void pause() {
        sessions.drivers().forEach(RunDriver::pause);
    }

    public void togglePlay() {
        if (sessions.playing()) {
            pause();
        } else {
            play();
        }
    }

    /** One more event (in each run shown), then paused. */
    public void step() {
        sessions.drivers().forEach(RunDriver::step);
    }

    /** Run seconds per real second, 0.01 to 100. */
    public void setSpeed(double speed) {
        double clamped = Math.max(Pacer.MIN_SPEED, Math.min(Pacer.MAX_SPEED, speed));
        model.speedProperty().set(clamped);
        sessions.applySpeed();
    }

    /** Twice as fast (the speed key), up to the pacer's limit; "as fast as possible" gives way to it. */
    public void faster() {
        model.fastestProperty().set(false);
        setSpeed(model.speedProperty().get() * 2);
    }

    /** Half as fast (the speed key), down to the pacer's limit. */
    public void slower() {
        model.fastestProperty().set(false);
        setSpeed(model.speedProperty().get() / 2);
    }

    public void setFastest(boolean fastest) {
        model.fastestProperty().set(fastest);
        sessions.applySpeed();
    }

    /** Runs the same spec again from the start, with the same seed (a saved log: from its start). */
    public void restart() {
        if (sessions.replayFile() != null) {
            scenarios.openSavedRun(sessions.replayFile());
            return;
        }
        sessions.restart(0);
    }

    /** Runs the same scenario with a fresh seed. */
    public void newSeed() {
        RunSpec base = sessions.baseSpec();
        if (base == null) {
            return;
        }
        long seed = 1 + seeds.nextLong(999_999);
        sessions.baseSpec(base.withSeed(seed));
        sessions.restart(0);
    }

    /**
     * Applies the parameter sheet. A live run under way takes the change from now on (the engine
     * records it, and the timeline marks it); any other run starts again from the beginning with
     * the same seed.
     */
    public void applyParameters(Parameters p) {
        Scenario scenario = model.scenario();
        if (scenario == null || p.equals(model.parametersProperty().get())) {
            return;
        }
        RunSpec base = sessions.baseSpec();
        long seed = base == null ? scenario.spec().seed() : base.seed();
        model.parametersProperty().set(p);
        RunSpec next = SpecEditor.apply(scenario.spec().withSeed(seed), p);
        RunDriver live = sessions.liveRunUnderway();
        if (live != null && next.executor() == ExecutorKind.LIVE) {
            try {
                live.change(sessions.withHandFaults(next));
                sessions.baseSpec(next);
                sessions.showWorkers(next);
                model.messageProperty().set("Changed in the running live run, from now on (marked on the timeline).");
                return;
            } catch (IllegalArgumentException | IllegalStateException e) {
                model.messageProperty().set("Could not change the running run (" + e.getMessage()
                        + "), so it starts again with the new parameters.");
            }
        }
        if (next.service().needsServer()) {
            // Said at once: the server starts on the run's own thread, and the run is ready seconds later.
            model.messageProperty().set("Leases from " + next.service().kind().key() + ": Fencelab starts a server "
                    + "for each run, which takes a few seconds.");
        }
        sessions.baseSpec(next);
        sessions.restart(0);
    }
}
