package io.fencelab.report;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.fencelab.engine.db.Database;
import io.fencelab.engine.tune.Axis;
import io.fencelab.engine.tune.Point;
import io.fencelab.engine.tune.PointSummary;
import io.fencelab.engine.tune.Requirement;
import io.fencelab.engine.tune.ResultRow;
import io.fencelab.engine.tune.RunDone;
import io.fencelab.engine.tune.SweepListener;
import io.fencelab.engine.tune.SweepPlan;
import io.fencelab.engine.tune.SweepResults;
import io.fencelab.engine.tune.SweepRunner;
import io.fencelab.scenarios.Catalog;
import io.fencelab.scenarios.ScenarioVariation;
import io.fencelab.testing.EmbeddedDatabase;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/** Sweeps on the real embedded PostgreSQL: results, resuming, refusing, skipping, and the page. */
@ExtendWith(EmbeddedDatabase.class)
class SweepTest {

    private static final ScenarioVariation PAUSED = ScenarioVariation.of(Catalog.shipped().source("paused-holder"));

    private record Sweep(SweepPlan plan, List<Axis> axes) {}

    private static Sweep plan(String... vary) {
        List<Axis> axes = new ArrayList<>();
        for (String v : vary) {
            axes.add(PAUSED.axis(v));
        }
        return new Sweep(new SweepPlan("paused-holder", PAUSED.source().digest(), axes, SweepPlan.seeds(1, 2)), axes);
    }

    /** Runs the sweep into {@code dir}; {@code also} hears it too and may stop the runner through the holder. */
    private static boolean run(Database db, Sweep s, Path dir, List<Requirement> req, SweepListener also,
                               SweepRunner[] runnerOut) throws Exception {
        try (SweepDirectory out = SweepDirectory.open(dir, s.plan(), PAUSED.base(), req)) {
            SweepRunner runner = new SweepRunner(db, s.plan(), p -> PAUSED.spec(s.axes(), p), out.results(), 2,
                    out.workDir());
            if (runnerOut != null) {
                runnerOut[0] = runner;
            }
            return runner.run(SweepListener.all(out, also));
        }
    }

    @Test
    void aTwoAxisSweepWritesEveryRunAndLinksEachPointToItsWorstSeedsReport(Database db, @TempDir Path dir)
            throws Exception {
        Sweep s = plan("lease.ttl=10s,30s", "faults[0].duration=15s,40s");
        AtomicInteger runs = new AtomicInteger();

        boolean completed = run(db, s, dir, List.of(Requirement.parse("staleWritesPerHour<=100")),
                new SweepListener() {
                    @Override
                    public void runFinished(ResultRow row) {
                        runs.incrementAndGet();
                    }
                }, null);

        assertThat(completed).isTrue();
        assertThat(runs).hasValue(8);
        List<String> csv = Files.readAllLines(dir.resolve("sweep.csv"));
        assertThat(csv.get(0)).isEqualTo("point,seed,lease.ttl,faults[0].duration,failoverP50Seconds,"
                + "failoverP99Seconds,failoverMaxSeconds,failovers,unavailability,unavailableFrozen,"
                + "unavailableAwaitingExpiry,unavailableAcquiring,unavailableUnreachable,leaseLossesPerHour,"
                + "pauseLossesPerHour,renewalLossesPerHour,transitionsPerHour,staleWritesPerHour,wastedJobs,"
                + "leaseLoadPerSecond,"
                + "longestSurvivedPauseSeconds,shortestLostPauseSeconds,verdict,pastBound");
        assertThat(csv).hasSize(9);
        assertThat(csv.get(1)).startsWith("0,1,10,15,");
        assertThat(csv.get(8)).startsWith("3,2,30,40,").contains(",SAFE,");

        String html = Files.readString(dir.resolve("sweep.html"));
        for (Point p : s.plan().points()) {
            String link = "points/" + p.id() + "/report.html";
            assertThat(dir.resolve(link)).as("worst-seed report of %s", p.id()).isRegularFile();
            assertThat(count(html, "<a href=\"" + Pattern.quote(link) + "\"><title>"))
                    .as("one heatmap cell per metric for %s, plus its dots and its feasibility cell", p.id())
                    .isGreaterThanOrEqualTo(12);
        }
        assertThat(html).doesNotContain("<script").doesNotContain("src=\"http").contains("Pareto frontier")
                .contains("Recommended:").contains("grant + lock-delay + retry");
        assertThat(Files.readString(dir.resolve("sweep.json"))).contains("\"recommended\" : \"p")
                .contains("\"status\" : \"done\"");
        assertThat(dir.resolve(".runs")).as("run logs are cleaned up").doesNotExist();
    }

