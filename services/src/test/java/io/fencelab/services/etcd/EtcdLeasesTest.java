package io.fencelab.services.etcd;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.fencelab.engine.clock.LiveClock;
import io.fencelab.engine.db.DatabaseException;
import io.fencelab.engine.db.DatabaseFailure;
import io.fencelab.engine.lease.AcquireResult;
import io.fencelab.engine.lease.Lease;
import io.fencelab.engine.lease.RenewResult;
import io.fencelab.services.ServerProcess;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Supplier;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** {@link EtcdLeases} against a real etcd that {@link EtcdServer} starts: one server for the class. */
class EtcdLeasesTest {

    /** etcd's shortest lease with its default election timeout (1 s): a TTL under it is raised to it. */
    private static final Duration TTL = Duration.ofSeconds(2);
    private static final AtomicLong RUNS = new AtomicLong(System.nanoTime() % 1_000_000);

    private static EtcdServer server;
    private final LiveClock clock = new LiveClock();

    @BeforeAll
    static void startEtcd() {
        server = EtcdServer.start();
        // A cold JVM's first jetcd client loads gRPC and Vert.x, which on a loaded machine took longer than the
        // 3 s limit of the first test's first call; a run connects its holders first for the same reason.
        try (EtcdLeases warm = new EtcdLeases(server.endpoints(), RUNS.incrementAndGet(), TTL, new LiveClock())) {
            warm.connect("warm-up");
        }
    }

    @AfterAll
    static void stopEtcd() {
        if (server != null) {
            server.close();
        }
    }

    private EtcdLeases leases(Duration ttl) {
        return new EtcdLeases(server.endpoints(), RUNS.incrementAndGet(), ttl, clock);
    }

    static Lease granted(AcquireResult r) {
        assertThat(r).as("expected a grant").isInstanceOf(AcquireResult.Acquired.class);
        return ((AcquireResult.Acquired) r).lease();
    }

    @Test
    void grantsBusyAndRelease() {
        try (EtcdLeases leases = leases(TTL)) {
            Instant before = clock.now();
            Lease a = granted(leases.acquire(null, "s", "a", TTL));
            assertThat(a.token()).as("a create revision").isPositive();
            assertThat(a.expiresAt()).as("the lease's TTL after the grant")
                    .isAfterOrEqualTo(before.plus(TTL)).isBeforeOrEqualTo(clock.now().plus(TTL));

            AcquireResult busy = leases.acquire(null, "s", "b", TTL);
            assertThat(busy).isInstanceOf(AcquireResult.Busy.class);
            AcquireResult.Busy b = (AcquireResult.Busy) busy;
            assertThat(b.holder()).as("busy names the holder stored with the key").isEqualTo("a");
            assertThat(b.token()).as("busy gives the holder's create revision").isEqualTo(a.token());
            assertThat(b.expiresAt()).as("etcd's remaining TTL, whole seconds rounded down")
                    .isAfter(clock.now().minusMillis(1)).isBeforeOrEqualTo(clock.now().plus(TTL));

            assertThat(leases.renew(null, a, TTL)).as("a still holds s").isInstanceOf(RenewResult.Renewed.class);
            assertThat(leases.release(null, a)).as("a held s").isTrue();
            assertThat(leases.release(null, a)).as("released already").isFalse();
            assertThat(leases.renew(null, a, TTL)).as("a released s").isInstanceOf(RenewResult.NotHeld.class);

            Lease next = granted(leases.acquire(null, "s", "b", TTL));
            assertThat(next.token()).as("a later grant has a larger token").isGreaterThan(a.token());
            assertThat(leases.startScope("s", 1_000)).as("tokens come from etcd").isFalse();
        }
    }

    /**
     * etcd answers a lease's TTL in whole seconds, rounded down, and a 2 s lease kept alive every 2/3 s
     * (looked at every 500 ms) dips under one second between keep-alives: that must still be held.
     */
    @Test
    void renewalsAreNeverRefusedWhileTheKeepAliveRuns() throws InterruptedException {
        try (EtcdLeases leases = leases(TTL)) {
            Lease a = granted(leases.acquire(null, "s", "a", TTL));
            Instant end = clock.now().plus(TTL).plusMillis(500);
            int asked = 0;
            while (clock.now().isBefore(end)) {
                RenewResult r = leases.renew(null, a, TTL);
                assertThat(r).as("renewal %d of a kept-alive lease", asked).isInstanceOf(RenewResult.Renewed.class);
                assertThat(((RenewResult.Renewed) r).lease().expiresAt()).as("at most a TTL ahead")
                        .isBeforeOrEqualTo(clock.now().plus(TTL));
                asked++;
                Thread.sleep(50);
            }
            assertThat(asked).isGreaterThan(10);
        }
    }

