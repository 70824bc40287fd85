package io.fencelab.report;

import io.fencelab.engine.chaos.Distribution;
import io.fencelab.engine.event.Event;
import io.fencelab.engine.run.RunResult;
import io.fencelab.engine.run.RunSpec;
import io.fencelab.scenarios.Scenario;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * Everything a report is made from. {@link #of} maps a {@link Scenario} and its run to it, the one
 * mapping the command line and the console's export share; a saved log with no scenario comes
 * through the constructor.
 *
 * @param scenario       the scenario's name, as in the catalog ({@code paused-holder})
 * @param title          its human title
 * @param summary        the teaching note's summary paragraph
 * @param story          the teaching note's steps, in order (numbered by the report)
 * @param events         the run's events in seq order (the report is drawn from these alone, plus
 *                       the result's verdict and metrics)
 * @param configuration  what was run, as the caller wants it shown, in the caller's order
 * @param expected       what the scenario expects, in words ({@code "SAFE with one stale rejection"})
 * @param expectationMet whether the run did what the scenario expects
 * @param mismatches     why not, one line each (empty when met)
 */
public record ReportInput(String scenario, String title, String summary, List<String> story, RunResult result,
                          List<Event> events, Map<String, String> configuration, String expected,
                          boolean expectationMet, List<String> mismatches) {

    public ReportInput {
        Objects.requireNonNull(scenario, "scenario");
        Objects.requireNonNull(title, "title");
        Objects.requireNonNull(summary, "summary");
        Objects.requireNonNull(result, "result");
        Objects.requireNonNull(expected, "expected");
        story = List.copyOf(story);
        events = List.copyOf(events);
        mismatches = List.copyOf(mismatches);
        // Map.copyOf would lose the caller's order, which is the order the table shows.
        configuration = Collections.unmodifiableMap(new LinkedHashMap<>(configuration));
        configuration.forEach((k, v) -> Objects.requireNonNull(v, () -> "configuration value of " + k));
    }

    /**
     * The report of a run of {@code scenario} as run with {@code ran} (the scenario's own spec, or one
     * overridden on the command line or in the console), with its expectation checked against the
     * events. {@code extra} lines (where the run came from) go after the standard configuration.
     */
    public static ReportInput of(Scenario scenario, RunSpec ran, RunResult result, List<Event> events,
                                 Map<String, String> extra) {
        List<String> mismatches = scenario.expectation().mismatches(result, events);
        String expected = scenario.expectation().describe();
        if (ran.fencing() != scenario.spec().fencing()) {
            expected += " (the scenario as written, with fencing " + scenario.spec().fencing()
                    + "; this run used " + ran.fencing() + ")";
        }
        Map<String, String> configuration = configurationOf(ran);
        configuration.put("database", result.database());
        configuration.put("end", result.endReason());
        configuration.putAll(extra);
        return new ReportInput(scenario.name(), scenario.notes().title(), scenario.notes().summary(),
                scenario.notes().story(), result, events, configuration, expected, mismatches.isEmpty(), mismatches);
    }

    /**
     * The report's configuration table for a run of {@code spec}: what ran, in the order a reader
     * looks for it, durations as a scenario file writes them, the pauses one line per group of holders.
     * Callers add their own lines after these (the database, the end, where from).
     */
    public static Map<String, String> configurationOf(RunSpec spec) {
        Map<String, String> c = new LinkedHashMap<>();
        c.put("scenario", spec.name());
        c.put("executor", spec.executor().name().toLowerCase(java.util.Locale.ROOT));
        c.put("seed", Long.toString(spec.seed()));
        c.put("duration", Distribution.text(spec.duration()));
        // The profile with every one of its settings, as the scenario's lease: mapping writes them.
        c.put("lease", spec.lease().describe());
        c.put("pauses", String.join("\n", spec.pauseProfile().lines()));
        c.put("fencing", spec.fencing().name());
        c.put("token scheme", spec.tokenScheme().name());
        c.put("first write", spec.firstWrite().name());
        c.put("workers", Integer.toString(spec.workers().size()));
        c.put("faults", Integer.toString(spec.faults().size()));
        return c;
    }
}
