package io.fencelab.services.zookeeper;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.fencelab.engine.clock.LiveClock;
import io.fencelab.engine.db.DatabaseException;
import io.fencelab.engine.db.DatabaseFailure;
import io.fencelab.engine.lease.AcquireResult;
import io.fencelab.engine.lease.Lease;
import io.fencelab.engine.lease.RenewResult;
import io.fencelab.services.ServerProcess;
import io.fencelab.services.zookeeper.ZooKeeperLeases.TokenSource;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Supplier;
import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.CuratorFrameworkFactory;
import org.apache.curator.framework.recipes.locks.InterProcessSemaphoreV2;
import org.apache.curator.retry.RetryNTimes;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.junit.jupiter.params.provider.ValueSource;

/** ZooKeeperLeases against a real ZooKeeper server that this class starts, freezes and restarts. */
class ZooKeeperLeasesTest {

    /** Containers are reaped quickly here, so that the test can show what that does to sequence numbers. */
    private static final Duration CONTAINER_CHECK = Duration.ofMillis(200);
    private static final AtomicLong RUN = new AtomicLong(System.nanoTime() & 0xffffff);

    private static ZooKeeperServer server;

    @BeforeAll
    static void startServer() {
        server = ZooKeeperServer.start(CONTAINER_CHECK);
    }

    @AfterAll
    static void stopServer() {
        if (server != null) {
            server.close();
        }
    }

    private static ZooKeeperLeases leases(Duration sessionTimeout, TokenSource source) {
        return new ZooKeeperLeases(server.endpoints(), RUN.incrementAndGet(), sessionTimeout, new LiveClock(), source);
    }

    static Lease granted(AcquireResult result) {
        assertThat(result).as("a free scope is granted").isInstanceOf(AcquireResult.Acquired.class);
        return ((AcquireResult.Acquired) result).lease();
    }

    @Test
    void grantsBusiesAndReleases() {
        try (ZooKeeperLeases leases = leases(Duration.ofSeconds(5), TokenSource.CZXID)) {
            Lease a = granted(leases.acquire(null, "s", "a", Duration.ofSeconds(5)));
            assertThat(a.token()).as("a czxid is a positive zxid").isPositive();
            assertThat(Duration.between(a.acquiredAt(), a.expiresAt())).as("expiry: now + the session timeout")
                    .isEqualTo(Duration.ofSeconds(5));

            AcquireResult other = leases.acquire(null, "s", "b", Duration.ofSeconds(5));
            assertThat(other).as("b finds the scope held by a, with a's token")
                    .isEqualTo(new AcquireResult.Busy("s", "a", a.token(), ((AcquireResult.Busy) other).expiresAt()));
            assertThat(leases.renew(null, a, Duration.ofSeconds(5))).as("a still holds it")
                    .isInstanceOf(RenewResult.Renewed.class);

            assertThat(leases.release(null, a)).as("a's release frees it").isTrue();
            assertThat(leases.release(null, a)).as("a second release finds nothing to free").isFalse();
            assertThat(leases.renew(null, a, Duration.ofSeconds(5))).as("a released lease is not held")
                    .isInstanceOf(RenewResult.NotHeld.class);
            Lease b = granted(leases.acquire(null, "s", "b", Duration.ofSeconds(5)));
            assertThat(b.token()).as("b's token is newer than a's").isGreaterThan(a.token());
            assertThat(leases.startScope("s", 100)).as("tokens are ZooKeeper's: no scope can be started").isFalse();
            assertThat(leases.describe()).startsWith("ZooKeeper 3.");
        }
    }

    @ParameterizedTest
    @EnumSource(TokenSource.class)
    void tokensStrictlyIncreasePerScopeAcrossHolders(TokenSource source) {
        try (ZooKeeperLeases leases = leases(Duration.ofSeconds(5), source)) {
            List<Long> tokens = new ArrayList<>();
            for (int round = 0; round < 3; round++) {
                for (String holder : List.of("a", "b", "c")) {
                    Lease lease = granted(leases.acquire(null, "s", holder, Duration.ofSeconds(5)));
                    tokens.add(lease.token());
                    // the others find it busy in between: their failed tries leave no trace in the order
                    leases.acquire(null, "s", holder.equals("a") ? "b" : "a", Duration.ofSeconds(5));
                    assertThat(leases.release(null, lease)).isTrue();
                }
            }
            assertThat(tokens).as("9 grants over 3 holders, " + source).hasSize(9).isSorted().doesNotHaveDuplicates();
        }
    }

