package io.fencelab.app;

import static org.assertj.core.api.Assertions.assertThat;

import io.fencelab.app.cli.ExitCodes;
import io.fencelab.engine.db.Database;
import io.fencelab.scenarios.Catalog;
import io.fencelab.testing.EmbeddedDatabase;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

@ExtendWith(EmbeddedDatabase.class)
class HandoutCommandTest {

    @Test
    void theShippedWorkshopGetsAPagePerLessonAndAnIndex(Database db, @TempDir Path dir) throws Exception {
        Cli.Result r = Cli.run("handout", "workshop", "--out", dir.toString(), "--paper", "letter", "--jdbc-url",
                db.jdbcUrl());

        assertThat(r.exit()).as(r.out() + r.err()).isEqualTo(ExitCodes.OK);
        assertThat(r.out()).contains("wrote " + dir.resolve("01-paused-holder.html"))
                .contains("handout: " + dir.resolve("index.html"));
        try (var files = Files.list(dir)) {
            assertThat(files.map(p -> p.getFileName().toString()).sorted()).containsExactly("01-paused-holder.html",
                    "02-paused-holder-unfenced.html", "03-check-then-write-race.html", "04-fence-first-write-only.html",
                    "05-random-uuid-tokens.html", "06-k8s-leader-gc.html", "index.html");
        }
        assertThat(Files.readString(dir.resolve("01-paused-holder.html"))).contains("@page{size:letter")
                .contains("fencelab run paused-holder --seed 1")
                .contains("fencelab run paused-holder --seed 1 --fencing UNFENCED --expect VIOLATED")
                .doesNotContain("class=\"teacher\"");
        try (var files = Files.list(dir)) {
            assertThat(files.toList()).as("pages to hand round, readable by others").allSatisfy(page ->
                    assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(page))).isEqualTo("rw-r--r--"));
        }
    }

    @Test
    void oneScenarioGetsOnePageAndTheTeacherFlagAddsTheNotes(Database db, @TempDir Path dir) throws Exception {
        Cli.Result r = Cli.run("handout", "paused-holder", "--teacher", "--out", dir.toString(), "--jdbc-url", db.jdbcUrl());

        assertThat(r.exit()).as(r.out() + r.err()).isEqualTo(ExitCodes.OK);
        assertThat(r.out()).contains("handout: " + dir.resolve("paused-holder.html"));
        assertThat(Files.readString(dir.resolve("paused-holder.html"))).contains("class=\"teacher\"");
    }

    @Test
    void aWorkshopWithAnUnknownLessonIsALocatedErrorAndExitTwo(Database db, @TempDir Path dir) throws Exception {
        Path workshop = dir.resolve("w.yaml");
        Files.writeString(workshop, "title: T\nlessons:\n  - scenario: paused-holder\n  - scenario: no-such-lesson\n");
        Path out = dir.resolve("out");

        Cli.Result r = Cli.run("handout", workshop.toString(), "--out", out.toString(), "--jdbc-url", db.jdbcUrl());

        assertThat(r.exit()).isEqualTo(ExitCodes.BAD_INPUT);
        assertThat(r.err()).startsWith(workshop + ":4:15: lessons[1].scenario: no-such-lesson: ")
                .contains("no catalog scenario of that name").doesNotContain("Exception");
        assertThat(out).doesNotExist();
    }

    @Test
    void aStepTheRunNeverReachesIsALocatedErrorExitTwoAndNothingWritten(Database db, @TempDir Path dir) throws Exception {
        String text = Catalog.shipped().source("paused-holder").text()
                .replace("on: {type: WriteRejectedStale, holder: A}", "on: {type: WriteRejectedStale, holder: B}");
        Files.writeString(dir.resolve("never.yaml"), text);
        Path workshop = dir.resolve("w.yaml");
        Files.writeString(workshop, "title: T\nlessons:\n  - scenario: never.yaml\n");
        Path out = dir.resolve("out");

        Cli.Result r = Cli.run("handout", workshop.toString(), "--out", out.toString(), "--jdbc-url", db.jdbcUrl());

        assertThat(r.exit()).isEqualTo(ExitCodes.BAD_INPUT);
        assertThat(r.err().strip()).matches("(?s).*never\\.yaml:\\d+:1: story\\[6\\]: step 7 is never reached: the run has "
                + "no WriteRejectedStale holder=B event after step 6 .*\\(lesson 1 of " + java.util.regex.Pattern.quote(
                        workshop.toString()) + "\\)").doesNotContain("\n").doesNotContain("Exception");
        assertThat(out).doesNotExist();
        assertThat(r.out()).doesNotContain("handout:");
    }

    @Test
    void aBadPaperIsOneLineAndExitTwo(@TempDir Path dir) {
        Cli.Result r = Cli.run("handout", "paused-holder", "--paper", "a3", "--out", dir.toString());

        assertThat(r.exit()).isEqualTo(ExitCodes.BAD_INPUT);
        assertThat(r.err().strip()).isEqualTo("fencelab: --paper must be a4 or letter, was 'a3'");
    }
}
