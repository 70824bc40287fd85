package io.fencelab.app.console.compare;

import io.fencelab.app.console.model.Comparison;
import io.fencelab.app.console.model.ConsoleModel;
import io.fencelab.app.console.run.RunSessions;

/**
 * Comparing: the scenario twice, one run above the other and time-aligned, with the same seed and
 * one setting apart (fencing on and off, unless chosen otherwise).
 */
public final class CompareController {

    private final ConsoleModel model;
    private final RunSessions sessions;

    public CompareController(ConsoleModel model, RunSessions sessions) {
        this.model = model;
        this.sessions = sessions;
    }

    /** Shows the scenario twice (or once again), starting the runs again; needs a scenario, not a saved log. */
    public void setCompare(boolean compare) {
        if (compare == model.compareProperty().get()) {
            return;
        }
        if (compare && sessions.baseSpec() == null) {
            model.messageProperty().set("Choose a scenario first: comparing runs it twice, "
                    + model.comparisonProperty().get() + ".");
            return;
        }
        model.compareProperty().set(compare);
        sessions.restart(0);
    }

    /** What the compared runs differ in; when comparing, both start again with it. */
    public void setComparison(Comparison comparison) {
        if (comparison.equals(model.comparisonProperty().get())) {
            return;
        }
        model.comparisonProperty().set(comparison);
        if (model.compareProperty().get()) {
            sessions.restart(0);
        }
    }
}
