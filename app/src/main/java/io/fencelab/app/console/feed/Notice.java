package io.fencelab.app.console.feed;

import io.fencelab.app.console.model.RunInfo;
import io.fencelab.app.console.model.RunPhase;
import io.fencelab.engine.run.RunResult;

/** Something a driver tells the console besides events; travels in the same queue, so order is kept. */
public sealed interface Notice {

    /** The run is ready to be driven. */
    record Prepared(RunInfo info) implements Notice {}

    /** The run changed phase (playing, paused). */
    record Phase(RunPhase phase) implements Notice {}

    /** The run ended; {@code result} says how (its end reason may start with {@code failed}). */
    record Finished(RunResult result) implements Notice {}

    /**
     * The run could not start or go on. {@code message} is for people (no stack trace);
     * {@code result} is what could still be judged, or null.
     */
    record Failed(String message, RunResult result) implements Notice {}
}
