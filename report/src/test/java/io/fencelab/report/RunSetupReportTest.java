package io.fencelab.report;

import static org.assertj.core.api.Assertions.assertThat;

import io.fencelab.engine.chaos.Distribution;
import io.fencelab.engine.event.Event;
import io.fencelab.engine.run.RunSpec;
import io.fencelab.engine.tune.Axis;
import io.fencelab.engine.tune.SweepPlan;
import io.fencelab.scenarios.Catalog;
import io.fencelab.scenarios.ScenarioVariation;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** What a run was set up against, as the reports show it: its lease client and its holders' pauses. */
class RunSetupReportTest {

    private static final RunSpec K8S = Catalog.shipped().load("k8s-leader-gc").spec();
    private static final String G1_PAUSES = "replica-1, replica-2, replica-3: data/g1-service.log: 65 samples, median 1.824 ms, "
            + "p99 29.973 ms, max 29.973 ms; 64 a minute per holder";

    @Test
    void theConfigurationNamesTheLeaseProfileWithEveryOneOfItsSettings() {
        String lease = ReportInput.configurationOf(K8S).get("lease");

        assertThat(lease).as("client-go's defaults, as k8s-leader-gc leaves them")
                .startsWith("kubernetes (leaseDuration 15s, renewDeadline 10s, retryPeriod 2s");
        K8S.lease().values().forEach((setting, value) -> assertThat(lease).as("names %s", setting)
                .contains(setting + " " + (value instanceof Duration d ? Distribution.text(d) : value)));
    }

    @Test
    void theConfigurationWritesNoIso8601Duration() {
        Map<String, String> configuration = ReportInput.configurationOf(K8S);

        assertThat(configuration.values()).as("durations as a scenario file writes them, not PT15S")
                .noneMatch(v -> v.matches("(?s).*\\bPT\\d.*"));
        assertThat(configuration.get("duration")).as("k8s-leader-gc runs 10 minutes").isEqualTo("600s");
    }

    @Test
    void theConfigurationGivesThePauseProfile() {
        assertThat(ReportInput.configurationOf(K8S).get("pauses")).isEqualTo(G1_PAUSES);
    }

    @Test
    void holdersWithDifferentPausesGetALineEachInTheReport(@TempDir Path dir) {
        RunSpec redisson = Catalog.shipped().load("redisson-long-gc").spec();
        ReportInput generic = Inputs.of(List.of(new Event.RunStarted(1, 0, "r", "simulated", "FENCED", "MONOTONIC", 1,
                "PostgreSQL 17.6"), new Event.RunEnded(2, 1_000_000, Event.RunEnded.Reason.COMPLETED)),
                dir.resolve("e"), "Redisson");
        ReportInput input = new ReportInput(generic.scenario(), generic.title(), generic.summary(), generic.story(),
                generic.result(), generic.events(), ReportInput.configurationOf(redisson), generic.expected(), true,
                List.of());

        String html = HtmlReport.render(input);

        List<String> lines = redisson.pauseProfile().lines();
        assertThat(lines).as("jvm-1 has the full GC besides the pauses every holder has").hasSize(2);
        assertThat(html).as("one cell, a line per group").contains("<tr><th scope=\"row\">pauses</th><td>"
                + Html.esc(String.join("\n", lines)) + "</td></tr>");
        assertThat(html).contains("<tr><th scope=\"row\">lease</th><td>"
                + Html.esc(redisson.lease().describe()) + "</td></tr>");
    }

    /** The sweep page of {@code scenario} varied over {@code vary}, written before any run. */
    private static String sweepPage(Path dir, String scenario, String vary) throws Exception {
        ScenarioVariation variation = ScenarioVariation.of(Catalog.shipped().source(scenario));
        List<Axis> axes = List.of(variation.axis(vary));
        SweepPlan plan = new SweepPlan(scenario, variation.source().digest(), axes, SweepPlan.seeds(1, 1));
        try (SweepDirectory out = SweepDirectory.open(dir, plan, variation.base(), List.of())) {
            out.writeReports();
        }
        return Files.readString(dir.resolve(SweepDirectory.HTML));
    }

    @Test
    void theSweepPageGivesThePausesEverySettingWasMeasuredAgainst(@TempDir Path dir) throws Exception {
        assertThat(sweepPage(dir, "k8s-leader-gc", "lease.leaseDuration=12s,20s"))
                .contains("<div class=\"pauses\" id=\"pause-profile\"><b>Pauses</b>: " + Html.esc(G1_PAUSES) + "</div>");
    }

    @Test
    void aSweepVaryingAFaultSaysThePausesShownAreTheFiles(@TempDir Path dir) throws Exception {
        assertThat(sweepPage(dir, "paused-holder", "faults[0].duration=15s,40s"))
                .as("A's scripted pause and B's none, then why a setting's own may differ")
                .contains("<ul><li>A: a 35s pause at 10s</li><li>B: no pauses</li></ul>")
                .contains("this sweep varies faults[0].duration, so a setting's own pauses are in its report");
    }
}
