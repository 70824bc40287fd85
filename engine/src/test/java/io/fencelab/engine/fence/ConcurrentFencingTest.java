package io.fencelab.engine.fence;

import static org.assertj.core.api.Assertions.assertThat;

import io.fencelab.engine.clock.LiveClock;
import io.fencelab.engine.db.RunContext;
import io.fencelab.engine.lease.AcquireResult;
import io.fencelab.engine.lease.Lease;
import io.fencelab.engine.lease.LeaseService;
import io.fencelab.testing.EmbeddedDatabase;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Sixteen threads race acquisitions and writes on two scopes with leases short enough that holders
 * routinely write after losing them. The verdict comes from the database's audit of applied writes,
 * not from what the threads believe.
 */
@ExtendWith(EmbeddedDatabase.class)
class ConcurrentFencingTest {

    private static final int THREADS = 16;
    private static final int ROUNDS = 120;
    private static final List<String> SCOPES = List.of("alpha", "beta");

    @Test
    void fencedWritesNeverApplyAnOlderTokenUnderRacingHolders(RunContext run) throws Exception {
        Tally tally = race(run, FencingMode.FENCED);

        assertThat(tally.stale.get()).as("the race must produce stale attempts, or it proves nothing").isPositive();
        assertThat(tally.accepted.get()).isPositive();
        assertThat(new FenceAudit(run).regressions())
                .as("no write may apply a token older than one the resource already accepted")
                .isEmpty();
    }

    @Test
    void acquisitionsUnderContentionIssueEachTokenOnce(RunContext run) throws Exception {
        LeaseService leases = new LeaseService(run, new LiveClock());
        List<Long> tokens = java.util.Collections.synchronizedList(new ArrayList<>());
        try (ExecutorService pool = Executors.newFixedThreadPool(THREADS)) {
            List<Future<?>> futures = new ArrayList<>();
            for (int t = 0; t < THREADS; t++) {
                String holder = "h" + t;
                futures.add(pool.submit(() -> {
                    for (int i = 0; i < 50; i++) {
                        if (leases.acquire("hot", holder, Duration.ofMillis(1)) instanceof AcquireResult.Acquired a) {
                            tokens.add(a.lease().token());
                        }
                    }
                }));
            }
            for (Future<?> f : futures) {
                f.get();
            }
        }

        assertThat(tokens).as("granted tokens").isNotEmpty().doesNotHaveDuplicates();
        assertThat(leases.current("hot").orElseThrow().lastToken()).isEqualTo(tokens.size());
    }

    @Test
    void uncheckedBlindWritesLetAStaleHolderOverwriteANewerOne(RunContext run) throws Exception {
        race(run, FencingMode.UNFENCED);

        assertThat(new FenceAudit(run).regressions())
                .as("without fencing, some holder must have written over a newer token")
                .isNotEmpty();
    }

    @Test
    void checkThenWriteLosesARealRace(RunContext run) throws Exception {
        race(run, FencingMode.CHECK_THEN_WRITE);

        assertThat(new FenceAudit(run).regressions())
                .as("a separate check followed by a write must let some stale write through")
                .isNotEmpty();
    }

    private record Tally(AtomicInteger accepted, AtomicInteger stale) {}

    private static Tally race(RunContext run, FencingMode mode) throws Exception {
        LeaseService leases = new LeaseService(run, new LiveClock());
        List<FencedTarget<?>> targets = List.of(
                FencedTarget.row(run, mode, FirstWritePolicy.CREATE),
                FencedTarget.object(run, mode, FirstWritePolicy.CREATE),
                FencedTarget.pointer(run, mode, FirstWritePolicy.CREATE));
        // Widen check-then-write's window a little, as a slow network would; the race itself is real.
        targets.forEach(t -> t.setBetweenCheckAndWrite(() -> pause(1)));
        Tally tally = new Tally(new AtomicInteger(), new AtomicInteger());
        try (ExecutorService pool = Executors.newFixedThreadPool(THREADS)) {
            List<Future<?>> futures = new ArrayList<>();
            for (int t = 0; t < THREADS; t++) {
                String holder = "worker-" + t;
                String scope = SCOPES.get(t % SCOPES.size());
                futures.add(pool.submit(() -> holderLoop(leases, targets, scope, holder, tally)));
            }
            for (Future<?> f : futures) {
                f.get();
            }
        }
        return tally;
    }

    /** Keeps writing with the last lease it got, expired or not, as a paused holder would. */
    private static void holderLoop(LeaseService leases, List<FencedTarget<?>> targets, String scope, String holder,
                                   Tally tally) {
        Lease lease = null;
        ThreadLocalRandom random = ThreadLocalRandom.current();
        for (int i = 0; i < ROUNDS; i++) {
            if (leases.acquire(scope, holder, Duration.ofMillis(2)) instanceof AcquireResult.Acquired a) {
                lease = a.lease();
            }
            if (lease == null) {
                continue;
            }
            pause(random.nextInt(3));
            FencedTarget<?> target = targets.get(random.nextInt(targets.size()));
            WriteOutcome outcome = writeTo(target, scope, lease.token(), holder + "#" + i);
            switch (outcome) {
                case WriteOutcome.Accepted ok -> tally.accepted.incrementAndGet();
                case WriteOutcome.Stale stale -> tally.stale.incrementAndGet();
                case WriteOutcome.Missing missing -> throw new AssertionError("CREATE policy never answers Missing");
                case WriteOutcome.OutOfOrder ooo -> throw new AssertionError("no sequence numbers were sent");
            }
        }
    }

    @SuppressWarnings("unchecked")
    private static WriteOutcome writeTo(FencedTarget<?> target, String scope, long token, String value) {
        return switch (target.kind()) {
            case OBJECT -> ((FencedTarget<byte[]>) target).write(scope, "blob", token, value.getBytes());
            default -> ((FencedTarget<String>) target).write(scope, "record", token, value);
        };
    }

    private static void pause(int millis) {
        try {
            Thread.sleep(millis);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
