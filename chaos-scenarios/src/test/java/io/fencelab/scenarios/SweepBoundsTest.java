package io.fencelab.scenarios;

import static org.assertj.core.api.Assertions.assertThat;

import io.fencelab.engine.check.SafetyChecker;
import io.fencelab.engine.db.Database;
import io.fencelab.engine.event.Event;
import io.fencelab.engine.metrics.TuningMetrics;
import io.fencelab.engine.run.Run;
import io.fencelab.engine.run.RunSpec;
import io.fencelab.engine.tune.Bounds;
import io.fencelab.testing.EmbeddedDatabase;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * The closed-form pause bounds hold in the simulator and are tight: a holder renewing every r never
 * loses its lease in a pause shorter than ttl − r, always loses it in one longer than ttl, and the
 * measured extremes come within 20 % of those bounds.
 */
@ExtendWith(EmbeddedDatabase.class)
class SweepBoundsTest {

    private static final String HOLDER = """
            title: A renewing holder that pauses
            summary: One holder renews its lease through long jobs while pauses of every length hit it.
            story: [It renews, it pauses, sometimes the lease outlives the pause.]
            duration: 20m
            seed: 1
            lease: {ttl: 10s, renewEvery: 2s}
            workers:
              - {name: A, scope: s, workTime: 60s, idleTime: 1s, writes: [{key: k}]}
            faults:
              - {kind: PAUSE, target: A, every: {exponential: 5s}, duration: {uniform: [1s, 15s]}}
            expect: {verdict: SAFE}
            """;

    @ParameterizedTest(name = "ttl {0}, renewEvery {1}")
    @CsvSource({"10s, 2s, 7s, 11s", "10s, 5s, 4s, 11s", "6s, 1s, 4s, 7s"})
    void pausesBelowTtlMinusRenewalAreSurvivedAndPausesAboveTtlAreNot(String ttl, String renew, String shortest, String longest,
                                                                       @TempDir Path dir,
                                                                       Database db) throws Exception {
        ScenarioVariation v = ScenarioVariation.of(new ScenarioSource("holder.yaml", "holder", HOLDER));
        // pauses from a little below ttl - renewEvery to a little above ttl: where the bounds are decided
        RunSpec base = v.scenario(Map.of("lease.ttl", ttl, "lease.renewEvery", renew,
                "faults[0].duration.uniform[0]", shortest, "faults[0].duration.uniform[1]", longest)).spec();
        Bounds bounds = Bounds.of(base);
        double shortestLost = Double.POSITIVE_INFINITY;
        double longestSurvived = 0;
        for (long seed = 1; seed <= 3; seed++) {
            List<Event> events = new ArrayList<>();
            try (Run run = Run.prepare(db, base.withSeed(seed), dir.resolve(seed + ".jsonl"))) {
                run.bus().subscribe("test", events::addAll);
                run.runToEnd();
            }
            Map<String, Double> measured = Bounds.measure(events);
            shortestLost = Math.min(shortestLost, measured.get("shortestLostPauseSeconds"));
            longestSurvived = Math.max(longestSurvived, measured.get("longestSurvivedPauseSeconds"));
        }

        assertThat(shortestLost).as("no pause shorter than ttl - renewEvery (%s) cost the lease",
                bounds.survivedPauseSeconds()).isGreaterThanOrEqualTo(bounds.survivedPauseSeconds());
                assertThat(shortestLost).as("and the bound is approached").isLessThanOrEqualTo(
                bounds.survivedPauseSeconds() * 1.2);
        assertThat(longestSurvived).as("no pause longer than ttl (%s) was survived", bounds.lostPauseSeconds())
                .isLessThanOrEqualTo(bounds.lostPauseSeconds());
        assertThat(longestSurvived).as("and that bound is approached").isGreaterThanOrEqualTo(
                bounds.lostPauseSeconds() * 0.8);
    }
    private static final String CRASHING_LEADERS = """
            title: Leaders that crash
            summary: Three leaders compete for one lease; whoever leads crashes now and then and restarts.
            story: [One leads, it crashes, a candidate takes over once the lease runs out.]
            duration: 30m
            seed: 1
            lease: {ttl: 10s, renewEvery: 2s}
            workers:
              - {name: L, count: 3, scope: s, role: leader, workTime: 1s, idleTime: 3s, writes: [{key: k}]}
            faults:
              - {kind: CRASH, target: all, every: {exponential: 40s}, restart: {after: 5s}}
            expect: {verdict: SAFE}
            """;

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', value = {
            "generic      | lease.ttl          | 10s",
            "kubernetes   | lease.leaseDuration | 12s",
            "consul       | lease.ttl          | 6s"})
    void noFailoverAfterACrashTakesLongerThanOneGrantPlusLockDelayPlusTheLongestRetry(String profile, String ttlPath,
                                                                                    String ttl, @TempDir Path dir,
                                                                                    Database db) throws Exception {
        String yaml = CRASHING_LEADERS.replace("lease: {ttl: 10s, renewEvery: 2s}", switch (profile) {
            case "kubernetes" -> "lease: {profile: kubernetes}";
            case "consul" -> "lease: {profile: consul, lockDelay: 5s}";
            default -> "lease: {ttl: 10s, renewEvery: 2s}";
        });
        ScenarioVariation v = ScenarioVariation.of(new ScenarioSource("leaders.yaml", "leaders", yaml));
        RunSpec spec = v.scenario(Map.of(ttlPath, ttl)).spec();
        Bounds bounds = Bounds.of(spec);
        double worst = 0;
        long failovers = 0;
        for (long seed = 1; seed <= 2; seed++) {
            List<Event> events = new ArrayList<>();
            try (Run run = Run.prepare(db, spec.withSeed(seed), dir.resolve(seed + ".jsonl"))) {
                run.bus().subscribe("test", events::addAll);
                run.runToEnd();
            }
            TuningMetrics m = TuningMetrics.of(events, SafetyChecker.judgement(events));
            failovers += m.failovers();
            if (m.failoverMaxMicros() != null) {
                worst = Math.max(worst, m.failoverMaxMicros() / 1e6);
            }
        }

        assertThat(failovers).as("%s: crashes of the leader were measured", profile).isGreaterThan(10);
        assertThat(worst).as("%s: no failover exceeded the bound %.1fs", profile, bounds.failoverSeconds())
                .isLessThanOrEqualTo(bounds.failoverSeconds());
        assertThat(worst).as("%s: and the worst came close to it", profile)
                .isGreaterThanOrEqualTo(bounds.failoverSeconds() * 0.75);
    }
}
