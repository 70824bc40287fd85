package io.fencelab.app.gallery;

import static org.assertj.core.api.Assertions.assertThat;

import io.fencelab.engine.db.Database;
import io.fencelab.engine.event.Event;
import io.fencelab.engine.event.EventLogReader;
import io.fencelab.engine.probe.ChecklistItem;
import io.fencelab.engine.probe.ItemVerdict;
import io.fencelab.engine.probe.ItemVerdict.Status;
import io.fencelab.engine.probe.Probe;
import io.fencelab.engine.probe.ProbeOptions;
import io.fencelab.engine.probe.ProbeReport;
import io.fencelab.engine.run.Run;
import io.fencelab.engine.run.RunResult;
import io.fencelab.report.ProbeHtml;
import io.fencelab.scenarios.Catalog;
import io.fencelab.scenarios.Scenario;
import io.fencelab.scenarios.ScenarioSource;
import io.fencelab.scenarios.StoryStep;
import io.fencelab.scenarios.StoryTracker;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.EnumSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;

/**
 * The shipped fence gallery as a test sees it: each file's own statement of the checklist items it
 * fails (its header comment, the one place that says it; docs/FENCES.md's table is checked against the
 * same lines), and a probe of the file with a few simulated races and a short live one.
 */
final class FenceGallery {

    /** Simulated race schedules per fence: a few seeds, enough for the interleavings the gallery needs. */
    static final int SCHEDULES = 3;
    /**
     * The live race per fence, as long as {@code fencelab probe}'s default: a check-then-write loses
     * only a live race (its two statements run back to back in a simulated one), and a shorter run
     * does not always give a pause the chance to land between them.
     */
    static final Duration LIVE = Duration.ofSeconds(5);

    /** The header's list: a line "Checklist items it fails", then one "#   fence: ITEM, ITEM" (or "none") per fence. */
    private static final Pattern FAILS_LINE = Pattern.compile("^#\\s+([a-z][a-z0-9_-]*):\\s*(.+)$");

    private FenceGallery() {
    }

    static List<String> names() {
        return Catalog.gallery().names();
    }

    /** The file's text as shipped. */
    static String text(String name) {
        return ScenarioSource.ofResource(Catalog.GALLERY_DIR + name + ".yaml").text();
    }

    /** What the file's header says each of its fences fails, in the file's order. */
    static Map<String, Set<ChecklistItem>> expectedFailures(String name) {
        Map<String, Set<ChecklistItem>> out = new LinkedHashMap<>();
        boolean inList = false;
        for (String line : text(name).lines().toList()) {
            if (!line.startsWith("#")) {
                break;
            }
            if (line.contains("Checklist items it fails")) {
                inList = true;
                continue;
            }
            Matcher m = FAILS_LINE.matcher(line);
            if (inList && m.matches()) {
                Set<ChecklistItem> items = EnumSet.noneOf(ChecklistItem.class);
                if (!m.group(2).strip().equals("none")) {
                    for (String item : m.group(2).split(",")) {
                        items.add(ChecklistItem.valueOf(item.strip()));
                    }
                }
                out.put(m.group(1), items);
            } else if (inList) {
                inList = false;
            }
        }
        assertThat(out).as("%s.yaml's header names the checklist items each fence fails", name).isNotEmpty();
        return out;
    }

    /** Every item any fence of the file fails. */
    static Set<ChecklistItem> expectedUnion(String name) {
        Set<ChecklistItem> all = EnumSet.noneOf(ChecklistItem.class);
        expectedFailures(name).values().forEach(all::addAll);
        return all;
    }

    /** Probes gallery file {@code name} on {@code db}, and leaves its probe.html under {@code out} for a person to open. */
    static ProbeReport probe(Database db, String name, Path out) throws IOException {
        Scenario scenario = Catalog.gallery().load(name);
        ProbeReport report = new Probe(db, scenario.spec(), new ProbeOptions(out, 1, SCHEDULES, LIVE, false))
                .run(v -> { });
        Files.createDirectories(out);
        ProbeHtml.write(out.resolve("probe.html"), report);
        return report;
    }

    /** Each fence fails exactly the items its file's header names, each failure with a witness; every other item holds. */
    static void assertFailsExactlyItsItems(String name, ProbeReport report) {
        Map<String, Set<ChecklistItem>> expected = expectedFailures(name);
        assertThat(report.fences()).as("%s: the fences probed are those the header speaks of", name)
                .containsExactlyElementsOf(expected.keySet());
        Map<String, Set<ChecklistItem>> failed = new TreeMap<>();
        for (String fence : report.fences()) {
            failed.put(fence, report.of(fence).stream().filter(v -> v.status() == Status.FAILS).map(ItemVerdict::item)
                    .collect(Collectors.toCollection(() -> EnumSet.noneOf(ChecklistItem.class))));
        }
        assertThat(failed).as("%s: the items each fence fails; what the probe said:%n%s", name, told(report))
                .isEqualTo(new TreeMap<>(expected));
        for (ItemVerdict v : report.verdicts()) {
            if (v.status() == Status.FAILS) {
                assertThat(v.witness()).as("%s: %s fails %s, so it has a witness: %s", name, v.fence(), v.item(),
                        v.summary()).isNotEmpty();
            }
        }
        assertThat(report.verdicts()).as("%s: one verdict per fence and item", name)
                .hasSize(expected.size() * ChecklistItem.values().length);
    }

    /** The correct fence: every item applies to it (two targets, a scope in every predicate) and every one holds. */
    static void assertEveryItemHolds(ProbeReport report) {
        assertThat(report.verdicts()).as("every item applies to the correct fence and holds:%n%s", told(report))
                .allSatisfy(v -> assertThat(v.status()).isEqualTo(Status.HOLDS));
        assertThat(report.allHold()).isTrue();
    }

    /** The probe's verdicts, one line each, for an assertion's message. */
    static String told(ProbeReport report) {
        return report.verdicts().stream().map(v -> "  " + v.fence() + " " + v.item() + " " + v.status() + ": " + v.summary())
                .collect(Collectors.joining("\n"));
    }

    /** Runs gallery file {@code name} as the scenario it also is: its expectation is met and every story step reached. */
    static void assertStoryRunsAsItSays(Database db, String name, Path dir) throws Exception {
        Scenario scenario = Catalog.gallery().load(name);
        RunResult result;
        try (Run run = Run.prepare(db, scenario.spec(), dir.resolve("events.jsonl"))) {
            result = run.runToEnd();
        }
        List<Event> events = EventLogReader.read(result.eventLog());

        assertThat(scenario.expectation().mismatches(result, events))
                .as("%s: expected %s; verdict %s, witnesses %s", name, scenario.expectation().describe(),
                        result.verdict().kind(), result.verdict().witnesses())
                .isEmpty();
        List<StoryStep> steps = scenario.notes().steps();
        assertThat(StoryTracker.of(steps, events)).as("%s: every story step is reached by the run", name)
                .hasSameSizeAs(steps);
    }
}
