package io.fencelab.engine.probe;

import io.fencelab.engine.db.Database;
import io.fencelab.engine.run.RunSpec;
import io.fencelab.engine.run.UserFences;
import java.util.function.Consumer;

/**
 * Tries the design note's checklist against the user's own SQL fences, each item on a fresh scratch
 * schema, and gives a verdict per item with a witness for every failure.
 */
public final class Probe {

    private final Database database;
    private final UserFences fences;
    private final RunSpec spec;
    private final ProbeOptions options;

    /** Tries every checklist item against every fence of {@code fences}, on {@code database}. */
    public Probe(Database database, UserFences fences, ProbeOptions options) {
        this(database, fences, null, options);
    }

    /**
     * Tries the checklist against the fences of a scenario's {@code spec}: the keys and the scope are
     * those its workers write, and the races start from its workers and lease.
     */
    public Probe(Database database, RunSpec spec, ProbeOptions options) {
        this(database, spec.userFences(), spec, options);
    }

    private Probe(Database database, UserFences fences, RunSpec spec, ProbeOptions options) {
        this.database = database;
        this.fences = fences;
        this.spec = spec;
        this.options = options;
    }

    /** Runs the items in ChecklistItem order, fence by fence; {@code onEach} hears each verdict as it is found. */
    public ProbeReport run(Consumer<ItemVerdict> onEach) {
        throw new UnsupportedOperationException("not yet");
    }
}
