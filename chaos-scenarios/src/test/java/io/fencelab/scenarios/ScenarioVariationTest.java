package io.fencelab.scenarios;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.fencelab.engine.chaos.Distribution;
import io.fencelab.engine.tune.Axis;
import io.fencelab.engine.tune.AxisKind;
import io.fencelab.engine.tune.AxisValue;
import io.fencelab.engine.tune.Point;
import io.fencelab.engine.tune.PointSpec;
import io.fencelab.engine.tune.SweepPlan;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class ScenarioVariationTest {

    private static final ScenarioVariation PAUSED = ScenarioVariation.of(Catalog.shipped().source("paused-holder"));
    private static final ScenarioVariation STORM = ScenarioVariation.of(Catalog.shipped().source("gc-storm"));

    @Test
    void aVariedScenarioKeepsItsTargetsAsLocatedInTheFile() {
        ScenarioVariation own = ScenarioVariation.of(Catalog.shipped().source("your-own-fence"));

        Scenario varied = own.scenario(Map.of("lease.ttl", "8s"));

        assertThat(varied.spec().leaseTtl()).isEqualTo(Duration.ofSeconds(8));
        assertThat(varied.fences()).as("the SQL where the file wrote it").isEqualTo(own.base().fences());
        assertThat(own.variablePaths().keySet()).noneMatch(p -> p.startsWith("targets"));
    }

    @Test
    void theVariablePathsComeFromTheFormatAndTheFilesOwnEntries() {
        assertThat(PAUSED.variablePaths()).containsKeys("duration", "lease.ttl", "lease.renewEvery",
                "workers[0].count", "workers[1].count", "workers[1].startAt", "workers[0].idleTime",
                "faults[0].at", "faults[0].duration");
        assertThat(PAUSED.variablePaths()).doesNotContainKeys("seed", "workers[2].count", "fencing");
        assertThat(PAUSED.variablePaths().get("workers[0].count")).isEqualTo(AxisKind.INTEGER);
        assertThat(STORM.variablePaths()).as("numbers inside the file's distributions").containsKeys(
                "faults[0].every.exponential", "faults[0].duration.pareto.scale", "faults[0].duration.pareto.cap");
        assertThat(STORM.variablePaths().get("faults[0].duration.pareto.shape")).isEqualTo(AxisKind.NUMBER);
    }

    private static final ScenarioVariation K8S = ScenarioVariation.of(Catalog.shipped().source("k8s-leader-gc"));

    @Test
    void underLeaseOnlyTheScenariosOwnProfileSettingsCanVary() {
        assertThat(K8S.variablePaths()).as("kubernetes's settings")
                .containsKeys("lease.leaseDuration", "lease.renewDeadline", "lease.retryPeriod");
        assertThat(K8S.variablePaths()).as("other profiles' settings, which the compiler refuses for kubernetes")
                .doesNotContainKeys("lease.ttl", "lease.renewEvery", "lease.lockDelay", "lease.sessionTimeout");
        assertThat(PAUSED.variablePaths()).as("generic's settings only")
                .containsKeys("lease.ttl", "lease.renewEvery").doesNotContainKeys("lease.leaseDuration");
    }

    @Test
    void anotherProfilesSettingIsRefusedWithThePathsThatCanVary() {
        assertThatThrownBy(() -> K8S.axis("lease.ttl=5s..20s:3"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("lease.ttl is not a parameter").hasMessageContaining("lease.leaseDuration");
    }

    @Test
    void theMainLeasePathIsTheProfilesMainLifetime() {
        assertThat(K8S.mainLeasePath()).isEqualTo("lease.leaseDuration");
        assertThat(PAUSED.mainLeasePath()).isEqualTo("lease.ttl");
        assertThat(ScenarioVariation.of(Catalog.shipped().source("redisson-long-gc")).mainLeasePath())
                .isEqualTo("lease.lockWatchdogTimeout");
    }

    @Test
    void aPathsCurrentValueIsTheFilesElseTheProfilesElseTheFormatsDefault() {
        ScenarioVariation vm = ScenarioVariation.of(Catalog.shipped().source("vm-suspension"));
        assertThat(vm.currentValue("lease.ttl")).as("as the file writes it").contains("30s");
        assertThat(vm.currentValue("faults[0].duration")).as("as the file writes it").contains("40s");
        assertThat(K8S.currentValue("lease.leaseDuration")).as("the profile's default, the file leaving it out")
                .contains("15s");
        assertThat(vm.currentValue("workers[0].jobs")).as("the format's default").contains("0");
        assertThat(vm.currentValue("lease.leaseDuration")).as("not a parameter of this file").isEmpty();
    }

    @Test
    void aRangeIsParsedInThePathsOwnSyntax() {
        assertThat(texts(PAUSED.axis("lease.ttl=10s..40s:4"))).containsExactly("10s", "20s", "30s", "40s");
        assertThat(texts(PAUSED.axis("lease.ttl=1s..100s:5log"))).containsExactly("1s", "3.162s", "10s", "31.62s",
                "100s");
        assertThat(texts(PAUSED.axis("lease.ttl=250ms..1s:4"))).containsExactly("250ms", "500ms", "750ms", "1s");
        assertThat(texts(PAUSED.axis("lease.ttl=10s,15s,30s"))).containsExactly("10s", "15s", "30s");
        assertThat(texts(PAUSED.axis("workers[1].count=1..3:5"))).as("whole numbers, repeats dropped")
                .containsExactly("1", "2", "3");
        assertThat(texts(PAUSED.axis("lease.ttl=10s..30s"))).hasSize(ScenarioVariation.DEFAULT_STEPS);
        assertThat(PAUSED.axis("lease.ttl=1500ms..1500ms").values()).containsExactly(new AxisValue(1.5, "1.5s"));
    }

    @Test
    void anUnknownPathListsThePathsThatCanVary() {
        assertThatThrownBy(() -> PAUSED.axis("lease.tll=10s..20s")).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("lease.tll is not a parameter")
                .hasMessageContaining("lease.ttl, lease.renewEvery")
                .hasMessageContaining("faults[0].duration")
                .hasMessageNotContaining("\n");
        assertThatThrownBy(() -> PAUSED.axis("workers[5].count=1..2")).hasMessageContaining("workers[1].count");
    }

    @Test
    void aMalformedVaryIsOneClearLine() {
        assertThatThrownBy(() -> PAUSED.axis("lease.ttl")).hasMessageContaining("PATH=FROM..TO");
        assertThatThrownBy(() -> PAUSED.axis("lease.ttl=10..20s")).hasMessageContaining("has no unit");
        assertThatThrownBy(() -> PAUSED.axis("lease.ttl=10s..20s:0")).hasMessageContaining("STEPS must be");
        assertThatThrownBy(() -> PAUSED.axis("lease.ttl=0s..20s:3log")).hasMessageContaining("above 0");
        assertThatThrownBy(() -> PAUSED.axis("workers[0].count=1.5..3")).hasMessageContaining("not a whole number");
        assertThatThrownBy(() -> PAUSED.axis("lease.ttl=10s....")).hasMessageNotContaining("\n");
    }

    @Test
    void aPointsValuesReachTheRunSpec() {
        List<Axis> axes = List.of(PAUSED.axis("lease.ttl=12s"), PAUSED.axis("faults[0].duration=20s"),
                PAUSED.axis("workers[1].count=2"));

        PointSpec spec = PAUSED.spec(axes, new SweepPlan("paused-holder", "d", axes, List.of(1L)).points().get(0));

        assertThat(spec).isInstanceOf(PointSpec.Ready.class);
        var run = ((PointSpec.Ready) spec).spec();
        assertThat(run.leaseTtl()).isEqualTo(Duration.ofSeconds(12));
        assertThat(run.faults().get(0).duration()).isEqualTo(new Distribution.Fixed(Duration.ofSeconds(20)));
        assertThat(run.workers()).extracting(w -> w.name()).containsExactly("A", "B-1", "B-2");
        assertThat(run.name()).isEqualTo("paused-holder");
    }

    @Test
    void aKeyTheFileLeavesOutIsAdded() {
        Scenario s = STORM.scenario(Map.of("workers[0].jobs", "3", "faults[0].every.exponential", "5s"));

        assertThat(s.spec().workers()).allSatisfy(w -> assertThat(w.jobs()).isEqualTo(3));
        assertThat(s.spec().faults().get(0).start()).isEqualTo(new io.fencelab.engine.chaos.FaultStart.Every(
                new Distribution.Exponential(Duration.ofSeconds(5))));
    }

    @Test
    void aSettingThatMakesTheScenarioInvalidIsSkippedWithItsReason() {
        List<Axis> axes = List.of(STORM.axis("lease.renewEvery=500ms,1s,2s"), STORM.axis("workers[0].idleTime=0s,1s"));
        List<Point> points = new SweepPlan("gc-storm", "d", axes, List.of(1L)).points();

        PointSpec renewTooLate = STORM.spec(axes, points.get(3)); // renewEvery 1s, idle 1s; ttl is 1s
        PointSpec idleZero = STORM.spec(axes, points.get(0));     // idle 0s
        PointSpec fine = STORM.spec(axes, points.get(1));         // renewEvery 500ms, idle 1s

        assertThat(renewTooLate).isEqualTo(new PointSpec.Skipped(
                "lease.renewEvery: renewing every 1s is not sooner than the ttl 1s: the lease expires between renewals"));
        assertThat(((PointSpec.Skipped) idleZero).reason()).startsWith("workers[0].idleTime: ");
        assertThat(fine).isInstanceOf(PointSpec.Ready.class);
    }

    private static List<String> texts(Axis axis) {
        return axis.values().stream().map(AxisValue::text).toList();
    }
}