    @Test
    void holdersRacingFromVirtualThreadsGetOneGrantAtATime() throws Exception {
        try (ZooKeeperLeases leases = leases(Duration.ofSeconds(5), TokenSource.CZXID);
             ExecutorService threads = Executors.newVirtualThreadPerTaskExecutor()) {
            List<Future<List<Long>>> holders = new ArrayList<>();
            AtomicInteger holding = new AtomicInteger();
            AtomicInteger mostAtOnce = new AtomicInteger();
            for (String holder : List.of("a", "b", "c", "d")) {
                holders.add(threads.submit(() -> {
                    List<Long> mine = new ArrayList<>();
                    while (mine.size() < 3) {
                        if (leases.acquire(null, "s", holder, Duration.ofSeconds(5)) instanceof AcquireResult.Acquired a) {
                            mostAtOnce.accumulateAndGet(holding.incrementAndGet(), Math::max);
                            mine.add(a.lease().token());
                            holding.decrementAndGet();
                            assertThat(leases.release(null, a.lease())).isTrue();
                        }
                    }
                    return mine;
                }));
            }
            List<Long> all = new ArrayList<>();
            for (Future<List<Long>> h : holders) {
                List<Long> mine = h.get(30, TimeUnit.SECONDS);
                assertThat(mine).as("one holder's own tokens").isSorted();
                all.addAll(mine);
            }
            assertThat(mostAtOnce.get()).as("never two holders at once").isEqualTo(1);
            assertThat(all).as("12 grants, each token once").hasSize(12).doesNotHaveDuplicates();
        }
    }

    /**
     * Curator makes a lock's parents container nodes, which the server deletes once empty; the next lock
     * node's sequence number then starts at 0 again. ZooKeeperLeases makes the parent persistent.
     */
    @Test
    void sequenceTokensSurviveAnIdleScopeWhosePlainCuratorCounterRestarts() throws Exception {
        try (CuratorFramework raw = CuratorFrameworkFactory.newClient(server.endpoints(), 5000, 2000, new RetryNTimes(1, 100))) {
            raw.start();
            String path = "/plain-curator/" + RUN.incrementAndGet();
            InterProcessSemaphoreV2 semaphore = new InterProcessSemaphoreV2(raw, path, 1);
            List<Long> sequences = new ArrayList<>();
            for (int i = 0; i < 2; i++) {
                org.apache.curator.framework.recipes.locks.Lease lease = semaphore.acquire(1, TimeUnit.SECONDS);
                sequences.add(ZooKeeperHolder.sequence(lease.getNodeName()));
                lease.close();
            }
            awaitTrue(() -> !exists(raw, path + "/leases"), Duration.ofSeconds(5));
            org.apache.curator.framework.recipes.locks.Lease third = semaphore.acquire(1, TimeUnit.SECONDS);
            sequences.add(ZooKeeperHolder.sequence(third.getNodeName()));
            third.close();
            assertThat(sequences).as("plain Curator: the reaped container's children count from 0 again")
                    .containsExactly(0L, 1L, 0L);
        }
        try (ZooKeeperLeases leases = leases(Duration.ofSeconds(5), TokenSource.SEQUENCE)) {
            Lease first = granted(leases.acquire(null, "s", "a", Duration.ofSeconds(5)));
            leases.release(null, first);
            Thread.sleep(CONTAINER_CHECK.multipliedBy(4).toMillis());
            Lease second = granted(leases.acquire(null, "s", "b", Duration.ofSeconds(5)));
            assertThat(second.token()).as("after an idle spell longer than the reaper's interval").isGreaterThan(first.token());
        }
    }