    @Test
    void eachPointsReportListsTheFailoversAndLeaseLossesOfItsWorstSeed(Database db, @TempDir Path dir) throws Exception {
        Sweep s = plan("lease.ttl=10s,30s");
        java.util.Map<String, io.fencelab.engine.metrics.TuningEpisodes> worst = new java.util.concurrent.ConcurrentHashMap<>();

        run(db, s, dir, List.of(), new SweepListener() {
            @Override
            public void pointFinished(PointSummary summary, RunDone shown) {
                if (shown != null) {
                    worst.put(summary.point().id(), shown.result().tuning().episodes());
                }
            }
        }, null);

        assertThat(worst).as("a worst seed for each point").hasSize(2);
        worst.forEach((id, episodes) -> {
            String html;
            try {
                html = Files.readString(dir.resolve("points/" + id + "/report.html"));
            } catch (java.io.IOException e) {
                throw new java.io.UncheckedIOException(e);
            }
            assertThat(html).as("%s's report", id).contains("<h2>Failovers and lease losses</h2>")
                    .contains("<section id=\"timeline\"");
            assertThat(count(html, "<a href=\"#timeline\" data-zoom=")).as("%s: a zoom link per failover and lease loss", id)
                    .isEqualTo(Math.min(episodes.failovers().size(), EpisodeTables.MAX_ROWS)
                            + Math.min(episodes.leaseLosses().size(), EpisodeTables.MAX_ROWS));
            assertThat(html.contains("<p>No failover in this run.</p>")).as("%s: says so when it had no failover", id)
                    .isEqualTo(episodes.failovers().isEmpty());
            assertThat(html.contains("<p>No lease lost in this run.</p>")).as("%s: says so when it lost no lease", id)
                    .isEqualTo(episodes.leaseLosses().isEmpty());
        });
    }

    @Test
    void anInterruptedSweepResumesWithoutRerunningOrDoublingDoneRuns(Database db, @TempDir Path dir,
                                                                    @TempDir Path whole) throws Exception {
        Sweep s = plan("lease.ttl=10s..40s:4");
        run(db, s, whole, List.of(), new SweepListener() {}, null);
        SweepRunner[] runner = new SweepRunner[1];
        List<String> first = new ArrayList<>();

        boolean completed = run(db, s, dir, List.of(), new SweepListener() {
            @Override
            public void runFinished(ResultRow row) {
                first.add(row.point() + "/" + row.seed());
                if (first.size() == 3) {
                    runner[0].stop();
                }
            }
        }, runner);
        List<String> second = new ArrayList<>();
        boolean resumed = run(db, s, dir, List.of(), new SweepListener() {
            @Override
            public void runFinished(ResultRow row) {
                second.add(row.point() + "/" + row.seed());
            }
        }, null);

        assertThat(completed).isFalse();
        assertThat(resumed).isTrue();
        assertThat(first.size()).isBetween(3, 4); // the other job may finish its run while the stop lands
        assertThat(second).as("no run done twice").doesNotContainAnyElementsOf(first);
        assertThat(first.size() + second.size()).isEqualTo(8);
        assertThat(Files.readAllLines(dir.resolve("sweep.csv")))
                .as("the same rows as a sweep never interrupted").isEqualTo(Files.readAllLines(whole.resolve("sweep.csv")));
        assertThat(s.plan().points()).allSatisfy(p -> assertThat(dir.resolve("points/" + p.id() + "/report.html"))
                .isRegularFile());
    }

    @Test
    void aSettingPastABoundForAReasonTheBoundLeavesOutIsRecommendedWithThatReasonShown() {
        Sweep s = plan("lease.ttl=10s,30s");
        String why = "a failover of 50.0 s after A crashed at 580.0 s: all 3 replicas down from 593.8 s to 599.7 s";
        SweepResults r = results(s, why, false);

        String html = SweepReport.render(r, "bounds", p -> false);

        String label = s.plan().points().get(1).label(s.axes());
        assertThat(r.recommended()).as("its measured figures meet the constraint best").hasValueSatisfying(
                a -> assertThat(a.point().point().index()).isEqualTo(1));
        assertThat(html).as("the ✗ points to a footnote a printed page still shows")
                .contains("✗ past the bound <sup><a href=\"#past-1\">1</a></sup>")
                .contains("<li id=\"past-1\">" + label + ", seed 1 (failover after a crash): " + why
                        + " <i>The bound leaves this out.</i></li>");
        assertThat(html).as("the recommendation says it").contains("Some seeds of this setting went past a bound")
                .contains("<li>seed 1 (failover after a crash): " + why + "</li>");
    }

