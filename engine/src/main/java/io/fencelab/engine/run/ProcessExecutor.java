package io.fencelab.engine.run;

import io.fencelab.engine.db.Database;
import io.fencelab.engine.event.Event.RunEnded;
import io.fencelab.engine.event.EventSink;

/** Runs a spec with every worker as its own JVM (see {@link ExecutorKind#PROCESS}). */
public final class ProcessExecutor implements ComposedExecutor {

    ProcessExecutor(Database db, RunSpec spec, EventSink sink) {
        throw new UnsupportedOperationException("not yet");
    }

    @Override
    public RunCore core() {
        throw new UnsupportedOperationException("not yet");
    }

    @Override
    public FailpointArming failpoints() {
        throw new UnsupportedOperationException("not yet");
    }

    @Override
    public RunEnded.Reason execute() {
        throw new UnsupportedOperationException("not yet");
    }

    @Override
    public void requestStop() {
    }

    @Override
    public RunEnded.Reason endReason() {
        return null;
    }

    @Override
    public void close() {
    }
}
