package io.fencelab.engine.fence;

import static org.assertj.core.api.Assertions.assertThat;

import io.fencelab.engine.clock.VirtualClock;
import io.fencelab.engine.db.RunContext;
import io.fencelab.engine.lease.Lease;
import io.fencelab.engine.lease.LeaseService;
import io.fencelab.testing.EmbeddedDatabase;
import java.time.Duration;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/** The resource's fence is only as good as the order of the numbers it is given. */
@ExtendWith(EmbeddedDatabase.class)
class BrokenTokenSchemesTest {

    private static final Duration TTL = Duration.ofSeconds(30);

    @Test
    void monotonicTokensRejectEveryPausedHolder(RunContext run) {
        int accepted = pausedHolderStories(run, TokenScheme.MONOTONIC, Duration.ZERO, 20);

        assertThat(accepted).as("stale writes accepted with monotonic tokens").isZero();
    }

    @Test
    void randomUuidTokensAcceptAnOlderHoldersWrite(RunContext run) {
        int accepted = pausedHolderStories(run, TokenScheme.RANDOM_UUID, Duration.ZERO, 20);

        assertThat(accepted).as("a UUID carries no order, so some paused holders get through").isPositive();
    }

    @Test
    void wallClockTokensWithSkewAcceptAStaleWrite(RunContext run) {
        int accepted = pausedHolderStories(run, TokenScheme.WALL_CLOCK, Duration.ofSeconds(60), 1);

        assertThat(accepted).as("A's clock runs 60 s ahead, so its old token outranks B's").isEqualTo(1);
    }

    @Test
    void wallClockTokensWithoutSkewHappenToWorkHere(RunContext run) {
        int accepted = pausedHolderStories(run, TokenScheme.WALL_CLOCK, Duration.ZERO, 1);

        assertThat(accepted).as("with perfect clocks the order holds, which is why the bug hides").isZero();
    }

    /**
     * Runs the paused-holder story once per scope: A acquires, pauses past expiry, B acquires and writes,
     * A writes last. Returns how many of A's stale writes the fenced resource accepted.
     */
    private static int pausedHolderStories(RunContext run, TokenScheme scheme, Duration skewOfA, int stories) {
        VirtualClock clock = new VirtualClock();
        LeaseService leases = new LeaseService(run, clock);
        FencedTarget<String> report = FencedTarget.row(run, FencingMode.FENCED, FirstWritePolicy.CREATE);
        SplittableRandom random = new SplittableRandom(42);
        int staleAccepted = 0;
        for (int i = 0; i < stories; i++) {
            String scope = "report-" + i;
            Lease a = leases.acquire(scope, "A", TTL).orThrow();
            long tokenA = scheme.tokenFor(a, clock.now().plus(skewOfA), random);
            clock.advance(TTL.plusSeconds(1));
            Lease b = leases.acquire(scope, "B", TTL).orThrow();
            long tokenB = scheme.tokenFor(b, clock.now(), random);
            report.write(scope, "body", tokenB, "B");
            clock.advance(Duration.ofSeconds(10));
            if (report.write(scope, "body", tokenA, "A") instanceof WriteOutcome.Accepted) {
                staleAccepted++;
                assertThat(report.read(scope, "body").orElseThrow().value()).isEqualTo("A");
            }
        }
        return staleAccepted;
    }
}
