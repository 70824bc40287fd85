package io.fencelab.scenarios;

import static io.fencelab.scenarios.ScenarioValidationTest.MINIMAL;
import static io.fencelab.scenarios.ScenarioValidationTest.problems;
import static org.assertj.core.api.Assertions.assertThat;

import io.fencelab.engine.chaos.Distribution;
import io.fencelab.engine.chaos.FaultKind;
import io.fencelab.engine.chaos.FaultSpec;
import io.fencelab.engine.lease.LeaseProfile;
import io.fencelab.engine.run.RunSpec;
import io.fencelab.engine.worker.WorkerRole;
import java.time.Duration;
import org.junit.jupiter.api.Test;

/** Lease profiles, leader workers and crashes in scenario files: what they compile to, and located errors. */
class LeaseProfileScenarioTest {

    /** {@link ScenarioValidationTest#MINIMAL} with its lease (line 6) replaced by {@code lease}, one key a line. */
    private static String withLease(String... lines) {
        return MINIMAL.replace("  ttl: 30s\n", String.join("", java.util.Arrays.stream(lines)
                .map(l -> "  " + l + "\n").toList()));
    }

    /** MINIMAL plus {@code extra} after worker A's scope (line 10 on). */
    private static String withWorkerKeys(String extra) {
        return MINIMAL.replace("    scope: report\n", "    scope: report\n" + extra);
    }

    private static String withFaults(String faults) {
        return MINIMAL.replace("expect:\n", "faults:\n" + faults + "expect:\n");
    }

    @Test
    void aKubernetesLeaseTakesClientGosDefaultsForWhatItLeavesOut() {
        RunSpec spec = ScenarioLoader.load("t.yaml", withLease("profile: kubernetes", "renewDeadline: 8s")).spec();

        assertThat(spec.lease()).isEqualTo(new LeaseProfile.Kubernetes(Duration.ofSeconds(15), Duration.ofSeconds(8),
                Duration.ofSeconds(2)));
        assertThat(spec.leaseTtl()).as("grants last leaseDuration").isEqualTo(Duration.ofSeconds(15));
    }

    @Test
    void eachProfileReadsItsOwnSettings() {
        assertThat(ScenarioLoader.load("t.yaml", withLease("profile: etcd")).spec().lease())
                .isEqualTo(LeaseProfile.Etcd.DEFAULT);
        assertThat(ScenarioLoader.load("t.yaml", withLease("profile: consul", "ttl: 10s", "lockDelay: 0s")).spec()
                .lease()).isEqualTo(new LeaseProfile.Consul(Duration.ofSeconds(10), Duration.ZERO));
        assertThat(ScenarioLoader.load("t.yaml", withLease("profile: redisson")).spec().lease())
                .isEqualTo(LeaseProfile.Redisson.DEFAULT);
        assertThat(ScenarioLoader.load("t.yaml", withLease("profile: zookeeper", "sessionTimeout: 9s")).spec()
                .lease()).isEqualTo(new LeaseProfile.ZooKeeper(Duration.ofSeconds(9)));
        assertThat(ScenarioLoader.load("t.yaml", withLease("profile: shedlock", "lockAtMostFor: 1m",
                "keepAlive: true")).spec().lease()).isEqualTo(new LeaseProfile.ShedLock(Duration.ofMinutes(1), true));
        assertThat(ScenarioLoader.load("t.yaml", MINIMAL).spec().lease()).as("no profile: generic")
                .isEqualTo(new LeaseProfile.Generic(Duration.ofSeconds(30), Duration.ZERO));
    }

    @Test
    void anUnknownProfileIsNamedWithTheNearestOneAndAllAllowed() {
        assertThat(problems(withLease("profile: kubernets"))).containsExactly(
                "t.yaml:6:12: lease.profile: 'kubernets' is not a lease profile; did you mean kubernetes? (allowed: "
                        + "generic, kubernetes, etcd, redisson, consul, zookeeper, shedlock)");
    }

    @Test
    void anotherProfilesSettingIsRefusedWithTheProfilesOwnSettings() {
        assertThat(problems(withLease("profile: kubernetes", "ttl: 30s"))).containsExactly(
                "t.yaml:7:3: lease.ttl: the kubernetes profile has no ttl (its settings: leaseDuration, renewDeadline, "
                        + "retryPeriod, releaseOnCancel)");
    }

