package io.fencelab.services.etcd;

import static io.fencelab.services.etcd.EtcdLeasesTest.granted;
import static io.fencelab.services.etcd.EtcdLeasesTest.onceReachable;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.fencelab.engine.clock.LiveClock;
import io.fencelab.engine.lease.Lease;
import io.fencelab.engine.lease.RenewResult;
import io.fencelab.services.Ensemble;
import java.time.Duration;
import java.util.Arrays;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** {@link EtcdLeases} on a three-member etcd that {@link EtcdServer#ensemble} starts, its leader stopped. */
class EtcdEnsembleTest {

    /** Longer than an election (1 s timeout), so that a lease outlives the failover. */
    private static final Duration TTL = Duration.ofSeconds(5);

    private static Ensemble ensemble;
    private final LiveClock clock = new LiveClock();

    @BeforeAll
    static void startEnsemble() {
        ensemble = EtcdServer.ensemble(3);
    }

    @AfterAll
    static void stopEnsemble() {
        if (ensemble != null) {
            ensemble.close();
        }
    }

    /**
     * The two members left elect a new leader; the lease granted before lives on (lease state is
     * replicated), a new grant's create revision is larger, and the old leader rejoins when started.
     */
    @Test
    void stoppingTheLeaderLeavesTheLeaseHeldAndTokensRising() throws InterruptedException {
        assertThat(ensemble.endpoints().split(",")).as("every member's client URL").hasSize(3);
        try (EtcdLeases leases = new EtcdLeases(ensemble.endpoints(), System.nanoTime() % 1_000_000, TTL, clock)) {
            Lease a = granted(leases.acquire(null, "s", "a", TTL));

            long stoppedAt = System.nanoTime();
            String leader = ensemble.stopLeader();
            assertThat(leader).matches("fencelab[123]");
            assertThat(onceReachable(() -> leases.renew(null, a, TTL), Duration.ofSeconds(10)))
                    .as("a's lease survived the leader's stop").isInstanceOf(RenewResult.Renewed.class);
            assertThat(leases.release(null, a)).isTrue();
            Lease b = granted(onceReachable(() -> leases.acquire(null, "s", "b", TTL), Duration.ofSeconds(10)));
            System.out.printf("etcd: leader %s stopped, next grant after %d ms%n", leader,
                    Duration.ofNanos(System.nanoTime() - stoppedAt).toMillis());
            assertThat(b.token()).as("revisions go on across the new leader").isGreaterThan(a.token());
            assertThatThrownBy(ensemble::stopLeader).as("one member down is all three can spare")
                    .hasMessageContaining("already stopped");

            ensemble.startStopped();
            assertThat(Arrays.stream(ensemble.endpoints().split(",")).map(EtcdServer::unhealthy))
                    .as("every member healthy again").containsOnlyNulls();
            assertThat(leases.release(null, b)).isTrue();
            Lease c = granted(onceReachable(() -> leases.acquire(null, "s", "c", TTL), Duration.ofSeconds(10)));
            assertThat(c.token()).isGreaterThan(b.token());
        }
    }
}
