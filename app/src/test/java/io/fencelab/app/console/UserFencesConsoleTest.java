package io.fencelab.app.console;

import static io.fencelab.app.console.ConsoleFx.fx;
import static io.fencelab.app.console.ConsoleFx.fxRun;
import static io.fencelab.app.console.ConsoleFx.waitUntil;
import static org.assertj.core.api.Assertions.assertThat;

import io.fencelab.app.console.model.ProbeModel;
import io.fencelab.app.console.model.RunPhase;
import io.fencelab.engine.fence.EqualToken;
import io.fencelab.engine.fence.FirstWritePolicy;
import io.fencelab.engine.fence.OutcomeRule;
import io.fencelab.engine.fence.SqlFence;
import io.fencelab.engine.fence.SqlText;
import io.fencelab.engine.probe.ChecklistItem;
import io.fencelab.engine.probe.ItemVerdict;
import io.fencelab.engine.probe.ProbeOptions;
import io.fencelab.engine.resource.ResourceId;
import io.fencelab.engine.resource.SqlKey;
import io.fencelab.engine.resource.TargetKind;
import io.fencelab.engine.run.UserFences;
import io.fencelab.scenarios.Catalog;
import io.fencelab.scenarios.Scenario;
import java.nio.file.Files;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import javafx.collections.ListChangeListener;
import javafx.scene.Node;
import javafx.scene.control.Button;
import javafx.scene.control.Tab;
import javafx.scene.control.TabPane;
import javafx.scene.control.TreeItem;
import javafx.scene.control.TreeView;
import org.junit.jupiter.api.Test;
import org.testfx.api.FxRobot;

/**
 * A scenario with its own SQL fence in the console: the SQL shown read-only with its file and line,
 * and Probe, started from the controls, filling in the checklist from a real probe on the embedded
 * PostgreSQL as each verdict is found.
 */
class UserFencesConsoleTest extends ConsoleTestBase {

    private static final String FILE = "report.yaml";

    /** The design note's table; {@code predicate} is the write's token check (empty: none at all). */
    private static SqlFence fence(String predicate) {
        return new SqlFence("report",
                new SqlText("CREATE TABLE report_state (report_id bigint PRIMARY KEY, body text NOT NULL,\n"
                        + "                           fencing_token bigint NOT NULL);\n", FILE, 5, 7),
                List.of(), new SqlText("INSERT INTO report_state VALUES (1, '', 0);\n", FILE, 8, 7),
                List.of(new SqlText("UPDATE report_state SET body = :body, fencing_token = :token\n"
                        + "WHERE report_id = :key" + predicate + "\n", FILE, 10, 7)),
                new OutcomeRule(OutcomeRule.parse("rows = 1").orElseThrow(), null, null),
                new SqlText("SELECT fencing_token AS token, body FROM report_state WHERE report_id = :key", FILE, 13, 9),
                EqualToken.ACCEPT, FirstWritePolicy.MISSING);
    }

    /** The paused-holder story with {@code fence} of the user's own beside it. */
    private static Scenario withFence(SqlFence fence) {
        Scenario story = Catalog.shipped().load("paused-holder");
        return new Scenario(story.name(), story.notes(),
                story.spec().toBuilder().userFences(new UserFences(List.of(fence), false)).build(), story.expectation());
    }

    private void show(Scenario scenario) {
        waitForDatabase();
        fxRun(() -> console.scenarios().showLesson(scenario, "your own fence"));
        waitUntil("the scenario is prepared", 60, () -> main().phase() == RunPhase.PAUSED);
    }

    private Tab tab(String id) {
        return fx(() -> ((TabPane) console.view().catalog.tabs).getTabs().stream()
                .filter(t -> id.equals(t.getId())).findFirst().orElse(null));
    }

    @Test
    void theSqlTabShowsEachStatementWithItsFileAndLineAndCannotBeEdited() {
        show(withFence(fence(" AND fencing_token <= :token")));
        Tab sqlTab = tab("sql-tab");
        assertThat(sqlTab).as("a scenario with its own fence gets the SQL tab beside Story and Parameters").isNotNull();
        fxRun(() -> sqlTab.getTabPane().getSelectionModel().select(sqlTab));
        ConsoleFx.frames();
        Node view = fx(() -> console.scene().lookup("#sql-targets"));
        List<String> parts = fx(() -> view.lookupAll(".sql-text").stream()
                .map(n -> ((javafx.scene.control.Label) n).getText()).toList());
        assertThat(parts).as("schema, setup, write, how the answer reads, read").hasSize(5);
        assertThat(parts).as("the statement as the file wrote it").anyMatch(p -> p.startsWith("UPDATE report_state")
                && p.contains("fencing_token <= :token"));
        assertThat(fx(() -> view.lookupAll(".text-input").isEmpty()))
                .as("nothing in the SQL view can be typed into: the file is where it is edited").isTrue();
        String headings = fx(() -> String.join("\n", view.lookupAll(".sql-part").stream()
                .map(n -> ((javafx.scene.control.Label) n).getText()).toList()));
        assertThat(headings).as("each statement names its file and line")
                .contains("schema  —  report.yaml:5", "write  —  report.yaml:10", "read  —  report.yaml:13");
        ConsoleFx.screenshot(console.scene().getRoot(), "console-sql-tab");
    }

