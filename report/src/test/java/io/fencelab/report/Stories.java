package io.fencelab.report;

import io.fencelab.engine.db.Database;
import io.fencelab.engine.event.Event;
import io.fencelab.engine.event.EventLogReader;
import io.fencelab.engine.fence.FencingMode;
import io.fencelab.engine.run.Run;
import io.fencelab.engine.run.RunResult;
import io.fencelab.scenarios.Catalog;
import io.fencelab.scenarios.Scenario;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

/**
 * The paused-holder story from the scenario catalog, run for real, and the report input a caller would
 * build from it: {@code paused-holder} with fencing, {@code paused-holder-unfenced} without.
 */
final class Stories {

    private Stories() {
    }

    record Ran(Scenario scenario, RunResult result, List<Event> events) {}

    static Ran run(Database db, FencingMode mode, Path dir) throws Exception {
        Scenario scenario = Catalog.shipped().load(switch (mode) {
            case FENCED -> "paused-holder";
            case UNFENCED -> "paused-holder-unfenced";
            default -> throw new IllegalArgumentException("the catalog tells the paused holder fenced or unfenced, not " + mode);
        });
        RunResult result;
        try (Run run = Run.prepare(db, scenario.spec(), dir.resolve("run-" + mode + ".jsonl"))) {
            result = run.runToEnd();
        }
        return new Ran(scenario, result, EventLogReader.read(result.eventLog()));
    }

    /** What {@code fencelab run} would report, under {@code title}. */
    static ReportInput input(Ran ran, String title) {
        ReportInput r = ReportInput.of(ran.scenario(), ran.result().spec(), ran.result(), ran.events(), Map.of());
        return new ReportInput(r.scenario(), title, r.summary(), r.story(), r.result(), r.events(), r.configuration(),
                r.expected(), r.expectationMet(), r.mismatches());
    }
}
