package io.fencelab.app;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.fencelab.app.cli.ExitCodes;
import io.fencelab.engine.db.Database;
import io.fencelab.testing.EmbeddedDatabase;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

@ExtendWith(EmbeddedDatabase.class)
class TuneCommandTest {

    @Test
    void aSweepFromTheCommandLineWritesItsFilesAndResumesAsDone(Database db, @TempDir Path dir) throws Exception {
        Cli.Result r = Cli.run("tune", "paused-holder", "--vary", "lease.ttl=10s..40s:4", "--seeds", "2",
                "--require", "staleWritesPerHour<=100", "--out", dir.toString(), "--jdbc-url", db.jdbcUrl());

        assertThat(r.exit()).as(r.out() + r.err()).isEqualTo(ExitCodes.OK);
        assertThat(r.out()).contains("4 points x 2 seeds = 8 runs").contains("recommended: lease.ttl=")
                .contains("report: " + dir.resolve("sweep.html"));
        assertThat(r.err()).contains("8/8 runs").contains("runs/s");
        assertThat(Files.readAllLines(dir.resolve("sweep.csv"))).hasSize(9);
        assertThat(dir.resolve("sweep.json")).isRegularFile();
        assertThat(dir.resolve("points/p003/report.html")).isRegularFile();

        Cli.Result again = Cli.run("tune", "paused-holder", "--vary", "lease.ttl=10s..40s:4", "--seeds", "2",
                "--out", dir.toString(), "--jdbc-url", db.jdbcUrl());

        assertThat(again.exit()).as(again.err()).isEqualTo(ExitCodes.OK);
        assertThat(again.err()).contains("resuming: 8 of 8 runs already done");
        assertThat(Files.readAllLines(dir.resolve("sweep.csv"))).hasSize(9);
    }

    @Test
    void otherArgumentsInTheSameDirectoryAreRefusedInOneLine(Database db, @TempDir Path dir) {
        Cli.run("tune", "paused-holder", "--vary", "lease.ttl=10s,20s", "--seeds", "1", "--out", dir.toString(),
                "--jdbc-url", db.jdbcUrl());

        Cli.Result r = Cli.run("tune", "paused-holder", "--vary", "lease.ttl=10s,30s", "--seeds", "1", "--out",
                dir.toString(), "--jdbc-url", db.jdbcUrl());

        assertThat(r.exit()).isEqualTo(ExitCodes.BAD_INPUT);
        assertThat(r.err().strip()).contains("holds a sweep with other arguments").doesNotContain("\n")
                .doesNotContain("Exception");
    }

    @Test
    void badArgumentsAreOneClearLineAndExitTwo(@TempDir Path dir) {
        for (List<String> args : List.of(
                List.of("--vary", "lease.tll=10s..20s"),
                List.of("--vary", "lease.ttl=10..20"),
                List.of("--vary", "lease.ttl"),
                List.of("--vary", "lease.ttl=10s..20s:2", "--require", "latency<=3"),
                List.of("--vary", "lease.ttl=10s..20s:2", "--require", "failoverP99Seconds<20"))) {
            List<String> all = new java.util.ArrayList<>(List.of("tune", "paused-holder", "--out", dir.toString()));
            all.addAll(args);

            Cli.Result r = Cli.run(all.toArray(String[]::new));

            assertThat(r.exit()).as("%s: %s", args, r.err()).isEqualTo(ExitCodes.BAD_INPUT);
            assertThat(r.err().strip()).as("%s", args).doesNotContain("\n").doesNotContain("Exception")
                    .doesNotContain("\tat ");
        }
        Cli.Result unknown = Cli.run("tune", "paused-holder", "--out", dir.toString(), "--vary", "lease.tll=1s..2s");
        assertThat(unknown.err()).contains("lease.ttl, lease.renewEvery").contains("faults[0].duration");
    }

    @Test
    void anInMemorySweepRunsItsRecommendedSettingAgainOnPostgresAndSaysTheLogsAgree(Database db, @TempDir Path dir)
            throws Exception {
        Cli.Result r = Cli.run("tune", "vm-suspension", "--vary", "lease.ttl=20s,60s", "--seeds", "1",
                "--require", "staleWritesPerHour<=0", "--out", dir.toString(), "--jdbc-url", db.jdbcUrl());

        assertThat(r.exit()).as(r.out() + r.err()).isEqualTo(ExitCodes.OK);
        assertThat(r.out()).contains("backend: in-memory model of PostgreSQL")
                .contains("checked on PostgreSQL: lease.ttl=60s, seed 3: the event log is identical");
        JsonNode json = new com.fasterxml.jackson.databind.ObjectMapper().readTree(dir.resolve("sweep.json").toFile());
        assertThat(json.get("backend").asText()).isEqualTo("memory");
        assertThat(json.get("postgresCheck").get("identicalToPostgres").asBoolean()).isTrue();
        assertThat(Files.readString(dir.resolve("sweep.html"))).contains("the two event logs are identical");
    }

    @Test
    void aPostgresSweepNeedsNoCheckAndALiveScenarioIsRefusedTheMemoryBackend(Database db, @TempDir Path dir)
            throws Exception {
        Cli.Result pg = Cli.run("tune", "vm-suspension", "--vary", "lease.ttl=20s,60s", "--seeds", "1",
                "--backend", "postgres", "--out", dir.resolve("pg").toString(), "--jdbc-url", db.jdbcUrl());
        assertThat(pg.exit()).as(pg.err()).isEqualTo(ExitCodes.OK);
        assertThat(pg.out()).contains("backend: PostgreSQL").doesNotContain("checked on PostgreSQL");

        Cli.Result live = Cli.run("tune", "check-then-write-race", "--vary", "lease.ttl=1s,2s", "--seeds", "1",
                "--backend", "memory", "--out", dir.resolve("live").toString(), "--jdbc-url", db.jdbcUrl());
        assertThat(live.exit()).isEqualTo(ExitCodes.BAD_INPUT);
        assertThat(live.err().strip()).contains("--backend memory: the in-memory backend runs simulated runs only")
                .doesNotContain("\n");
    }
}