    @Test
    void aSettingPastABoundForAReasonTheBoundModelsIsNotRecommendedAndThePageSaysSo() {
        Sweep s = plan("lease.ttl=10s,30s");
        SweepResults r = results(s, "a failover of 50.0 s after A crashed at 580.0 s: nothing the bound leaves out "
                + "happened: the bound or the simulator is wrong; please report it", true);

        String html = SweepReport.render(r, "bounds", p -> false);

        assertThat(r.recommended()).as("the other setting, though its margin is narrower").hasValueSatisfying(
                a -> assertThat(a.point().point().index()).isEqualTo(0));
        assertThat(html).contains("1 setting went past a bound for no reason the bound leaves out and is not recommended")
                .contains("The bound models this: a bug in the bound or the simulator")
                .as("its feasible-region cell says why it is out").contains("breaks a bound");
    }

    /** Point 0 within its bounds (failover p99 15 s), point 1 (failover p99 5 s) past its failover bound in seed 1. */
    private static SweepResults results(Sweep s, String why, boolean modelled) {
        java.util.Map<String, Double> v = new java.util.LinkedHashMap<>();
        io.fencelab.engine.tune.ResultsFile.figureNames().forEach(n -> v.put(n, 0.0));
        v.put("failoverP99Seconds", 15.0);
        ResultRow within = new ResultRow(0, 1, v, "SAFE");
        v.put("failoverP99Seconds", 5.0);
        v.put("failoverMaxSeconds", 50.0);
        ResultRow past = new ResultRow(1, 1, v, "SAFE", List.of(new io.fencelab.engine.tune.Bounds.PastBound(
                io.fencelab.engine.tune.Bounds.Bound.FAILOVER, modelled, why)));
        List<Point> points = s.plan().points();
        return new SweepResults(s.plan(), java.util.Map.of(
                0, new PointSummary(points.get(0), List.of(within), new io.fencelab.engine.tune.Bounds(11, 11, 8, 10)),
                1, new PointSummary(points.get(1), List.of(past), new io.fencelab.engine.tune.Bounds(31, 31, 28, 30))),
                java.util.Map.of(), List.of(Requirement.parse("failoverP99Seconds<=20")));
    }

    @Test
    void aDirectoryHoldingAnotherSweepIsRefused(Database db, @TempDir Path dir) throws Exception {
        run(db, plan("lease.ttl=10s,20s"), dir, List.of(), new SweepListener() {}, null);
        Sweep other = plan("lease.ttl=10s,25s");

        assertThatThrownBy(() -> SweepDirectory.open(dir, other.plan(), PAUSED.base(), List.of()))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("holds a sweep with other arguments (paused-holder, lease.ttl=10s,20s, 2 seeds)")
                .hasMessageNotContaining("\n");
        assertThat(Files.readAllLines(dir.resolve("sweep.csv"))).hasSize(5);
    }

    @Test
    void invalidPointsAreSkippedWithTheirReasonAndTheRestRun(Database db, @TempDir Path dir) throws Exception {
        Sweep s = plan("lease.renewEvery=10s,30s,40s");
        List<String> skipped = new ArrayList<>();
        List<Integer> finished = new ArrayList<>();

        run(db, s, dir, List.of(), new SweepListener() {
            @Override
            public void pointSkipped(Point point, String reason) {
                skipped.add(point.label(s.axes()) + ": " + reason);
            }

            @Override
            public void pointFinished(PointSummary summary, RunDone worst) {
                finished.add(summary.point().index());
            }
        }, null);

        assertThat(skipped).containsExactly(
                "lease.renewEvery=30s: lease.renewEvery: renewing every 30s is not sooner than the ttl 30s: the lease expires between renewals",
                "lease.renewEvery=40s: lease.renewEvery: renewing every 40s is not sooner than the ttl 30s: the lease expires between renewals");
        assertThat(finished).containsExactly(0);
        assertThat(Files.readString(dir.resolve("sweep.html"))).contains("skipped: lease.renewEvery: renewing every 30s is not sooner");
        assertThat(Files.readString(dir.resolve("sweep.json"))).contains("\"status\" : \"skipped\"");
    }

    private static int count(String text, String regex) {
        Matcher m = Pattern.compile(regex).matcher(text);
        int n = 0;
        while (m.find()) {
            n++;
        }
        return n;
    }
}
