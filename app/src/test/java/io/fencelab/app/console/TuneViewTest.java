package io.fencelab.app.console;

import static io.fencelab.app.console.ConsoleFx.fx;
import static io.fencelab.app.console.ConsoleFx.fxRun;
import static io.fencelab.app.console.ConsoleFx.waitUntil;
import static org.assertj.core.api.Assertions.assertThat;

import io.fencelab.app.console.model.TuneModel;
import io.fencelab.app.console.model.TuneModel.Phase;
import io.fencelab.app.console.tune.HeatmapView;
import io.fencelab.engine.run.Backend;
import io.fencelab.engine.tune.PointSummary;
import io.fencelab.engine.tune.SweepResults;
import io.fencelab.report.SweepDirectory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import javafx.geometry.Point2D;
import javafx.scene.control.Button;
import javafx.scene.control.ComboBox;
import javafx.scene.control.Label;
import javafx.scene.input.MouseButton;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.testfx.api.FxRobot;

/**
 * The Tune view: a small sweep of the VM-suspension preset (lease ttl across, suspension length
 * upwards, one or two seeds) fills the heatmap as settings finish, hovering a cell tells its numbers,
 * clicking it opens that setting's worst seed on the timeline, the metric switches what is drawn, a
 * recommendation appears, and a stopped sweep resumes without running its finished runs again.
 */
@SuppressWarnings("unchecked")
class TuneViewTest extends ConsoleTestBase {

    private TuneModel tune() {
        return console.model().tune();
    }

    /** Opens the Tune view on vm-suspension with a 3 × 2 grid (ttl 10s, 20s, 30s × suspension 5s, 40s). */
    private void formFor(Path out, int ttls, int seeds, int jobs) {
        waitForDatabase();
        fxRun(() -> {
            console.tune().show(true);
            ((ComboBox<?>) console.scene().lookup("#tune-scenario")).getSelectionModel()
                    .select(TuneModel.PRESETS.indexOf("vm-suspension"));
        });
        waitUntil("the form is filled for vm-suspension", 10,
                () -> "vm-suspension".equals(tune().scenarioProperty().get()));
        fxRun(() -> {
            tune().across().pathProperty().set("lease.ttl");
            tune().across().fromProperty().set("10s");
            tune().across().toProperty().set("30s");
            tune().across().stepsProperty().set(ttls);
            tune().across().logProperty().set(false);
            tune().upwards().pathProperty().set("faults[0].duration");
            tune().upwards().fromProperty().set("5s");
            tune().upwards().toProperty().set("40s");
            tune().upwards().stepsProperty().set(2);
            tune().upwards().logProperty().set(false);
            tune().seedsProperty().set(seeds);
            tune().jobsProperty().set(jobs);
            tune().requireProperty().set("unavailability<=0.9");
            // On PostgreSQL, so the sweep lasts long enough to be seen part-done and to be stopped midway.
            tune().backendProperty().set(Backend.POSTGRES);
            tune().outProperty().set(out.toString());
            ((ComboBox<String>) console.scene().lookup("#tune-metric")).setValue("staleWritesPerHour");
        });
    }

    private void press(FxRobot robot, String button) {
        Button b = fx(() -> (Button) console.scene().lookup(button));
        assertThat(fx(b::isDisabled)).as(button + " is enabled").isFalse();
        robot.clickOn(b);
    }

    private HeatmapView heatmap() {
        return fx(() -> (HeatmapView) console.scene().lookup("#tune-heatmap"));
    }

    private String label(String id) {
        return fx(() -> ((Label) console.scene().lookup(id)).getText());
    }

    @Test
    void byDefaultASweepRunsInMemoryAndChecksItsRecommendedSettingOnPostgres(FxRobot robot, @TempDir Path dir)
            throws Exception {
        formFor(dir.resolve("vm"), 2, 1, 2);
        fxRun(() -> tune().backendProperty().set(null));
        press(robot, "#tune-run");

        waitUntil("the sweep is done", 120, () -> tune().phase() == Phase.DONE);

        assertThat(java.nio.file.Files.readString(dir.resolve("vm").resolve("sweep.html")))
                .as("the report says where the runs ran and that PostgreSQL agreed")
                .contains("in-memory model of PostgreSQL").contains("the two event logs are identical");
    }