    @Test
    void aScenarioWithoutFencesOfItsOwnHasNeitherTheSqlTabNorProbe() {
        show(withFence(fence(" AND fencing_token <= :token")));
        assertThat(tab("sql-tab")).isNotNull();
        fxRun(() -> console.scenarios().select("paused-holder"));
        waitUntil("the catalog scenario is prepared", 60, () -> main().phase() == RunPhase.PAUSED
                && console.model().scenario().spec().userFences().isEmpty());
        assertThat(tab("sql-tab")).as("the SQL tab goes with the fences").isNull();
        assertThat(fx(() -> console.scene().lookup("#probe").isDisabled())).as("Probe is off without fences").isTrue();
    }

    @Test
    void aRunOfTheCatalogsOwnFenceDrawsItsSqlResourceInALaneOfItsOwn() {
        runToEnd("your-own-fence");
        List<ResourceId> lanes = fx(() -> main().timeline().resources().stream().map(l -> l.resource()).toList());
        assertThat(lanes).as("the fence's key written by the workers, as a SQL resource")
                .contains(new ResourceId(TargetKind.SQL, "report", SqlKey.of("report", "17")));
        assertThat(fx(() -> main().judgement().isSafe())).as("the design note's statement keeps it safe")
                .isTrue();
        screenshot("console-your-own-fence");
    }

    @Test
    void probeFromTheControlsFillsInTheChecklistOfACorrectFenceAsVerdictsArrive(FxRobot robot) {
        show(withFence(fence(" AND fencing_token <= :token")));
        // One simulated race and a short live one: the races as the command line runs them, fewer.
        fxRun(() -> console.probe().setOptions(out -> new ProbeOptions(out, 1, 1, Duration.ofSeconds(2), false)));
        ProbeModel probe = console.model().probe();
        // Each time the list changes, how many rows have their verdict: they should come one at a time.
        List<Long> decided = new ArrayList<>();
        fxRun(() -> probe.rows().addListener((ListChangeListener<ProbeModel.Row>) c ->
                decided.add(probe.rows().stream().filter(r -> !r.pending()).count())));
        assertThat(fx(() -> console.scene().lookup("#probe").isDisabled())).as("Probe is on for a fence").isFalse();
        robot.clickOn("#probe");
        waitUntil("the probe has ended", 240, () -> !probe.phaseProperty().get().busy()
                && probe.phaseProperty().get() != ProbeModel.Phase.IDLE, () -> probe.statusProperty().get());

        assertThat(fx(() -> probe.phaseProperty().get())).as(fx(() -> probe.statusProperty().get()))
                .isEqualTo(ProbeModel.Phase.DONE);
        List<ProbeModel.Row> rows = fx(() -> List.copyOf(probe.rows()));
        assertThat(rows).as("one row per checklist item of the one fence").hasSize(ChecklistItem.values().length)
                .noneMatch(ProbeModel.Row::pending);
        assertThat(rows).as("the design note's statement fails no item")
                .noneMatch(r -> r.verdict().status() == ItemVerdict.Status.FAILS);
        assertThat(rows.getFirst().verdict().status()).as("the stale holder is refused and B's row kept")
                .isEqualTo(ItemVerdict.Status.HOLDS);
        assertThat(decided).as("the checklist filled in verdict by verdict, not all at the end")
                .contains(1L, 2L, (long) ChecklistItem.values().length);
        assertThat(fx(() -> probe.outDirProperty().get()).resolve("probe.json")).as("the CLI's probe.json").exists();
        assertThat(fx(() -> probe.outDirProperty().get()).resolve("probe.html")).as("and its page").exists();
        Tab tab = fx(() -> console.view().below.getSelectionModel().getSelectedItem());
        assertThat(tab.getId()).as("the Probe tab came forward when the probe started").isEqualTo("probe-tab");
        ConsoleFx.screenshot(console.scene().getRoot(), "console-probe-correct");
    }

