package io.fencelab.scenarios;

import static io.fencelab.scenarios.ScenarioValidationTest.problems;
import static org.assertj.core.api.Assertions.assertThat;

import io.fencelab.engine.check.Verdict;
import io.fencelab.engine.lease.LeaseServiceSpec;
import io.fencelab.engine.lease.ServiceKind;
import io.fencelab.engine.lease.TokenRecipe;
import org.junit.jupiter.api.Test;

/** {@code lease.service} and {@code lease.token}: a real service with its profile's client, in real time; mistakes located. */
class LeaseServiceScenarioTest {

    /** Line 5 is the lease, line 6 the executor. */
    private static String scenario(String lease, String executor) {
        return """
                title: T
                summary: S.
                story: [one]
                duration: 20s
                lease: %s
                executor: %s
                workers:
                  - {name: A, scope: report, writes: [{key: report-1}]}
                expect: {verdict: SAFE}
                """.formatted(lease, executor);
    }

    @Test
    void aRealServiceRunsItsProfilesClientWithTheServicesFirstTokenUnlessOneIsChosen() {
        Scenario etcd = ScenarioLoader.load("t.yaml", scenario("{profile: etcd, ttl: 5s, service: etcd}", "process"));
        Scenario redis = ScenarioLoader.load("t.yaml",
                scenario("{profile: redisson, lockWatchdogTimeout: 3s, service: redis, token: lua}", "live"));
        Scenario table = ScenarioLoader.load("t.yaml", scenario("{profile: etcd, ttl: 5s}", "simulated"));

        assertThat(etcd.spec().service()).isEqualTo(new LeaseServiceSpec(ServiceKind.ETCD, TokenRecipe.CREATE_REVISION, null));
        assertThat(redis.spec().service().token()).isEqualTo(TokenRecipe.LUA);
        assertThat(table.spec().service()).isEqualTo(LeaseServiceSpec.POSTGRES);
    }

    @Test
    void aWrongServiceProfileTokenOrExecutorIsLocatedWithWhatIsAllowed() {
        assertThat(problems(scenario("{profile: etcd, ttl: 5s, service: etcdd}", "live"))).containsExactly(
                "t.yaml:5:42: lease.service: 'etcdd' is not a lease service; did you mean etcd? "
                        + "(allowed: postgres, etcd, zookeeper, redis)");
        assertThat(problems(scenario("{ttl: 5s, service: zookeeper}", "live"))).containsExactly(
                "t.yaml:5:27: lease.service: service zookeeper runs the zookeeper profile's client; this lease's "
                        + "profile is generic (set profile: zookeeper)");
        assertThat(problems(scenario("{profile: zookeeper, service: zookeeper}", "simulated"))).containsExactly(
                "t.yaml:5:38: lease.service: a real zookeeper runs in real time, by its own clock; set executor: "
                        + "live or process");
        assertThat(problems(scenario("{profile: zookeeper, service: zookeeper, token: lua}", "live"))).containsExactly(
                "t.yaml:5:56: lease.token: 'lua' is not a token of zookeeper (allowed: czxid, sequence)");
    }

    @Test
    void aWrittenSpecKeepsItsServiceAndTokenButNeverAnAddress() {
        Scenario s = ScenarioLoader.load("t.yaml",
                scenario("{profile: zookeeper, sessionTimeout: 4s, service: zookeeper, token: sequence}", "process"));
        var withAddress = s.spec().withService(s.spec().service().withEndpoints("zk1:2181,zk2:2181"));

        String written = ScenarioWriter.write(withAddress, s.notes(), Verdict.Kind.SAFE);

        assertThat(written).doesNotContain("zk1");
        assertThat(ScenarioLoader.load("w.yaml", written).spec().service())
                .isEqualTo(new LeaseServiceSpec(ServiceKind.ZOOKEEPER, TokenRecipe.SEQUENCE, null));
    }

    @Test
    void threeMembersAreAnEnsembleThatAWrittenSpecKeeps() {
        Scenario s = ScenarioLoader.load("t.yaml", scenario("{profile: etcd, ttl: 5s, service: etcd, members: 3}", "live"));

        assertThat(s.spec().service()).isEqualTo(new LeaseServiceSpec(ServiceKind.ETCD, TokenRecipe.CREATE_REVISION, null, 3));
        String written = ScenarioWriter.write(s.spec(), s.notes(), Verdict.Kind.SAFE);
        assertThat(ScenarioLoader.load("w.yaml", written).spec().service().members()).isEqualTo(3);
    }

    @Test
    void membersOtherThanOneOrThreeOrAnEnsembleOfRedisAreLocated() {
        assertThat(problems(scenario("{profile: redisson, service: redis, members: 3}", "live"))).containsExactly(
                "t.yaml:5:53: lease.members: 3 members is for etcd and zookeeper, not redis");
        assertThat(problems(scenario("{profile: etcd, ttl: 5s, service: etcd, members: 2}", "live"))).containsExactly(
                "t.yaml:5:57: lease.members: 2 is not a number of members (allowed: 1 or 3)");
    }

    /** Line 10 is the faults. */
    private static String withFaults(String lease, String faults) {
        return scenario(lease, "live") + "faults: " + faults + "\n";
    }

    @Test
    void aLeaderStopNeedsAnEnsembleAndARepeatingOneADuration() {
        assertThat(problems(withFaults("{profile: etcd, ttl: 5s, service: etcd}",
                "[{kind: SERVICE_LEADER_STOP, target: service, at: 2s}]"))).containsExactly(
                "t.yaml:10:17: faults[0].kind: SERVICE_LEADER_STOP stops the leader of an ensemble; set lease.service "
                        + "to etcd or zookeeper and lease.members to 3");
        assertThat(problems(withFaults("{profile: etcd, ttl: 5s, service: etcd, members: 3}",
                "[{kind: SERVICE_LEADER_STOP, target: service, every: 5s}]"))).containsExactly(
                "t.yaml:10:10: faults[0].duration: a repeating SERVICE_LEADER_STOP needs a duration: the stopped member "
                        + "must be back before the next stop (an ensemble of 3 outlives one member down, not two)");
        Scenario ok = ScenarioLoader.load("t.yaml", withFaults("{profile: zookeeper, service: zookeeper, members: 3}",
                "[{kind: SERVICE_LEADER_STOP, target: service, every: 5s, duration: 2s}]"));
        assertThat(ok.spec().faults()).singleElement().satisfies(f -> assertThat(f.target()).isEqualTo("service"));
    }
}
