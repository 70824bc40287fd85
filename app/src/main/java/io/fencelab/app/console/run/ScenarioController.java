package io.fencelab.app.console.run;

import io.fencelab.app.console.model.ConsoleModel;
import io.fencelab.app.console.ui.Problems;
import io.fencelab.engine.run.RunSpec;
import io.fencelab.scenarios.Catalog;
import io.fencelab.scenarios.CatalogEntry;
import io.fencelab.scenarios.Scenario;
import io.fencelab.scenarios.ScenarioException;
import io.fencelab.scenarios.ScenarioLoader;
import java.nio.file.Path;

/**
 * What the console shows: a catalog scenario, a scenario file (its problems shown in place of it),
 * or a saved run. Sets the scenario, its source and parameters in the model and hands the spec (or
 * the log) to the {@link RunSessions}.
 */
public final class ScenarioController {

    private final ConsoleModel model;
    private final RunSessions sessions;

    public ScenarioController(ConsoleModel model, RunSessions sessions) {
        this.model = model;
        this.sessions = sessions;
    }

    /** Lists the shipped scenarios; a catalog that cannot be read is shown as the scenario problem. */
    public void loadCatalog() {
        try {
            model.catalog().setAll(Catalog.shipped().entries());
        } catch (RuntimeException e) {
            model.scenarioProblemProperty().set(Problems.describe("the scenario catalog could not be loaded", e));
        }
    }

    /** Shows a catalog scenario, prepared and paused at its start. */
    public void select(CatalogEntry entry) {
        if (entry == null) {
            return;
        }
        try {
            Scenario scenario = Catalog.shipped().load(entry.name());
            model.selectedProperty().set(entry);
            show(scenario, "catalog");
        } catch (ScenarioException e) {
            model.scenarioProblemProperty().set(e.getMessage());
        }
    }

    /** Shows a catalog scenario by name ({@code paused-holder}). */
    public void select(String name) {
        model.catalog().stream().filter(e -> e.name().equals(name)).findFirst().ifPresentOrElse(this::select,
                () -> model.scenarioProblemProperty().set("no catalog scenario called " + name));
    }

    /** Loads a scenario file; its problems are shown in place of the scenario, which stays as it was. */
    public void openScenarioFile(Path file) {
        try {
            Scenario scenario = ScenarioLoader.load(file);
            model.selectedProperty().set(null);
            show(scenario, file.toString());
        } catch (ScenarioException e) {
            model.scenarioProblemProperty().set(fileProblems(file, e.getMessage()));
        } catch (RuntimeException e) {
            model.scenarioProblemProperty().set(file.getFileName() + ": " + Problems.reason(e));
        }
    }

    /** Shows a scenario already loaded (a workshop's lesson from a file beside the workshop), from {@code source}. */
    public void showLesson(Scenario scenario, String source) {
        model.selectedProperty().set(null);
        show(scenario, source);
    }

    /** The loader's lines ({@code file:line:column: field: problem}), with the file's folder left out. */
    static String fileProblems(Path file, String message) {
        Path dir = file.toAbsolutePath().getParent();
        String shorter = message;
        if (dir != null) {
            shorter = shorter.replace(dir + java.io.File.separator, "");
        }
        if (file.getParent() != null) {
            shorter = shorter.replace(file.getParent() + java.io.File.separator, "");
        }
        long lines = shorter.lines().count();
        return file.getFileName() + " is not a valid scenario (" + lines + (lines == 1 ? " problem" : " problems")
                + "; the scenario on show is unchanged):\n" + shorter;
    }

    private void show(Scenario scenario, String source) {
        model.scenarioProblemProperty().set("");
        model.scenarioProperty().set(scenario);
        model.sourceProperty().set(source);
        model.parametersProperty().set(SpecEditor.parametersOf(scenario.spec()));
        sessions.show(scenario.spec());
    }

    /**
     * Shows one setting of a sweep: {@code scenario} (the catalog's with the setting written in) run
     * with {@code seed}, simulated as the sweep ran it, played to its end at once so the whole run is
     * on the timeline.
     */
    public void showSweepPoint(Scenario scenario, long seed, String source) {
        model.selectedProperty().set(null);
        model.compareProperty().set(false);
        model.scenarioProblemProperty().set("");
        model.scenarioProperty().set(scenario);
        model.sourceProperty().set(source);
        model.parametersProperty().set(SpecEditor.parametersOf(scenario.spec()));
        RunSpec spec = scenario.spec().withSeed(seed);
        sessions.show(spec, spec.duration().toNanos() / 1_000 + 1);
    }

    /** Replays a saved event log; no database needed. */
    public void openSavedRun(Path file) {
        model.selectedProperty().set(null);
        model.scenarioProperty().set(null);
        model.parametersProperty().set(null);
        model.scenarioProblemProperty().set("");
        model.sourceProperty().set(file.toString());
        model.compareProperty().set(false);
        model.workers().clear();
        sessions.replay(file);
    }
}