    @Test
    void aFailureOpensOntoItsWitnessSteps(FxRobot robot) throws Exception {
        show(withFence(fence("")));
        fxRun(() -> console.probe().setOptions(out -> new ProbeOptions(out, 1, 0, Duration.ZERO, false)));
        ProbeModel probe = console.model().probe();
        fxRun(() -> console.probe().start());
        waitUntil("the probe has ended", 240, () -> probe.phaseProperty().get() == ProbeModel.Phase.DONE
                || probe.phaseProperty().get() == ProbeModel.Phase.FAILED, () -> probe.statusProperty().get());
        assertThat(fx(() -> probe.statusProperty().get())).as("the status counts the failures").contains("FAIL");

        @SuppressWarnings("unchecked")
        TreeView<Object> tree = (TreeView<Object>) fx(() -> console.scene().lookup("#probe-checklist"));
        TreeItem<Object> stale = fx(() -> tree.getRoot().getChildren().getFirst());
        ProbeModel.Row row = (ProbeModel.Row) fx(stale::getValue);
        assertThat(row.item()).isEqualTo(ChecklistItem.STALE_HOLDER_REJECTED);
        assertThat(row.verdict().status()).as("no token predicate lets the stale holder through")
                .isEqualTo(ItemVerdict.Status.FAILS);
        assertThat(fx(() -> stale.getChildren().size())).as("its witness, step by step, under the row")
                .isEqualTo(row.verdict().witness().size()).isPositive();
        fxRun(() -> stale.setExpanded(true));
        ConsoleFx.frames();
        String shown = fx(() -> String.join("\n", tree.lookupAll(".tree-cell").stream()
                .map(n -> ((javafx.scene.control.TreeCell<?>) n).getGraphic())
                .filter(g -> g != null).flatMap(g -> ((javafx.scene.Parent) g).getChildrenUnmodifiable().stream())
                .map(n -> ((javafx.scene.control.Label) n).getText()).toList()));
        assertThat(shown).as("an open failure shows its steps with the statement's file and line")
                .contains("FAILS").contains("1. ").contains(FILE + ":10");
        Node root = console.scene().getRoot();
        ConsoleFx.screenshot(root, "console-probe-witness");
        assertThat(Files.exists(fx(() -> probe.outDirProperty().get()).resolve("probe.json"))).isTrue();
        assertThat(fx(() -> ((Button) console.scene().lookup("#probe-start")).isDisabled()))
                .as("Probe can start again once it has ended").isFalse();
    }

    @Test
    void stopEndsTheProbeAfterTheItemUnderWayAndKeepsTheVerdictsFound() {
        show(withFence(fence(" AND fencing_token <= :token")));
        // Many race schedules: the probe would go on for minutes if Stop did not end it.
        fxRun(() -> console.probe().setOptions(out -> new ProbeOptions(out, 1, 500, Duration.ZERO, false)));
        ProbeModel probe = console.model().probe();
        fxRun(() -> console.probe().start());
        waitUntil("two verdicts are in", 120, () -> probe.rows().stream().filter(r -> !r.pending()).count() >= 2);
        fxRun(() -> ((Button) console.scene().lookup("#probe-stop")).fire());
        waitUntil("the probe has stopped", 120, () -> !probe.phaseProperty().get().busy(),
                () -> probe.statusProperty().get());
        assertThat(fx(() -> probe.phaseProperty().get())).as(fx(() -> probe.statusProperty().get()))
                .isEqualTo(ProbeModel.Phase.STOPPED);
        List<ProbeModel.Row> rows = fx(() -> List.copyOf(probe.rows()));
        assertThat(rows).as("the verdicts found before Stop stay").filteredOn(r -> !r.pending()).hasSizeGreaterThanOrEqualTo(2);
        assertThat(rows).as("the items not reached stay pending").anyMatch(ProbeModel.Row::pending);
        assertThat(fx(() -> ((Button) console.scene().lookup("#probe-start")).isDisabled()))
                .as("Probe can start again").isFalse();
    }

    @Test
    void sqlTheDatabaseRefusesStopsTheProbeWithItsPlaceInTheFile() {
        SqlFence good = fence(" AND fencing_token <= :token");
        // A misspelt keyword on the write's second line: PostgreSQL's position is told as the file's line.
        SqlFence broken = new SqlFence(good.name(), good.schema(), good.copyFrom(), good.setup(),
                List.of(new SqlText("UPDATE report_state SET body = :body, fencing_token = :token\n"
                        + "WHER report_id = :key AND fencing_token <= :token\n", FILE, 10, 7)),
                good.outcome(), good.read(), good.equalToken(), good.firstWrite());
        waitForDatabase();
        fxRun(() -> console.scenarios().showLesson(withFence(broken), "your own fence"));
        // The run checks the fence before any worker starts and says where it is wrong, as the probe does.
        waitUntil("the run says why it cannot start", 60, () -> main().problemProperty().get() != null
                && main().problemProperty().get().contains(FILE + ":11"), () -> main().problemProperty().get());
        ProbeModel probe = console.model().probe();
        fxRun(() -> console.probe().start());
        waitUntil("the probe has ended", 120, () -> !probe.phaseProperty().get().busy(),
                () -> probe.statusProperty().get());
        assertThat(fx(() -> probe.phaseProperty().get())).isEqualTo(ProbeModel.Phase.FAILED);
        String status = fx(() -> probe.statusProperty().get());
        assertThat(status).as("one line, located at the statement's second line in the file")
                .contains(FILE + ":11").doesNotContain("\n").doesNotContain("Exception");
        assertThat(fx(() -> List.copyOf(probe.rows()))).as("no row waits for a verdict that will not come").isEmpty();
        ConsoleFx.screenshot(console.scene().getRoot(), "console-probe-bad-sql");
    }
}
