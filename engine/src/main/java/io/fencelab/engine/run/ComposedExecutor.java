package io.fencelab.engine.run;

import io.fencelab.engine.db.RunContext;
import io.fencelab.engine.failpoint.Failpoint;
import io.fencelab.engine.store.RunStore;

/**
 * What every executor answers from its parts alone, whatever its timing: the spec, the settings in
 * force, the store and the failpoints come from its {@link RunCore} and {@link FailpointArming}.
 * Default methods rather than a base class, so an executor holds its parts and inherits no state.
 */
interface ComposedExecutor extends Executor {

    RunCore core();

    FailpointArming failpoints();

    @Override
    default RunSpec spec() {
        return core().spec();
    }

    @Override
    default RunSpec currentSpec() {
        return core().current();
    }

    @Override
    default RunStore store() {
        return core().store();
    }

    @Override
    default RunContext runContext() {
        return core().runContext();
    }

    @Override
    default void armFailpoint(Failpoint point, String holder, FailpointAction action) {
        failpoints().arm(point, holder, action);
    }

    @Override
    default boolean failpointsReached() {
        return failpoints().allReached();
    }
}