    @Test
    void aSweepFillsTheHeatmapAndItsWorstCellOpensOnTheTimeline(FxRobot robot, @TempDir Path dir) throws Exception {
        // Three seeds per setting, so the sweep lasts long enough to be seen part-done on a busy machine.
        formFor(dir.resolve("vm"), 3, 3, 1);
        press(robot, "#tune-run");

        // The heatmap fills as settings finish: seen with some done and some still to run.
        waitUntil("a first setting has finished", 120, () -> tune().results() != null
                && !tune().results().done().isEmpty());
        int seen = fx(() -> tune().results().done().size() + tune().results().skipped().size());
        ConsoleFx.frames();
        screenshot("tune-running");
        waitUntil("the sweep is done", 240, () -> tune().phase() == Phase.DONE);
        ConsoleFx.frames();
        SweepResults r = fx(tune()::results);
        assertThat(seen).as("the heatmap showed a part of the grid before the end").isLessThan(6);
        assertThat(r.done().size() + r.skipped().size()).isEqualTo(6);
        assertThat(r.done()).isNotEmpty();
        HeatmapView heatmap = heatmap();
        List<String> stale = fx(heatmap::drawnValues);
        assertThat(stale).hasSize(6).doesNotContain("");

        // The recommended setting, in words.
        assertThat(label("#tune-recommendation")).startsWith("Recommended: lease.ttl=")
                .contains("unavailability<=0.9");
        assertThat(label("#tune-status")).startsWith("Done: 18 runs");
        assertThat(Path.of(fx(() -> tune().reportProperty().get()))).isRegularFile();

        // The metric switch changes the figures drawn.
        fxRun(() -> ((ComboBox<String>) console.scene().lookup("#tune-metric")).setValue("leaseLoadPerSecond"));
        ConsoleFx.frames();
        assertThat(fx(() -> tune().metricProperty().get())).isEqualTo("leaseLoadPerSecond");
        List<String> load = fx(heatmap::drawnValues);
        assertThat(load).as("lease load, not stale writes").isNotEqualTo(stale);
        for (PointSummary p : r.done().values()) {
            assertThat(load.get(p.point().index())).isEqualTo(io.fencelab.report.SweepReport.fmt(
                    p.mean("leaseLoadPerSecond")));
        }

        // Hover the worst cell (its worst seed the worst of all) for its numbers.
        fxRun(() -> ((ComboBox<String>) console.scene().lookup("#tune-metric")).setValue("staleWritesPerHour"));
        PointSummary worst = r.done().values().stream()
                .min(java.util.Comparator.comparing(PointSummary::worst, PointSummary.WORST_FIRST)).orElseThrow();
        int index = worst.point().index();
        Point2D at = fx(() -> {
            double[] c = heatmap.cellCentre(index);
            return heatmap.localToScreen(c[0], c[1]);
        });
        robot.moveTo(at);
        waitUntil("the cell's numbers show", 10, () -> heatmap.hoveredProperty().get() == index);
        String info = label("#tune-cell-info");
        assertThat(info).contains(worst.point().label(r.plan().axes())).contains("mean")
                .contains("worst seed " + worst.worst().seed());
        screenshot("tune-done");

        // Click it: its worst seed runs on the timeline.
        robot.clickOn(MouseButton.PRIMARY);
        waitUntil("the timeline is on show with the run over", 60, () -> !tune().shownProperty().get()
                && console.sessions().allOver());
        ConsoleFx.frames();
        assertThat(fx(() -> ((javafx.scene.control.TabPane) console.scene().lookup("#modes")).getSelectionModel()
                .getSelectedItem().getId())).isEqualTo("run-tab");
        assertThat(fx(() -> main().infoProperty().get().seed())).isEqualTo(Long.toString(worst.worst().seed()));
        var spec = fx(() -> console.sessions().currentSpec());
        double ttl = worst.point().values().get(0).value();
        double suspension = worst.point().values().get(1).value();
        assertThat(spec.leaseTtl()).isEqualTo(Duration.ofMillis(Math.round(ttl * 1000)));
        var expected = io.fencelab.app.service.SweepSetup.of(io.fencelab.scenarios.Catalog.shipped().source("vm-suspension"),
                List.of("lease.ttl=10s..30s:3", "faults[0].duration=5s..40s:2"), 1, List.of())
                .scenarioAt(worst.point()).spec().withSeed(worst.worst().seed());
        assertThat(spec).as("the scenario with the point's values, the worst seed").isEqualTo(expected);
        assertThat(suspension).isIn(5.0, 40.0);
        var result = fx(() -> main().resultProperty().get());
        assertThat(result).as("the run has ended and been judged").isNotNull();
        assertThat(result.verdict().kind().name()).isEqualTo(worst.worst().verdict());
        screenshot("tune-worst-seed");
    }

