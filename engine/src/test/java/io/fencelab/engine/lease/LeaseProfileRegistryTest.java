package io.fencelab.engine.lease;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The registry of lease profiles agrees with the profiles' records, which it names once. */
class LeaseProfileRegistryTest {

    @Test
    void eachEntrysSettingsAreItsRecordsComponentsInOrder() {
        for (LeaseProfileRegistry.Profile p : LeaseProfileRegistry.all()) {
            assertThat(p.settingNames()).as("%s's settings are %s's components", p.name(), p.type().getSimpleName())
                    .isEqualTo(LeaseProfile.settings(p.type()));
        }
    }

    @Test
    void anEntryBuildsItsOwnRecordUnderItsOwnName() {
        for (LeaseProfileRegistry.Profile p : LeaseProfileRegistry.all()) {
            Map<String, Object> values = new LinkedHashMap<>();
            // a required setting takes the value its example writes: every example here is a whole number of units
            p.settings().forEach(s -> values.put(s.name(), s.required() ? Duration.ofMinutes(10) : s.defaultValue()));
            LeaseProfile built = p.create(values);
            assertThat(built).as(p.name()).isInstanceOf(p.type());
            assertThat(built.key()).as("the record's key is the registry's name").isEqualTo(p.name());
            assertThat(built.values()).as("%s keeps every value it was given", p.name()).isEqualTo(values);
        }
    }

    @Test
    void defaultsAreTheRealClientsDefaultsTheRecordsDeclare() {
        assertThat(LeaseProfileRegistry.named("kubernetes").orElseThrow().byDefault()).contains(LeaseProfile.Kubernetes.DEFAULT);
        assertThat(LeaseProfileRegistry.named("etcd").orElseThrow().byDefault()).contains(LeaseProfile.Etcd.DEFAULT);
        assertThat(LeaseProfileRegistry.named("consul").orElseThrow().byDefault()).contains(LeaseProfile.Consul.DEFAULT);
        assertThat(LeaseProfileRegistry.named("zookeeper").orElseThrow().byDefault()).contains(LeaseProfile.ZooKeeper.DEFAULT);
        assertThat(LeaseProfileRegistry.named("generic").orElseThrow().byDefault()).as("generic's ttl is required").isEmpty();
        assertThat(LeaseProfileRegistry.named("shedlock").orElseThrow().byDefault()).as("lockAtMostFor is required").isEmpty();
    }

    @Test
    void theInterfacesProfileMapIsAViewOfTheRegistry() {
        assertThat(LeaseProfile.PROFILES.keySet()).containsExactlyElementsOf(LeaseProfileRegistry.names());
        LeaseProfileRegistry.all().forEach(p -> assertThat(LeaseProfile.PROFILES.get(p.name())).isEqualTo(p.type()));
        assertThat(LeaseProfileRegistry.named("chubby")).isEmpty();
        assertThat(LeaseProfileRegistry.allSettingNames()).as("a shared setting (ttl) once, at its first use")
                .startsWith("ttl", "renewEvery", "leaseDuration").doesNotHaveDuplicates();
    }
}
