package io.fencelab.engine.lease;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/** The profiles' own rules, without a database. */
class LeaseProfileTest {

    private static Duration s(double seconds) {
        return Duration.ofMillis((long) (seconds * 1000));
    }

    @Test
    void kubernetesDefaultsAreSoundAndClientGosConstraintsAreEnforced() {
        assertThat(LeaseProfile.Kubernetes.DEFAULT.violations()).isEmpty();

        assertThat(new LeaseProfile.Kubernetes(s(10), s(10), s(2)).violations()).singleElement()
                .satisfies(v -> assertThat(v.setting()).isEqualTo("leaseDuration"))
                .satisfies(v -> assertThat(v.problem()).contains("must be more than renewDeadline 10s"));
        assertThat(new LeaseProfile.Kubernetes(s(15), s(2.4), s(2)).violations()).as("renewDeadline must exceed 1.2 × 2 s")
                .singleElement().satisfies(v -> assertThat(v.setting()).isEqualTo("renewDeadline"));
        assertThat(new LeaseProfile.Kubernetes(s(15), s(2.5), s(2)).violations()).isEmpty();
    }

    @Test
    void aKubernetesCandidateWaitsItsRetryPeriodPlusUpToOnePointTwoTimesItAsJitter() {
        SplittableRandom random = new SplittableRandom(3);
        for (int i = 0; i < 1_000; i++) {
            Duration wait = LeaseProfile.Kubernetes.DEFAULT.retryAfterBusy(s(13), s(1), random);
            assertThat(wait).isBetween(s(2), s(4.4));
        }
    }

    @Test
    void eachProfileDerivesItsClientsTimingFromItsSettings() {
        assertThat(new LeaseProfile.Etcd(s(9)).renewEvery()).as("3 s, at the client's next 500 ms look")
                .isEqualTo(s(3.5));
        assertThat(new LeaseProfile.Etcd(s(4)).renewEvery()).as("1.33 s, at the next look").isEqualTo(s(1.5));
        assertThat(LeaseProfile.Redisson.DEFAULT.renewEvery()).isEqualTo(s(10));
        assertThat(LeaseProfile.Consul.DEFAULT.grantTtl()).as("servers allow twice the ttl").isEqualTo(s(30));
        assertThat(LeaseProfile.Consul.DEFAULT.lockDelay()).isEqualTo(s(15));
        assertThat(new LeaseProfile.ZooKeeper(s(30)).renewEvery()).isEqualTo(s(10));
        assertThat(new LeaseProfile.ZooKeeper(s(30)).giveUpAfter()).isEqualTo(s(20));
        assertThat(new LeaseProfile.ShedLock(s(60), false).renewEvery()).isZero();
        assertThat(new LeaseProfile.ShedLock(s(60), true).renewEvery()).isEqualTo(s(30));
        assertThat(new LeaseProfile.ShedLock(s(10), true).violations()).singleElement()
                .satisfies(v -> assertThat(v.setting()).isEqualTo("lockAtMostFor"));
        assertThat(new LeaseProfile.Generic(s(5), s(5)).violations()).singleElement()
                .satisfies(v -> assertThat(v.setting()).isEqualTo("renewEvery"));
    }

    @Test
    void theSettingsOfEachProfileAreItsScenarioKeys() {
        assertThat(LeaseProfile.PROFILES.keySet()).containsExactly("generic", "kubernetes", "etcd", "redisson",
                "consul", "zookeeper", "shedlock");
        assertThat(LeaseProfile.settings(LeaseProfile.Kubernetes.class))
                .containsExactly("leaseDuration", "renewDeadline", "retryPeriod", "releaseOnCancel");
        assertThat(LeaseProfile.Kubernetes.DEFAULT.describe()).as("every setting, releaseOnCancel too")
                .isEqualTo("kubernetes (leaseDuration 15s, renewDeadline 10s, retryPeriod 2s, releaseOnCancel false)");
    }
}
