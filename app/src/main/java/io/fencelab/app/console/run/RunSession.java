package io.fencelab.app.console.run;

import io.fencelab.app.console.feed.EventFeed;
import io.fencelab.app.console.model.RunModel;
import io.fencelab.app.console.model.RunPhase;
import io.fencelab.app.console.ui.FrameLoop;
import io.fencelab.engine.run.RunSpec;
import java.util.function.Function;

/** One run on show: its model, the feed its bus fills, the driver moving it, and the updater joining them. */
final class RunSession {

    final RunModel model;
    final RunDriver driver;
    final RunUpdater updater;
    /** The spec it runs (null for a replayed log). */
    final RunSpec spec;
    private final FrameLoop loop;

    private RunSession(RunModel model, RunDriver driver, RunUpdater updater, RunSpec spec, FrameLoop loop) {
        this.model = model;
        this.driver = driver;
        this.updater = updater;
        this.spec = spec;
        this.loop = loop;
    }

    /** Clears {@code model}, makes a driver for a new feed, and starts both. */
    static RunSession start(RunModel model, RunSpec spec, FrameLoop loop, Function<EventFeed, RunDriver> driverFor) {
        model.clear();
        EventFeed feed = new EventFeed();
        RunDriver driver = driverFor.apply(feed);
        RunUpdater updater = new RunUpdater(model, feed, driver);
        model.phaseProperty().set(RunPhase.PREPARING);
        loop.addUpdate(updater);
        driver.start();
        return new RunSession(model, driver, updater, spec, loop);
    }

    /** Stops showing this run and lets its driver go (it finishes on its own thread). */
    void close() {
        loop.removeUpdate(updater);
        updater.close();
    }
}