    /**
     * Measures from the last byte the silenced holder's client sent to the moment another holder is
     * granted the lock. ZooKeeper expires a session at the first tick after {@code timeout} past its last
     * contact, then deletes its ephemeral nodes; the other holder asks every 5 ms.
     */
    @ParameterizedTest
    @ValueSource(ints = {1000, 2000})
    void silencedHolderLosesItsLockAtTheSessionTimeout(int timeoutMs) throws Exception {
        Duration timeout = Duration.ofMillis(timeoutMs);
        try (SilentRelay relay = new SilentRelay(Integer.parseInt(server.endpoints().split(":")[1]));
             ZooKeeperLeases leases = new ZooKeeperLeases(server.endpoints(), RUN.incrementAndGet(), timeout,
                     new LiveClock(), TokenSource.CZXID, h -> h.equals("frozen") ? relay.connectString() : server.endpoints())) {
            Lease frozen = granted(leases.acquire(null, "s", "frozen", timeout));
            assertThat(Duration.between(frozen.acquiredAt(), frozen.expiresAt()))
                    .as("the server agreed to the session timeout asked for (its tick allows it)").isEqualTo(timeout);
            Thread.sleep(timeoutMs); // a few heartbeats go by
            relay.fallSilent();
            Lease successor = null;
            long deadline = System.nanoTime() + timeout.multipliedBy(3).toNanos();
            while (successor == null && System.nanoTime() < deadline) {
                if (leases.acquire(null, "s", "next", timeout) instanceof AcquireResult.Acquired a) {
                    successor = a.lease();
                } else {
                    Thread.sleep(5);
                }
            }
            long grantedAt = System.nanoTime();
            assertThat(successor).as("the silenced holder's lock node went").isNotNull();
            long tookMs = TimeUnit.NANOSECONDS.toMillis(grantedAt - relay.lastUpstreamNanos());
            System.out.printf("session timeout %d ms: last heartbeat to successor's grant %d ms%n", timeoutMs, tookMs);
            assertThat(tookMs).as("not before the session timeout (less 20 ms for the relay-to-server hop)")
                    .isGreaterThanOrEqualTo(timeoutMs - 20);
            assertThat(tookMs).as("within a tick (100 ms) plus 150 ms for expiry, deletion and polling")
                    .isLessThanOrEqualTo(timeoutMs + ZooKeeperServer.TICK.toMillis() + 150);
            assertThat(successor.token()).as("the newer holder's token is larger").isGreaterThan(frozen.token());

            relay.speak(); // thawed: the client learns its session expired
            RenewResult late = retryWhileUnreachable(() -> leases.renew(null, frozen, timeout), Duration.ofSeconds(10));
            assertThat(late).as("the thawed holder's renewal").isInstanceOf(RenewResult.NotHeld.class);
            assertThat(leases.release(null, frozen)).as("nothing of it to release").isFalse();
        }
    }

    /**
     * A release that gets no answer (the server frozen, as a stopped leader's clients see it) still gives the
     * grant up: found in a leader-stop run, where the holder kept remembering its grant and was told "busy, by
     * yourself" for the rest of the run. Its next acquisition deletes the node left behind and is granted.
     */
    @Test
    void aReleaseThatGetsNoAnswerGivesTheGrantUpAllTheSame() throws Exception {
        Duration timeout = Duration.ofSeconds(8);
        try (ZooKeeperLeases leases = leases(timeout, TokenSource.CZXID)) {
            Lease a = granted(leases.acquire(null, "s", "a", timeout));
            server.pause();
            try {
                assertThatThrownBy(() -> leases.release(null, a)).isInstanceOf(DatabaseException.class);
            } finally {
                server.resume();
            }
            Lease again = granted(retryWhileUnreachable(() -> leases.acquire(null, "s", "a", timeout),
                    Duration.ofSeconds(10)));
            assertThat(again.token()).as("a new grant, not the orphan").isGreaterThan(a.token());
        }
    }

