package io.fencelab.app.service;

import io.fencelab.engine.db.Database;
import io.fencelab.engine.event.Event;
import io.fencelab.engine.event.EventLogReader;
import io.fencelab.engine.run.Run;
import io.fencelab.engine.run.RunResult;
import io.fencelab.scenarios.Problem;
import io.fencelab.scenarios.Scenario;
import io.fencelab.scenarios.StoryCheck;
import io.fencelab.scenarios.Workshop;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * Whether a lesson's run tells its whole story: the scenario run as {@code fencelab run} runs it,
 * and every step it never reaches, located at the step's line. One check for {@code fencelab
 * validate} and the console's Open workshop, so both refuse a file with the same message.
 */
public final class StoryRuns {

    private StoryRuns() {
    }

    /** Runs the scenario as written and says which step its run never reaches (empty: all are). */
    public static List<Problem> unreached(Database db, Scenario scenario, String fileName)
            throws IOException, InterruptedException {
        Path log = Files.createTempFile("fencelab-validate", ".jsonl");
        try {
            RunResult result;
            try (Run r = Run.prepare(db, scenario.spec(), log)) {
                result = r.runToEnd();
            }
            List<Event> events = EventLogReader.read(result.eventLog());
            return StoryCheck.unreached(scenario, fileName, events);
        } finally {
            Files.deleteIfExists(log);
        }
    }

    /** Every story lesson of {@code workshop} run in turn; the steps never reached, lesson by lesson. */
    public static List<Problem> unreached(Database db, Workshop workshop) throws IOException, InterruptedException {
        List<Problem> problems = new ArrayList<>();
        for (Workshop.Lesson lesson : workshop.lessons()) {
            if (lesson.kind() == Workshop.Kind.STORY) {
                problems.addAll(unreached(db, lesson.scenario(), lesson.file().file()));
            }
        }
        return problems;
    }
}
