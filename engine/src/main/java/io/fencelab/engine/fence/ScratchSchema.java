package io.fencelab.engine.fence;

import io.fencelab.engine.db.Database;
import java.util.List;

/**
 * The schema a run's user fences live in: {@code fencelab_<label>}, made for the run, filled from the
 * fences' DDL or copies of the user's objects, set up, and dropped when the run is over unless kept.
 * Fencelab writes nowhere else: every user statement runs with {@code search_path} set to this schema
 * alone.
 */
public final class ScratchSchema implements AutoCloseable {
    // API agreed for issue 22; implementation by the fence helper.

    /**
     * Creates the schema and everything in it, and checks every statement (syntax with its located
     * error, parameters, the shape of the answer against the outcome rule) before any worker starts.
     *
     * @throws SqlFenceException with a located one-line message when a fence cannot be used
     */
    public static ScratchSchema create(Database database, String label, List<SqlFence> fences, boolean keep) {
        throw new UnsupportedOperationException("not yet");
    }

    /** {@code fencelab_<label>}. */
    public String name() {
        throw new UnsupportedOperationException("not yet");
    }

    /** The target for the fence named {@code name}. */
    public SqlTarget target(String name) {
        throw new UnsupportedOperationException("not yet");
    }

    /** Every target's final state, ordered by fence, scope and key. */
    public List<io.fencelab.engine.resource.ResourceState> finalState() {
        throw new UnsupportedOperationException("not yet");
    }

    /** Drops the schema (unless kept). Safe to call twice. */
    @Override
    public void close() {
        throw new UnsupportedOperationException("not yet");
    }
}