    @Test
    void aHolderSurvivesTwoSecondsOfAFrozenServer() throws Exception {
        Duration timeout = Duration.ofSeconds(6);
        try (ZooKeeperLeases leases = leases(timeout, TokenSource.CZXID)) {
            Lease a = granted(leases.acquire(null, "s", "a", timeout));
            server.pause();
            long pausedAt = System.nanoTime();
            CompletableFuture<RenewResult> renewal = CompletableFuture.supplyAsync(() -> leases.renew(null, a, timeout));
            Thread.sleep(2000);
            server.resume();
            RenewResult renewed = renewal.get(10, TimeUnit.SECONDS);
            long answeredMs = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - pausedAt);
            assertThat(renewed).as("a 2 s freeze is shorter than the 6 s session").isInstanceOf(RenewResult.Renewed.class);
            assertThat(answeredMs).as("the renewal waited for the thaw").isGreaterThanOrEqualTo(2000);
            assertThat(leases.acquire(null, "s", "b", timeout)).as("a still holds it")
                    .isInstanceOf(AcquireResult.Busy.class);
        }
    }

    @Test
    void aFrozenServerFailsACallWithinTheCallLimit() throws Exception {
        try (ZooKeeperLeases leases = leases(Duration.ofSeconds(20), TokenSource.CZXID)) {
            Lease a = granted(leases.acquire(null, "s", "a", Duration.ofSeconds(20)));
            server.pause();
            long start = System.nanoTime();
            try {
                assertThatThrownBy(() -> leases.renew(null, a, Duration.ofSeconds(20)))
                        .isInstanceOfSatisfying(DatabaseException.class,
                                e -> assertThat(e.failure()).isEqualTo(DatabaseFailure.CONNECTION_LOST))
                        .hasMessageContaining("ZooKeeper");
            } finally {
                server.resume();
            }
            assertThat(Duration.ofNanos(System.nanoTime() - start)).as("bounded by the call limit")
                    .isLessThan(ZooKeeperLeases.CALL_LIMIT.plusSeconds(1));
        }
    }

    @Test
    void anAcquireCutOffByAFrozenServerLeavesNoLockBehind() throws Exception {
        Duration timeout = Duration.ofSeconds(20);
        try (ZooKeeperLeases leases = leases(timeout, TokenSource.CZXID)) {
            granted(leases.acquire(null, "warm", "a", timeout)); // a's session is open
            server.pause();
            try {
                assertThatThrownBy(() -> leases.acquire(null, "s", "a", timeout))
                        .isInstanceOfSatisfying(DatabaseException.class,
                                e -> assertThat(e.failure()).isEqualTo(DatabaseFailure.CONNECTION_LOST));
            } finally {
                server.resume();
            }
            Lease a = granted(retryWhileUnreachable(() -> leases.acquire(null, "s", "a", timeout), Duration.ofSeconds(10)));
            AcquireResult b = leases.acquire(null, "s", "b", timeout);
            assertThat(b).as("b sees a's one lock, the one a was told about")
                    .isEqualTo(new AcquireResult.Busy("s", "a", a.token(), ((AcquireResult.Busy) b).expiresAt()));
            assertThat(leases.release(null, a)).isTrue();
            assertThat(leases.acquire(null, "s", "b", timeout)).as("nothing of a's is left after its release")
                    .isInstanceOf(AcquireResult.Acquired.class);
        }
    }

    @Test
    void aRestartKeepsNodesSessionsAndTheZxidOrder() throws Exception {
        Duration timeout = Duration.ofSeconds(10);
        try (ZooKeeperLeases leases = leases(timeout, TokenSource.CZXID)) {
            Lease before = granted(leases.acquire(null, "s", "a", timeout));
            Lease held = granted(leases.acquire(null, "t", "a", timeout));
            assertThat(leases.release(null, before)).isTrue();
            server.restart();
            RenewResult renewed = retryWhileUnreachable(() -> leases.renew(null, held, timeout), Duration.ofSeconds(10));
            assertThat(renewed).as("the session, kept in the server's data, outlived the restart")
                    .isInstanceOf(RenewResult.Renewed.class);
            Lease after = granted(retryWhileUnreachable(() -> leases.acquire(null, "s", "b", timeout), Duration.ofSeconds(10)));
            assertThat(after.token()).as("czxid after the restart").isGreaterThan(held.token()).isGreaterThan(before.token());
        }
    }

    @Test
    void anUnreachableServerIsALostConnectionWithinSeconds() {
        String nowhere = "127.0.0.1:" + ServerProcess.freePort();
        try (ZooKeeperLeases leases = new ZooKeeperLeases(nowhere, RUN.incrementAndGet(), Duration.ofSeconds(5),
                new LiveClock(), TokenSource.CZXID)) {
            long start = System.nanoTime();
            assertThatThrownBy(() -> leases.acquire(null, "s", "a", Duration.ofSeconds(5)))
                    .isInstanceOfSatisfying(DatabaseException.class,
                            e -> assertThat(e.failure()).isEqualTo(DatabaseFailure.CONNECTION_LOST))
                    .hasMessageContaining("ZooKeeper at " + nowhere);
            assertThat(Duration.ofNanos(System.nanoTime() - start)).isLessThan(ZooKeeperLeases.CALL_LIMIT.plusSeconds(1));
        }
    }

    static <T> T retryWhileUnreachable(Supplier<T> call, Duration limit) throws InterruptedException {
        long deadline = System.nanoTime() + limit.toNanos();
        while (true) {
            try {
                return call.get();
            } catch (DatabaseException e) {
                if (e.failure() != DatabaseFailure.CONNECTION_LOST || System.nanoTime() > deadline) {
                    throw e;
                }
                Thread.sleep(100);
            }
        }
    }

    private static boolean exists(CuratorFramework client, String path) {
        try {
            return client.checkExists().forPath(path) != null;
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }

    private static void awaitTrue(Supplier<Boolean> condition, Duration limit) throws InterruptedException {
        long deadline = System.nanoTime() + limit.toNanos();
        while (!condition.get()) {
            assertThat(System.nanoTime()).as("waited " + limit + " for the condition").isLessThan(deadline);
            Thread.sleep(50);
        }
    }
}
