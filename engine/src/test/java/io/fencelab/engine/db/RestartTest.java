package io.fencelab.engine.db;

import static org.assertj.core.api.Assertions.assertThat;

import io.fencelab.engine.clock.VirtualClock;
import io.fencelab.engine.fence.FencedTarget;
import io.fencelab.engine.fence.FencingMode;
import io.fencelab.engine.fence.FirstWritePolicy;
import io.fencelab.engine.fence.WriteOutcome;
import io.fencelab.engine.lease.Lease;
import io.fencelab.engine.lease.LeaseService;
import java.nio.file.Path;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Tokens live in PostgreSQL, so neither the engine nor the server forgets which it issued. */
class RestartTest {

    private static final Duration TTL = Duration.ofSeconds(30);

    @Test
    void noTokenIsReusedAfterTheEngineRestarts(@TempDir Path dataDir) {
        long runId;
        long before;
        try (Database db = Database.open(DatabaseConfig.embedded(dataDir))) {
            RunContext run = db.newRun("before restart");
            runId = run.runId();
            LeaseService leases = new LeaseService(run, new VirtualClock());
            leases.startScope("report", 41);
            Lease a = leases.acquire("report", "A", TTL).orThrow();
            leases.release(a);
            before = a.token();
        }

        try (Database db = Database.open(DatabaseConfig.embedded(dataDir))) {
            LeaseService leases = new LeaseService(db.existingRun(runId), new VirtualClock());
            Lease b = leases.acquire("report", "B", TTL).orThrow();

            assertThat(b.token()).as("the first token after a restart").isEqualTo(before + 1);
        }
    }

    @Test
    void noTokenIsReusedAfterEmbeddedPostgresRestartsMidLease(@TempDir Path dataDir) {
        try (Database db = Database.open(DatabaseConfig.embedded(dataDir))) {
            RunContext run = db.newRun("restart mid-lease");
            VirtualClock clock = new VirtualClock();
            LeaseService leases = new LeaseService(run, clock);
            FencedTarget<String> report = FencedTarget.row(run, FencingMode.FENCED, FirstWritePolicy.CREATE);
            Lease a = leases.acquire("report", "A", TTL).orThrow();
            report.write("report", "r", a.token(), "A's body");
            int port = db.embeddedPort();

            db.restartEmbedded();
            clock.advance(TTL);
            Lease b = leases.acquire("report", "B", TTL).orThrow();

            assertThat(db.embeddedPort()).as("the server comes back where clients expect it").isEqualTo(port);
            assertThat(b.token()).isEqualTo(a.token() + 1);
            assertThat(report.write("report", "r", a.token() - 1, "older"))
                    .as("the highest accepted token survived the restart")
                    .isEqualTo(new WriteOutcome.Stale(a.token() - 1, a.token()));
        }
    }
}