    @Test
    void tokensStrictlyIncreasePerScopeAcrossHolders() {
        try (EtcdLeases leases = leases(TTL)) {
            long last = 0;
            for (int round = 0; round < 3; round++) {
                for (String holder : List.of("a", "b", "c")) {
                    Lease l = granted(leases.acquire(null, "s", holder, TTL));
                    granted(leases.acquire(null, "other-" + holder, holder, TTL)); // other scopes move the revision too
                    assertThat(l.token()).as("token of %s in round %d", holder, round).isGreaterThan(last);
                    last = l.token();
                    assertThat(leases.release(null, l)).isTrue();
                }
            }
        }
    }

    @Test
    void oneOfThreeRacingHoldersGetsTheScope() throws Exception {
        try (EtcdLeases leases = leases(TTL); ExecutorService pool = Executors.newVirtualThreadPerTaskExecutor()) {
            List<Future<AcquireResult>> answers = new ArrayList<>();
            for (String holder : List.of("a", "b", "c")) {
                Callable<AcquireResult> acquire = () -> leases.acquire(null, "race", holder, TTL);
                answers.add(pool.submit(acquire));
            }
            List<AcquireResult> results = new ArrayList<>();
            for (Future<AcquireResult> f : answers) {
                results.add(f.get());
            }
            List<Lease> winners = results.stream().filter(r -> r instanceof AcquireResult.Acquired)
                    .map(r -> ((AcquireResult.Acquired) r).lease()).toList();
            assertThat(winners).as("exactly one grant: %s", results).hasSize(1);
            assertThat(results).filteredOn(r -> r instanceof AcquireResult.Busy)
                    .allSatisfy(r -> assertThat(((AcquireResult.Busy) r).token()).isEqualTo(winners.getFirst().token()));
        }
    }

    /**
     * A holder whose keep-alive stops (its process frozen) loses the key when etcd expires its lease:
     * TTL after the last keep-alive etcd answered, found by etcd's expiry loop, which looks every 500 ms.
     */
    @Test
    void holderWhoseKeepAliveStopsLosesTheKeyAtTheTtl() throws InterruptedException {
        try (EtcdLeases leases = leases(TTL)) {
            Lease a = granted(leases.acquire(null, "s", "a", TTL));
            Thread.sleep(1_000); // a keep-alive or two answered
            leases.suspendKeepAlive("a");
            Instant lastKeepAlive = leases.lastKeepAlive("a", "s").orElseThrow();

            Lease b = null;
            Instant deadline = clock.now().plusSeconds(10);
            while (b == null && clock.now().isBefore(deadline)) {
                if (leases.acquire(null, "s", "b", TTL) instanceof AcquireResult.Acquired got) {
                    b = got.lease();
                } else {
                    Thread.sleep(20);
                }
            }
            assertThat(b).as("b gets s once a's lease expires").isNotNull();
            Duration loss = Duration.between(lastKeepAlive, b.acquiredAt());
            System.out.println("etcd lease loss after the last keep-alive, TTL " + TTL.toMillis() + " ms: "
                    + loss.toMillis() + " ms");
            assertThat(loss).as("loss after the last keep-alive answer (TTL %s)", TTL)
                    // measured TTL + 0 to 0.5 s: etcd's expiry loop looks every 500 ms; 0.5 s more for a loaded machine
                    .isBetween(TTL.minusMillis(100), TTL.plusMillis(1_000));

            assertThat(leases.renew(null, a, TTL)).as("a's key is gone").isInstanceOf(RenewResult.NotHeld.class);
            assertThat(b.token()).as("the newer holder's token").isGreaterThan(a.token());

            // a's next acquisition must not reuse its expired lease: etcd would refuse the put
            leases.release(null, b);
            Lease again = granted(leases.acquire(null, "s", "a", TTL));
            assertThat(again.token()).isGreaterThan(b.token());
            assertThat(leases.renew(null, again, TTL)).isInstanceOf(RenewResult.Renewed.class);
        }
    }

    /**
     * A candidate that waits as the worker does (asking again at the expiry each busy answer gives) asks a
     * handful of times per lease, not in a loop through the lease's last second: found calibrating, where the
     * rounded-down TTL answered "expires now" and the candidate asked etcd about nine times a second.
     */
    @Test
    void aCandidateWaitsForTheKeysDeletionInsteadOfAskingInALoop() throws InterruptedException {
        try (EtcdLeases leases = leases(TTL)) {
            Lease a = granted(leases.acquire(null, "s", "a", TTL));
            leases.suspendKeepAlive("a");
            Instant aEnds = leases.lastKeepAlive("a", "s").orElseThrow().plus(TTL);

            int asked = 0;
            Lease b = null;
            Instant deadline = clock.now().plusSeconds(10);
            while (b == null && clock.now().isBefore(deadline)) {
                asked++;
                switch (leases.acquire(null, "s", "b", TTL)) {
                    case AcquireResult.Acquired got -> b = got.lease();
                    case AcquireResult.Busy busy -> Thread.sleep(Math.max(1,
                            Duration.between(clock.now(), busy.expiresAt()).toMillis()));
                    case AcquireResult.Exhausted e -> throw new AssertionError(e);
                }
            }
            assertThat(b).as("b gets s once a's lease expires").isNotNull();
            assertThat(asked).as("b's acquisitions for one lease of %s", TTL).isLessThanOrEqualTo(4);
            assertThat(Duration.between(aEnds, b.acquiredAt())).as("b's grant after a's lease ended")
                    .isBetween(Duration.ofMillis(-100), Duration.ofMillis(1_000));
            assertThat(b.token()).isGreaterThan(a.token());
        }
    }

