package io.fencelab.report;

import io.fencelab.engine.check.SafetyChecker;
import io.fencelab.engine.event.Event;
import io.fencelab.engine.fence.FencingMode;
import io.fencelab.engine.metrics.MetricsCollector;
import io.fencelab.engine.metrics.TuningEpisodes;
import io.fencelab.engine.metrics.TuningFigures;
import io.fencelab.engine.run.RunResult;
import io.fencelab.engine.run.Workloads;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;

/** Report inputs for logs built by hand: the result is judged and measured from the events, as offline. */
final class Inputs {

    private Inputs() {
    }

    static ReportInput of(List<Event> events, Path eventLog, String title) {
        var judgement = SafetyChecker.judgement(events);
        RunResult result = new RunResult(Workloads.storm(4, 1, FencingMode.FENCED, 1, Duration.ofSeconds(10)), 1,
                Event.RunEnded.Reason.COMPLETED, judgement, MetricsCollector.summarize(events),
                TuningFigures.of(events, judgement), eventLog, events.size(), "PostgreSQL 17.6");
        return new ReportInput("synthetic", title, "A log built by hand.", List.of("Many holders write."), result, events,
                Map.of("holders", "many"), "anything", true, List.of());
    }

    /** {@code input} with its run's failovers and lease losses replaced by {@code episodes}, built by hand. */
    static ReportInput withEpisodes(ReportInput input, TuningEpisodes episodes) {
        RunResult r = input.result();
        RunResult result = new RunResult(r.spec(), r.runId(), r.end(), r.judgement(), r.metrics(),
                new TuningFigures(r.tuning().totals(), r.tuning().perSecond(), episodes), r.eventLog(), r.events(), r.database());
        return new ReportInput(input.scenario(), input.title(), input.summary(), input.story(), result, input.events(),
                input.configuration(), input.expected(), input.expectationMet(), input.mismatches());
    }
}