    @Test
    void releaseOnCancelIsOffUnlessTheFileSetsIt() {
        assertThat(ScenarioLoader.load("t.yaml", withLease("profile: kubernetes")).spec().lease().releasesOnStepDown())
                .as("client-go's default").isFalse();
        assertThat(ScenarioLoader.load("t.yaml", withLease("profile: kubernetes", "releaseOnCancel: true")).spec()
                .lease()).isEqualTo(new LeaseProfile.Kubernetes(Duration.ofSeconds(15), Duration.ofSeconds(10),
                Duration.ofSeconds(2), true));
    }

    @Test
    void clientGosConstraintsAreCheckedAtTheSettingThatBreaksThem() {
        assertThat(problems(withLease("profile: kubernetes", "leaseDuration: 10s"))).containsExactly(
                "t.yaml:7:18: lease.leaseDuration: leaseDuration 10s must be more than renewDeadline 10s");
        assertThat(problems(withLease("profile: kubernetes", "renewDeadline: 2s", "retryPeriod: 2s"))).containsExactly(
                "t.yaml:7:18: lease.renewDeadline: renewDeadline 2s must be more than 1.2 × retryPeriod (2.4s)");
        assertThat(problems(withLease("profile: kubernetes", "retryPeriod: 9s"))).as("a default can be what breaks")
                .containsExactly("t.yaml:6:3: lease.renewDeadline: renewDeadline 10s must be more than 1.2 × "
                        + "retryPeriod (10.8s) (renewDeadline is kubernetes's default)");
    }

    @Test
    void aGenericLeaseRenewedNoSoonerThanItsTtlIsRefused() {
        assertThat(problems(withLease("ttl: 5s", "renewEvery: 5s"))).containsExactly(
                "t.yaml:7:15: lease.renewEvery: renewing every 5s is not sooner than the ttl 5s: the lease expires "
                        + "between renewals");
    }

    @Test
    void shedLockNeedsLockAtMostFor() {
        assertThat(problems(withLease("profile: shedlock"))).containsExactly(
                "t.yaml:6:3: lease.lockAtMostFor: missing required key (for example lockAtMostFor: 10m)");
    }

    @Test
    void aWorkerIsALeaderOrDoesJobs() {
        assertThat(ScenarioLoader.load("t.yaml", withWorkerKeys("    role: leader\n")).spec().workers().getFirst()
                .role()).isEqualTo(WorkerRole.LEADER);
        assertThat(problems(withWorkerKeys("    role: boss\n"))).singleElement().asString()
                .startsWith("t.yaml:10:11: workers[0].role: ").contains("jobs, leader");
    }

    @Test
    void aCrashRestartsAfterItsDelayAsTheIdentityGiven() {
        RunSpec spec = ScenarioLoader.load("t.yaml", withFaults("""
                  - kind: CRASH
                    target: A
                    every: {exponential: 20s}
                    restart: {after: {uniform: [1s, 3s]}, identity: new}
                  - kind: CRASH
                    target: A
                    at: 50s
                """)).spec();

        FaultSpec restarting = spec.faults().getFirst();
        assertThat(restarting.kind()).isEqualTo(FaultKind.CRASH);
        assertThat(restarting.duration()).isEqualTo(new Distribution.Uniform(Duration.ofSeconds(1), Duration.ofSeconds(3)));
        assertThat(restarting.identity()).isEqualTo(FaultSpec.Identity.NEW);
        assertThat(spec.faults().get(1).duration()).as("no restart: never")
                .isEqualTo(new Distribution.Fixed(Duration.ZERO));
    }

    @Test
    void aCrashTakesRestartNotDurationAndOnlyACrashRestarts() {
        assertThat(problems(withFaults("""
                  - {kind: CRASH, target: A, at: 5s, duration: 3s}
                  - {kind: PAUSE, target: A, at: 5s, restart: {after: 3s}}
                  - {kind: CRASH, target: A, at: 5s, restart: {identity: other}}
                """))).containsExactly(
                "t.yaml:13:48: faults[0].duration: a CRASH has no duration; say when it comes back with restart: "
                        + "{after: 10s, identity: same|new}, or leave restart out (never restarts)",
                "t.yaml:14:47: faults[1].restart: only a CRASH restarts; PAUSE takes duration instead",
                "t.yaml:15:47: faults[2].restart.after: missing required key (for example after: 10s)",
                "t.yaml:15:58: faults[2].restart.identity: 'other' is not one of same, new");
    }
}
