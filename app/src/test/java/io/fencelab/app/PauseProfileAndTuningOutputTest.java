package io.fencelab.app;

import static org.assertj.core.api.Assertions.assertThat;

import io.fencelab.app.cli.ExitCodes;
import io.fencelab.engine.db.Database;
import io.fencelab.testing.EmbeddedDatabase;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/**
 * What {@code fencelab validate} and {@code fencelab run} say a scenario sets its holders against (the
 * lease client and the pause profile), and the tuning figures {@code run} prints after the verdict.
 */
@ExtendWith(EmbeddedDatabase.class)
class PauseProfileAndTuningOutputTest {

    /** A Kubernetes leader pausing for 1 ms, 2 ms, … 200 ms, one pause started every 10 s on average. */
    private static Path pausingLeader(Path dir) throws IOException {
        StringBuilder pauses = new StringBuilder("# 200 pauses\n");
        for (int i = 1; i <= 200; i++) {
            pauses.append(i).append("ms\n");
        }
        Files.writeString(dir.resolve("pauses.txt"), pauses);
        Path file = dir.resolve("leader.yaml");
        Files.writeString(file, """
                title: A pausing leader
                summary: A leader whose pauses come from a list.
                story: [A leads and pauses now and then.]
                duration: 60s
                lease: {profile: kubernetes}
                workers:
                  - {name: A, scope: s, role: leader, writes: [{target: ROW, key: k}]}
                  - {name: B, scope: s, role: leader, writes: [{target: ROW, key: k}]}
                faults:
                  - {kind: PAUSE, target: A, every: {exponential: 9900ms}, duration: {empirical: pauses.txt}}
                expect: {verdict: SAFE}
                """);
        return file;
    }

    @Test
    void validatePrintsTheLeaseProfileAndEachHoldersPauses(@TempDir Path dir) throws Exception {
        Path file = pausingLeader(dir);

        Cli.Result r = Cli.run("validate", file.toString());

        assertThat(r.exit()).as(r.out() + r.err()).isEqualTo(ExitCodes.OK);
        assertThat(r.out()).as("the file's pauses by nearest rank; a pause every 9.9 s + 100.5 ms on average")
                .contains(file + ": valid: A pausing leader\n"
                        + "  lease:  kubernetes (leaseDuration 15s, renewDeadline 10s, retryPeriod 2s")
                .contains("\n  pauses: A: pauses.txt: 200 samples, median 100 ms, p99 198 ms, max 200 ms; "
                        + "6 a minute per holder\n"
                        + "          B: no pauses\n");
    }

    @Test
    void runPrintsThePauseProfileBeforeTheRun(Database db, @TempDir Path dir) throws Exception {
        Cli.Result r = Cli.run("run", pausingLeader(dir).toString(), "--jdbc-url", db.jdbcUrl());

        assertThat(r.exit()).as(r.out() + r.err()).isEqualTo(ExitCodes.OK);
        assertThat(r.out()).contains("  pauses: A: pauses.txt: 200 samples, median 100 ms, p99 198 ms, max 200 ms;");
        assertThat(r.out().indexOf("  pauses: ")).as("told before the run's outcome")
                .isLessThan(r.out().indexOf("verdict: "));
    }

    @Test
    void runPrintsTheTuningFiguresAfterTheVerdict(Database db) {
        Cli.Result r = Cli.run("run", "consul-lock-delay", "--jdbc-url", db.jdbcUrl());

        assertThat(r.exit()).as(r.out() + r.err()).isEqualTo(ExitCodes.OK);
        String tuning = r.out().substring(r.out().indexOf("verdict: "));
        assertThat(tuning).as("one crash of the holder, so one failover, whose p99 is said to be the max")
                .containsPattern("\ntuning, over \\d+\\.\\ds of run time:\n"
                        + "  failovers           1: p50 [\\d.]+s, p99 = max [\\d.]+s\n"
                        + "  unavailability      [\\d.]+% \\(holder frozen [\\d.]+%, awaiting expiry [\\d.]+%, "
                        + "acquiring [\\d.]+%, service unreachable [\\d.]+%\\)\n"
                        + "  lease losses        [\\d.]+ / h \\(to a pause [\\d.]+ / h, to renewals [\\d.]+ / h\\)\n"
                        + "  leader transitions  [\\d.]+ / h\n"
                        + "  stale writes        [\\d.]+ / h\n");
    }
}
