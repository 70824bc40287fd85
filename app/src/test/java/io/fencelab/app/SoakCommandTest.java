package io.fencelab.app;

import static org.assertj.core.api.Assertions.assertThat;

import io.fencelab.app.cli.ExitCodes;
import io.fencelab.engine.check.Judgement;
import io.fencelab.engine.check.Verdict;
import io.fencelab.engine.db.Database;
import io.fencelab.engine.run.RunSpec;
import io.fencelab.engine.soak.Soak;
import io.fencelab.engine.soak.SoakTally;
import io.fencelab.scenarios.ScenarioLoader;
import io.fencelab.scenarios.SoakFiles;
import io.fencelab.testing.EmbeddedDatabase;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class SoakCommandTest {

    private static Database db;

    @BeforeAll
    static void start() {
        db = EmbeddedDatabase.startThrowaway(Soak.poolSize(2));
    }

    @AfterAll
    static void stop() {
        db.close();
    }

    @Test
    void aSmallSoakAgreesWithTheAuditAndItsCountsAddUp(@TempDir Path dir) {
        Cli.Result r = Cli.run("soak", "--schedules", "50", "--live", "3", "--parallel", "2", "--out",
                dir.toString(), "--jdbc-url", db.jdbcUrl());

        assertThat(r.exit()).as(r.out() + r.err()).isEqualTo(ExitCodes.OK);
        Matcher runs = Pattern.compile("runs (\\d+): SAFE (\\d+), VIOLATED (\\d+), could not be run (\\d+)")
                .matcher(r.out());
        assertThat(runs.find()).as(r.out()).isTrue();
        assertThat(Long.parseLong(runs.group(1))).isEqualTo(53);
        assertThat(Long.parseLong(runs.group(2)) + Long.parseLong(runs.group(3)))
                .as("every run is SAFE or VIOLATED").isEqualTo(53);
        assertThat(r.out()).contains("false SAFE 0, false VIOLATED 0, write classes disagreeing 0, "
                + "witnesses not confirmed by the audit 0").contains("disagreements: 0 run(s)");
        assertThat(r.err()).contains("53/53 schedules");
        assertThat(dir).isEmptyDirectory();
    }

    @Test
    void aWrongVerdictIsADisagreementSavedAsAFileThatReplays(@TempDir Path dir) throws Exception {
        // The seam: every judgement is replaced by SAFE with no write classified, as a broken checker would say.
        Soak soak = Soak.on(db, new Soak.Options(3, 0, 1, 2, 1.0, dir.resolve("work")))
                .withJudgementsDoctoredBy(j -> Judgement.of(Verdict.of(List.of()), true));
        List<Path> saved = new ArrayList<>();
        List<RunSpec> specs = new ArrayList<>();

        SoakTally t = soak.run(o -> {
            if (o.disagrees()) {
                specs.add(o.spec());
                try {
                    saved.add(SoakFiles.save(dir.resolve("out"), 1, o));
                } catch (java.io.IOException e) {
                    throw new java.io.UncheckedIOException(e);
                }
            }
        });

        assertThat(t.falseSafe()).as("the unfenced schedules overwrite stale data; the doctored checker says SAFE")
                .isPositive().isEqualTo(t.disagreeingRuns()).isEqualTo(saved.size());
        assertThat(t.safe()).isEqualTo(3);
        Path file = saved.getFirst();
        assertThat(ScenarioLoader.load(file).spec())
                .as("the file holds the schedule's spec and seed")
                .usingRecursiveComparison().ignoringFields("name").isEqualTo(specs.getFirst());
        assertThat(Files.readString(file)).contains("false SAFE").contains("verdict: VIOLATED");

        Cli.Result replay = Cli.run("run", file.toString(), "--jdbc-url", db.jdbcUrl());

        assertThat(replay.exit()).as("the real checker finds what the audit found: " + replay.out() + replay.err())
                .isEqualTo(ExitCodes.OK);
        assertThat(replay.out()).contains("VIOLATED");
    }
}