    @Test
    void aStoppedSweepResumesWithoutRunningItsFinishedRunsAgain(FxRobot robot, @TempDir Path dir) throws Exception {
        Path out = dir.resolve("vm");
        formFor(out, 5, 2, 1);
        press(robot, "#tune-run");
        waitUntil("two settings have finished", 180, () -> tune().results() != null
                && tune().results().done().size() >= 2);
        // Fired, not clicked: a robot click lands where the button was a moment ago, and the form's
        // layout moves as the sweep's status line changes; a missed click let the sweep finish.
        fxRun(() -> ((Button) console.scene().lookup("#tune-stop")).fire());
        waitUntil("the sweep has stopped", 60, () -> tune().phase() == Phase.STOPPED,
                () -> "phase " + tune().phase() + ", status: " + label("#tune-status"));
        int kept = rows(out).size();
        assertThat(kept).as("some runs kept, not all").isBetween(4, 19);
        assertThat(label("#tune-status")).startsWith("Stopped with");
        assertThat(stubLogs(out)).as("logs of runs that never started, holding only RunEnded").isEmpty();

        press(robot, "#tune-resume");
        waitUntil("the resumed sweep is done", 240, () -> tune().phase() == Phase.DONE);
        ConsoleFx.frames();
        assertThat(fx(() -> tune().runsAlreadyDoneProperty().get())).isEqualTo(kept);
        assertThat(fx(() -> tune().runsDoneProperty().get())).isEqualTo(20);
        List<String> rows = rows(out);
        assertThat(rows).hasSize(20);
        Set<String> pointAndSeed = new HashSet<>();
        for (String row : rows) {
            String[] cells = row.split(",");
            pointAndSeed.add(cells[0] + "/" + cells[1]);
        }
        assertThat(pointAndSeed).as("no run twice").hasSize(20);
        assertThat(fx(() -> tune().results().done().size())).isEqualTo(10);
        assertThat(fx(() -> tune().outProperty().get())).isEqualTo(out.toString());

        // Run sweep (not Resume) never mixes into a folder holding a sweep: it takes a fresh one beside it.
        press(robot, "#tune-run");
        waitUntil("the new sweep runs elsewhere", 10, () -> tune().outProperty().get().equals(out + "-2"));
        press(robot, "#tune-stop");
        waitUntil("the sweep has stopped", 60, () -> !tune().phase().busy());
    }

    @Test
    void aScenarioFileTypedInIsSweptLikeACatalogOne(FxRobot robot, @TempDir Path dir) throws Exception {
        Path file = dir.resolve("our-leader.yaml");
        Files.writeString(file, io.fencelab.scenarios.Catalog.shipped().source("k8s-leader-gc").text()
                .replace("title:", "title: Our leader,"));
        copyGcLog(dir);
        waitForDatabase();
        fxRun(() -> console.tune().show(true));
        // As typed into the picker's editor and committed.
        fxRun(() -> ((ComboBox<String>) console.scene().lookup("#tune-scenario")).setValue(file.toString()));
        waitUntil("the form is filled for the file (" + fx(() -> tune().statusProperty().get()) + ")", 10,
                () -> file.toString().equals(tune().scenarioProperty().get()));
        assertThat(fx(() -> List.copyOf(tune().variablePaths()))).contains("lease.leaseDuration",
                "lease.renewDeadline");
        assertThat(fx(() -> tune().across().pathProperty().get())).as("the file's own suggested sweep")
                .isEqualTo("lease.leaseDuration");
        assertThat(fx(() -> tune().outProperty().get())).endsWith("our-leader");
    }

    @Test
    void aKubernetesScenarioOffersOnlyItsOwnSettingsAndStartsAtItsLeaseDuration(@TempDir Path dir)
            throws Exception {
        // The k8s preset without its suggested sweep: the form is filled from the profile alone.
        Path file = dir.resolve("our-election.yaml");
        Files.writeString(file, io.fencelab.scenarios.Catalog.shipped().source("k8s-leader-gc").text().lines()
                .filter(l -> !l.contains("fencelab tune")).collect(java.util.stream.Collectors.joining("\n")));
        copyGcLog(dir);
        choose(file.toString());

        assertThat(fx(() -> List.copyOf(tune().variablePaths()))).as("the parameters offered")
                .contains("lease.leaseDuration", "lease.renewDeadline", "lease.retryPeriod")
                .doesNotContain("lease.ttl", "lease.renewEvery", "lease.lockDelay", "lease.lockWatchdogTimeout");
        assertThat(fx(() -> List.copyOf(((ComboBox<String>) console.scene().lookup("#tune-across-path")).getItems())))
                .as("the parameter list on screen").doesNotContain("lease.ttl");
        assertThat(fx(() -> tune().across().pathProperty().get())).as("the profile's main lifetime")
                .isEqualTo("lease.leaseDuration");
        assertThat(fx(() -> tune().across().fromProperty().get() + ".." + tune().across().toProperty().get()))
                .as("half to twice the profile's 15s").isEqualTo("7500ms..30000ms");
        screenshot("tune-kubernetes-form");
    }

