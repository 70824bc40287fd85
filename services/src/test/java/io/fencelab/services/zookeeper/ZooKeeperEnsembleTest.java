package io.fencelab.services.zookeeper;

import static io.fencelab.services.zookeeper.ZooKeeperLeasesTest.granted;
import static io.fencelab.services.zookeeper.ZooKeeperLeasesTest.retryWhileUnreachable;
import static org.assertj.core.api.Assertions.assertThat;

import io.fencelab.engine.clock.LiveClock;
import io.fencelab.engine.lease.Lease;
import io.fencelab.engine.lease.RenewResult;
import io.fencelab.services.Ensemble;
import io.fencelab.services.zookeeper.ZooKeeperLeases.TokenSource;
import java.time.Duration;
import java.util.Arrays;
import java.util.Optional;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** {@link ZooKeeperLeases} on a three-member ensemble that {@link ZooKeeperServer#ensemble} starts, its leader stopped. */
class ZooKeeperEnsembleTest {

    /** Long enough for the client to reconnect to another member after an election, keeping its session. */
    private static final Duration SESSION = Duration.ofSeconds(6);

    private static Ensemble ensemble;

    @BeforeAll
    static void startEnsemble() {
        ensemble = ZooKeeperServer.ensemble(3);
    }

    @AfterAll
    static void stopEnsemble() {
        if (ensemble != null) {
            ensemble.close();
        }
    }

    /**
     * The two members left elect a new leader; the holder's session (and so its lock node) survives
     * because its client reconnects within the timeout; a new grant's czxid is larger (the new leader's
     * epoch is higher), and the old leader rejoins as a follower when started.
     */
    @Test
    void stoppingTheLeaderLeavesTheSessionHeldAndTokensRising() throws InterruptedException {
        assertThat(ensemble.endpoints().split(",")).as("every member's address").hasSize(3);
        try (ZooKeeperLeases leases = new ZooKeeperLeases(ensemble.endpoints(), System.nanoTime() & 0xffffff, SESSION,
                new LiveClock(), TokenSource.CZXID)) {
            Lease a = granted(leases.acquire(null, "s", "a", SESSION));

            long stoppedAt = System.nanoTime();
            String leader = ensemble.stopLeader();
            assertThat(leader).matches("fencelab[123]");
            assertThat(retryWhileUnreachable(() -> leases.renew(null, a, SESSION), Duration.ofSeconds(10)))
                    .as("a's session and lock node survived the leader's stop").isInstanceOf(RenewResult.Renewed.class);
            assertThat(leases.release(null, a)).isTrue();
            Lease b = granted(retryWhileUnreachable(() -> leases.acquire(null, "s", "b", SESSION), Duration.ofSeconds(10)));
            System.out.printf("ZooKeeper: leader %s stopped, next grant after %d ms%n", leader,
                    Duration.ofNanos(System.nanoTime() - stoppedAt).toMillis());
            assertThat(b.token()).as("zxids go on across the new leader's epoch").isGreaterThan(a.token());

            ensemble.startStopped();
            assertThat(Arrays.stream(ensemble.endpoints().split(",")).map(ZooKeeperServer::mode))
                    .as("every member back in the ensemble")
                    .allMatch(m -> m.equals(Optional.of("leader")) || m.equals(Optional.of("follower")))
                    .containsOnlyOnce(Optional.of("leader"));
            assertThat(leases.release(null, b)).isTrue();
            Lease c = granted(retryWhileUnreachable(() -> leases.acquire(null, "s", "c", SESSION), Duration.ofSeconds(10)));
            assertThat(c.token()).isGreaterThan(b.token());
        }
    }
}