    /** A renewal's expiry is the client's own, to the millisecond, never the rounded-down seconds etcd answers. */
    @Test
    void aRenewalsExpiryIsTheTtlAfterTheLastKeepAlive() throws InterruptedException {
        try (EtcdLeases leases = leases(TTL)) {
            Lease a = granted(leases.acquire(null, "s", "a", TTL));
            Thread.sleep(900);
            Lease renewed = ((RenewResult.Renewed) leases.renew(null, a, TTL)).lease();
            Instant byClient = leases.lastKeepAlive("a", "s").orElseThrow().plus(TTL);
            assertThat(Duration.between(byClient, renewed.expiresAt()).abs()).isLessThan(Duration.ofMillis(50));
            assertThat(renewed.expiresAt()).as("past a whole-seconds answer's").isAfter(clock.now().plusSeconds(1));
        }
    }

    @Test
    void frozenServerFailsOperationsWithinTheLimitAndServesAfterItThaws() throws InterruptedException {
        Duration limit = Duration.ofSeconds(1);
        Duration ttl = Duration.ofSeconds(6); // outlives the freeze: etcd keeps time while it is stopped
        try (EtcdLeases leases = new EtcdLeases(server.endpoints(), RUNS.incrementAndGet(), ttl, clock, limit)) {
            Lease a = granted(leases.acquire(null, "s", "a", ttl));
            server.pause();
            try {
                long start = System.nanoTime();
                assertThatThrownBy(() -> leases.acquire(null, "s", "b", ttl))
                        .isInstanceOfSatisfying(DatabaseException.class,
                                e -> assertThat(e.failure()).isEqualTo(DatabaseFailure.CONNECTION_LOST))
                        .hasMessageContaining("etcd at " + server.endpoints());
                assertThatThrownBy(() -> leases.renew(null, a, ttl))
                        .isInstanceOfSatisfying(DatabaseException.class,
                                e -> assertThat(e.failure()).isEqualTo(DatabaseFailure.CONNECTION_LOST));
                Duration took = Duration.ofNanos(System.nanoTime() - start);
                assertThat(took).as("two operations, each bounded by %s", limit)
                        .isLessThan(limit.multipliedBy(2).plusMillis(500));
            } finally {
                server.resume();
            }
            assertThat(leases.renew(null, a, ttl)).as("a's lease outlived the freeze")
                    .isInstanceOf(RenewResult.Renewed.class);
            AcquireResult busy = leases.acquire(null, "s", "b", ttl);
            assertThat(busy).isInstanceOf(AcquireResult.Busy.class);
        }
    }

    @Test
    void restartKeepsTheRevisionsSoTokensGoOnIncreasing() throws InterruptedException {
        try (EtcdLeases leases = leases(TTL)) {
            Lease a = granted(leases.acquire(null, "s", "a", TTL));
            assertThat(leases.release(null, a)).isTrue();
            server.restart();
            Lease b = granted(onceReachable(() -> leases.acquire(null, "s", "b", TTL), Duration.ofSeconds(15)));
            assertThat(b.token()).as("revisions survive a restart").isGreaterThan(a.token());
        }
    }

    /** {@code call}'s answer, tried again every 100 ms while it fails as CONNECTION_LOST, as a worker retries. */
    static <T> T onceReachable(Supplier<T> call, Duration limit) throws InterruptedException {
        long deadline = System.nanoTime() + limit.toNanos();
        while (true) {
            try {
                return call.get();
            } catch (DatabaseException e) {
                // the client reconnects on its own back-off
                assertThat(e.failure()).isEqualTo(DatabaseFailure.CONNECTION_LOST);
                assertThat(System.nanoTime() - deadline).as("reachable again within " + limit).isNegative();
                Thread.sleep(100);
            }
        }
    }

    @Test
    void unreachableServerIsConnectionLostQuickly() {
        String nowhere = "http://127.0.0.1:" + ServerProcess.freePort();
        try (EtcdLeases leases = new EtcdLeases(nowhere, 1, TTL, clock)) {
            long start = System.nanoTime();
            assertThatThrownBy(() -> leases.acquire(null, "s", "a", TTL))
                    .isInstanceOfSatisfying(DatabaseException.class,
                            e -> assertThat(e.failure()).isEqualTo(DatabaseFailure.CONNECTION_LOST))
                    .hasMessageContaining("etcd at " + nowhere);
            assertThat(Duration.ofNanos(System.nanoTime() - start)).as("bounded by the operation limit")
                    .isLessThan(EtcdLeases.DEFAULT_CALL_LIMIT.plusMillis(500));
        }
    }
}
