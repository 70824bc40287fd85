package io.fencelab.engine.fence;

import static org.assertj.core.api.Assertions.assertThat;

import io.fencelab.engine.clock.VirtualClock;
import io.fencelab.engine.db.RunContext;
import io.fencelab.engine.lease.AcquireResult;
import io.fencelab.engine.lease.Lease;
import io.fencelab.engine.lease.LeaseService;
import io.fencelab.engine.resource.TargetKind;
import io.fencelab.testing.EmbeddedDatabase;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * The design note's failure sequence, step by step, on every kind of target: acquire N, suspend
 * holder N, let its lease expire, acquire N+1, write with N+1, resume N, write with N, see it
 * rejected, and find the newer state intact.
 */
@ExtendWith(EmbeddedDatabase.class)
class StaleHolderSequenceTest {

    private static final Duration TTL = Duration.ofSeconds(30);

    @Test
    void staleTokenIsRejectedAfterNewerHolderWrote(RunContext run) {
        VirtualClock clock = new VirtualClock();
        LeaseService leases = new LeaseService(run, clock);
        FencedTarget<String> report = FencedTarget.row(run, FencingMode.FENCED, FirstWritePolicy.CREATE);
        leases.startScope("report", 41);

        // 1. A acquires token N = 41
        Lease a = leases.acquire("report", "A", TTL).orThrow();
        assertThat(a.token()).isEqualTo(41);
        // 2. A is suspended at 10 s (it does nothing while virtual time passes)
        clock.advance(Duration.ofSeconds(10));
        // 3. its lease expires at 30 s
        clock.advance(Duration.ofSeconds(21));
        assertThat(clock.now()).isAfter(a.expiresAt());
        // 4. B acquires N + 1 = 42 at 31 s
        Lease b = leases.acquire("report", "B", TTL).orThrow();
        assertThat(b.token()).isEqualTo(42);
        // 5. B writes with 42 at 35 s
        clock.advance(Duration.ofSeconds(4));
        assertThat(report.write("report", "report-1", b.token(), "body from B"))
                .isEqualTo(new WriteOutcome.Accepted(42, null));
        // 6. A resumes at 45 s and 7. writes with its old token
        clock.advance(Duration.ofSeconds(10));
        WriteOutcome late = report.write("report", "report-1", a.token(), "body from A");

        // 8. the resource rejects it, naming the highest token it accepted
        assertThat(late).as("A's write with token 41 after B wrote with 42")
                .isEqualTo(new WriteOutcome.Stale(41, 42));
        // 9. the state from N + 1 is intact
        assertThat(report.read("report", "report-1")).get()
                .isEqualTo(new StoredValue<>("body from B", 42, null));
    }

    @ParameterizedTest
    @EnumSource(TargetKind.class)
    void everyTargetKindRejectsTheStaleHolder(TargetKind kind, RunContext run) {
        VirtualClock clock = new VirtualClock();
        LeaseService leases = new LeaseService(run, clock);
        Lease a = leases.acquire("report", "A", TTL).orThrow();
        clock.advance(TTL.plusSeconds(1));
        Lease b = leases.acquire("report", "B", TTL).orThrow();

        switch (kind) {
            case ROW -> {
                FencedTarget<String> t = FencedTarget.row(run, FencingMode.FENCED, FirstWritePolicy.CREATE);
                t.write("report", "r", b.token(), "B");
                assertThat(t.write("report", "r", a.token(), "A")).isInstanceOf(WriteOutcome.Stale.class);
                assertThat(t.read("report", "r").orElseThrow().value()).isEqualTo("B");
            }
            case OBJECT -> {
                FencedTarget<byte[]> t = FencedTarget.object(run, FencingMode.FENCED, FirstWritePolicy.CREATE);
                t.write("report", "reports/2026.pdf", b.token(), bytes("B"));
                assertThat(t.write("report", "reports/2026.pdf", a.token(), bytes("A")))
                        .isInstanceOf(WriteOutcome.Stale.class);
                assertThat(t.read("report", "reports/2026.pdf").orElseThrow().value()).isEqualTo(bytes("B"));
            }
            case POINTER -> {
                FencedTarget<String> t = FencedTarget.pointer(run, FencingMode.FENCED, FirstWritePolicy.CREATE);
                t.write("report", "current", b.token(), "reports/v42");
                assertThat(t.write("report", "current", a.token(), "reports/v41"))
                        .isInstanceOf(WriteOutcome.Stale.class);
                assertThat(t.read("report", "current").orElseThrow().value()).isEqualTo("reports/v42");
            }
        }
    }

    @Test
    void withoutFencingTheSameSequenceOverwritesTheNewerHolder(RunContext run) {
        VirtualClock clock = new VirtualClock();
        LeaseService leases = new LeaseService(run, clock);
        FencedTarget<String> report = FencedTarget.row(run, FencingMode.UNFENCED, FirstWritePolicy.CREATE);
        Lease a = leases.acquire("report", "A", TTL).orThrow();
        clock.advance(TTL.plusSeconds(1));
        Lease b = leases.acquire("report", "B", TTL).orThrow();
        report.write("report", "report-1", b.token(), "body from B");

        WriteOutcome late = report.write("report", "report-1", a.token(), "body from A");

        assertThat(late).as("an unfenced resource takes anything, and says it replaced B's newer token")
                .isEqualTo(new WriteOutcome.Accepted(a.token(), b.token()));
        assertThat(report.read("report", "report-1").orElseThrow().value()).isEqualTo("body from A");
    }

    @Test
    void theLeaseServiceAloneDoesNotStopThePausedHolder(RunContext run) {
        // The lease behaved correctly (B only got the lease after A's expired), yet A still acts:
        // nothing in the lease service can reach into a paused process.
        VirtualClock clock = new VirtualClock();
        LeaseService leases = new LeaseService(run, clock);
        Lease a = leases.acquire("report", "A", TTL).orThrow();
        clock.advance(Duration.ofSeconds(29));
        assertThat(leases.acquire("report", "B", TTL)).isInstanceOf(AcquireResult.Busy.class);
        clock.advance(Duration.ofSeconds(2));
        assertThat(leases.acquire("report", "B", TTL)).isInstanceOf(AcquireResult.Acquired.class);

        assertThat(a.token()).as("A still carries its token; only the resource can refuse it").isEqualTo(1);
    }

    private static byte[] bytes(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }
}