    @Test
    void pickingAnotherParameterStartsItsRangeAtTheScenariosValue() {
        choose("vm-suspension");
        ComboBox<String> across = fx(() -> (ComboBox<String>) console.scene().lookup("#tune-across-path"));

        fxRun(() -> across.setValue("faults[0].duration"));
        assertThat(fx(() -> tune().across().fromProperty().get() + ".." + tune().across().toProperty().get()))
                .as("the suspension's length in the file, not the ttl range before").isEqualTo("40s..40s");
        fxRun(() -> across.setValue("workers[0].jobs"));
        assertThat(fx(() -> tune().across().fromProperty().get() + ".." + tune().across().toProperty().get()))
                .as("a key the file leaves out: the format's default").isEqualTo("0..0");
    }

    @Test
    void aSweepWhoseSettingsAreAllSkippedSaysNothingRanAndWhy(FxRobot robot, @TempDir Path dir) {
        sweepRenewDeadlines("20s", "30s", dir);
        press(robot, "#tune-run");
        waitUntil("the sweep has ended", 60, () -> tune().phase() == Phase.DONE);

        assertThat(label("#tune-status")).as("no \"Done: 2 runs of 2 settings\" when nothing ran")
                .startsWith("Nothing ran: 2 of 2 settings skipped, not valid scenarios: ").contains("renewDeadline");
    }

    @Test
    void theStatusCountsTheSettingsThatRanAndThoseSkipped(FxRobot robot, @TempDir Path dir) {
        sweepRenewDeadlines("5s", "20s", dir);
        press(robot, "#tune-run");
        waitUntil("the sweep has ended", 120, () -> tune().phase() == Phase.DONE);

        assertThat(label("#tune-status")).as("one setting ran, one (renewDeadline 20s, past leaseDuration 15s) skipped")
                .startsWith("Done: 1 run of 1 setting; 1 of 2 settings skipped, not valid scenarios: ")
                .contains("renewDeadline");
        screenshot("tune-skipped-status");
    }

    /** The k8s preset swept over renewDeadline FROM..TO in two steps, one seed, in memory. */
    private void sweepRenewDeadlines(String from, String to, Path dir) {
        choose("k8s-leader-gc");
        fxRun(() -> {
            tune().across().pathProperty().set("lease.renewDeadline");
            tune().across().fromProperty().set(from);
            tune().across().toProperty().set(to);
            tune().across().stepsProperty().set(2);
            tune().upwards().pathProperty().set("");
            tune().seedsProperty().set(1);
            tune().requireProperty().set("");
            tune().backendProperty().set(Backend.MEMORY);
            tune().outProperty().set(dir.resolve("k8s").toString());
        });
    }

    /** Shows the Tune view and chooses {@code scenario} (a catalog name or a file) as typed into the picker. */
    private void choose(String scenario) {
        waitForDatabase();
        fxRun(() -> console.tune().show(true));
        fxRun(() -> ((ComboBox<String>) console.scene().lookup("#tune-scenario")).setValue(scenario));
        waitUntil("the form is filled for " + scenario, 10, () -> scenario.equals(tune().scenarioProperty().get()),
                () -> tune().statusProperty().get());
    }

    /** The GC log the k8s scenario reads, into {@code dir/data} beside a copy of the scenario, as the file names it. */
    private static void copyGcLog(Path dir) throws Exception {
        Files.createDirectories(dir.resolve("data"));
        try (var in = io.fencelab.scenarios.Catalog.class.getResourceAsStream(
                "/io/fencelab/scenarios/catalog/data/g1-service.log")) {
            Files.copy(in, dir.resolve("data/g1-service.log"));
        }
    }

    /** Event logs under {@code out} whose first line is RunEnded: runs that never started. */
    private static List<Path> stubLogs(Path out) throws Exception {
        try (var files = Files.walk(out)) {
            return files.filter(f -> f.toString().endsWith(".jsonl")).filter(f -> {
                try (var lines = Files.lines(f)) {
                    return lines.findFirst().map(l -> l.contains("RunEnded")).orElse(true);
                } catch (java.io.IOException e) {
                    throw new java.io.UncheckedIOException(e);
                }
            }).toList();
        }
    }

    /** The results file's rows, header left out. */
    private static List<String> rows(Path out) throws Exception {
        List<String> lines = Files.readAllLines(out.resolve(SweepDirectory.CSV));
        return lines.subList(1, lines.size()).stream().filter(l -> !l.isBlank()).toList();
    }
}
