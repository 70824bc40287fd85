package io.fencelab.scenarios;

import io.fencelab.engine.fence.SqlFence;
import io.fencelab.engine.run.RunSpec;
import java.util.List;
import java.util.Objects;

/**
 * A scenario file, compiled: its teaching notes, the engine's {@link RunSpec} (named after the file)
 * and what a run of it is expected to show.
 *
 * @param name the file name without its extension ({@code paused-holder})
 */
public record Scenario(String name, TeachingNotes notes, RunSpec spec, Expectation expectation) {

    public Scenario {
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(notes, "notes");
        Objects.requireNonNull(spec, "spec");
        Objects.requireNonNull(expectation, "expectation");
    }

    /**
     * The fences the file defines in SQL ({@code targets:}), in file order, each statement with the file,
     * line and column it was written at; empty for a scenario of built-in targets only.
     */
    public List<SqlFence> fences() {
        return spec.userFences().fences();
    }
}
