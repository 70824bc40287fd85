package io.fencelab.app;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.fencelab.app.cli.ExitCodes;
import io.fencelab.engine.db.Database;
import io.fencelab.scenarios.WorkshopLoader;
import io.fencelab.testing.EmbeddedDatabase;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

@ExtendWith(EmbeddedDatabase.class)
class CommandLineTest {

    @Test
    void listShowsTheCatalogWithOneLineSummaries() {
        Cli.Result r = run("list");

        assertThat(r.exit()).isEqualTo(ExitCodes.OK);
        assertThat(r.out()).contains("paused-holder ").contains("paused-holder-unfenced").contains("token-goes-backwards")
                .contains("json-precision");
        assertThat(r.out()).as("the fence gallery, named as probe takes it").contains("fences/correct ")
                .contains("fences/token-as-text").contains("fences/check-then-write")
                .contains("fencelab probe fences/<name>");
    }

    @Test
    void runOfTheUsersOwnFenceNamesItsScratchSchemaAndIsJudgedSafe(Database db) {
        Cli.Result r = run("run", "your-own-fence", "--jdbc-url", db.jdbcUrl());

        assertThat(r.exit()).as(r.out() + r.err()).isEqualTo(ExitCodes.OK);
        assertThat(r.out()).contains("fence:  report, your SQL").contains("nothing outside it is written")
                .contains("verdict: SAFE");
    }

    @Test
    void runOfAFenceWithBadSqlSaysWhereInOneLineAndStartsNoWorker(Database db, @TempDir Path dir) throws Exception {
        String yaml = io.fencelab.scenarios.Catalog.shipped().source("your-own-fence").text().replace("WHERE report_id = :key AND fencing_token <= :token",
                "WHERE report_id = :key AND fencing_tokn <= :token");
        Path file = Files.writeString(dir.resolve("mine.yaml"), yaml);

        Cli.Result r = run("run", file.toString(), "--jdbc-url", db.jdbcUrl(), "--report", dir.resolve("out").toString());

        assertThat(r.exit()).as(r.out() + r.err()).isEqualTo(ExitCodes.BAD_INPUT);
        assertThat(r.err().strip().lines()).hasSize(1).first().asString().startsWith(file + ":")
                .contains("fencing_tokn");
        assertThat(r.err()).doesNotContain("Exception").doesNotContain("\tat ");
        assertThat(dir.resolve("out").resolve("events.jsonl")).doesNotExist();
    }

    @Test
    void runWithReportWritesTheFourFilesAndMeetsTheExpectation(Database db, @TempDir Path dir) throws Exception {
        Cli.Result r = run("run", "paused-holder", "--jdbc-url", db.jdbcUrl(), "--report", dir.toString());

        assertThat(r.exit()).as(r.out() + r.err()).isEqualTo(ExitCodes.OK);
        assertThat(r.out()).contains("verdict: SAFE").contains("-> met");
        assertThat(dir.resolve("report.html")).isRegularFile();
        assertThat(dir.resolve("events.jsonl")).isRegularFile();
        assertThat(dir.resolve("metrics.csv")).isRegularFile();
        JsonNode summary = new ObjectMapper().readTree(dir.resolve("summary.json").toFile());
        assertThat(summary.path("scenario").asText()).isEqualTo("paused-holder");
        assertThat(summary.path("verdict").asText()).isEqualTo("SAFE");
        assertThat(summary.path("seed").isTextual()).as("the seed is a decimal string").isTrue();
        assertThat(summary.path("totals").path("staleRejections").asLong()).isEqualTo(1);
        for (String field : new String[] {"executor", "fencing", "tokenScheme", "expected", "witnesses"}) {
            assertThat(summary.has(field)).as("summary.json has %s", field).isTrue();
        }
    }

    @Test
    void aVerdictThatMissesTheExpectationExitsWithOne(Database db) {
        Cli.Result r = run("run", "paused-holder", "--fencing", "UNFENCED", "--jdbc-url", db.jdbcUrl());

        assertThat(r.exit()).isEqualTo(ExitCodes.UNEXPECTED_VERDICT);
        assertThat(r.out()).contains("verdict: VIOLATED").contains("NOT met");
    }

    @Test
    void expectingTheVerdictAnOverriddenRunShowsExitsZeroAndWritesAReportOthersCanRead(Database db, @TempDir Path dir)
            throws Exception {
        Cli.Result r = run("run", "paused-holder", "--fencing", "UNFENCED", "--expect", "violated", "--jdbc-url", db.jdbcUrl(),
                "--report", dir.resolve("out").toString());

        assertThat(r.exit()).as("the handouts' unfenced rerun must not look like an error").isEqualTo(ExitCodes.OK);
        assertThat(r.out()).contains("verdict: VIOLATED").contains("expected: VIOLATED -> met").doesNotContain("NOT met");
        for (Path file : List.of(dir.resolve("out/report.html"), dir.resolve("out/events.jsonl"))) {
            assertThat(java.nio.file.attribute.PosixFilePermissions.toString(Files.getPosixFilePermissions(file)))
                    .as("%s is for sharing", file.getFileName()).isEqualTo("rw-r--r--");
        }

        Cli.Result wrong = run("run", "paused-holder", "--expect", "VIOLATED", "--jdbc-url", db.jdbcUrl());
        assertThat(wrong.exit()).as("a fenced run expected VIOLATED misses").isEqualTo(ExitCodes.UNEXPECTED_VERDICT);
        assertThat(wrong.out()).contains("expected: VIOLATED -> NOT met");
    }

    @Test
    void checkReJudgesARecordedRunWithTheSameVerdict(Database db, @TempDir Path dir) {
        run("run", "paused-holder-unfenced", "--jdbc-url", db.jdbcUrl(), "--report", dir.toString());

        Cli.Result r = run("check", dir.resolve("events.jsonl").toString());

        assertThat(r.out()).contains("verdict VIOLATED").contains("STALE_OVERWRITE").contains("the same");
        assertThat(r.exit()).isEqualTo(ExitCodes.OK);
    }

    @Test
    void validateNamesFileLineAndFieldOfAProblem(@TempDir Path dir) throws Exception {
        Path bad = dir.resolve("bad.yaml");
        Files.writeString(bad, """
                title: t
                summary: s
                story: [one]
                duration: 10s
                lease: {ttl: 5s}
                workers:
                  - {name: A, scope: s, onStale: ABANDONN, writes: [{target: ROW, key: k}]}
                expect: {verdict: SAFE}
                """);

        Cli.Result r = run("validate", bad.toString());

        assertThat(r.exit()).isEqualTo(ExitCodes.BAD_INPUT);
        assertThat(r.err()).contains("bad.yaml:7:").contains("onStale").contains("ABANDON").doesNotContain("Exception");
    }

    @Test
    void validateRunsEveryStoryLessonOfTheShippedWorkshop(Database db, @TempDir Path dir) throws Exception {
        Path workshop = dir.resolve("workshop.yaml");
        try (var in = getClass().getClassLoader().getResourceAsStream(WorkshopLoader.SHIPPED)) {
            Files.write(workshop, in.readAllBytes());
        }

        Cli.Result r = run("validate", workshop.toString(), "--jdbc-url", db.jdbcUrl());

        assertThat(r.exit()).as(r.out() + r.err()).isEqualTo(ExitCodes.OK);
        assertThat(r.out()).contains("lesson 1, paused-holder (story, 10 min): the run reaches all 7 steps of the "
                        + "story, 2 with questions")
                .contains("lesson 6, k8s-leader-gc (sweep, 10 min): fencelab tune k8s-leader-gc --vary")
                .contains("valid workshop: Fencing tokens in 45 minutes");
    }

    @Test
    void aWorkshopLessonWhoseStoryStepIsNeverReachedIsALocatedError(Database db, @TempDir Path dir)
            throws Exception {
        Files.writeString(dir.resolve("lesson.yaml"), """
                title: A lesson
                summary: A acquires the lease; nobody else ever does.
                story:
                  - text: A acquires the lease.
                    on: {type: LeaseAcquired, holder: A}
                  - text: C acquires it next.
                    on: {type: LeaseAcquired, holder: C}
                duration: 10s
                lease: {ttl: 5s}
                workers:
                  - {name: A, scope: s, jobs: 1, writes: [{target: ROW, key: k}]}
                expect: {verdict: SAFE}
                """);
        Path workshop = dir.resolve("workshop.yaml");
        Files.writeString(workshop, """
                title: One lesson
                lessons:
                  - {scenario: lesson.yaml, minutes: 5}
                """);

        Cli.Result r = run("validate", workshop.toString(), "--jdbc-url", db.jdbcUrl());

        assertThat(r.exit()).as(r.out() + r.err()).isEqualTo(ExitCodes.BAD_INPUT);
        assertThat(r.err()).as("the step's own file and line").contains("lesson.yaml:6:1: story[1]: step 2 is never "
                + "reached: the run has no LeaseAcquired holder=C event").doesNotContain("Exception");
    }

    @Test
    void aWorkshopLessonNamingNoScenarioIsALocatedError(@TempDir Path dir) throws Exception {
        Path workshop = dir.resolve("workshop.yaml");
        Files.writeString(workshop, """
                title: Two lessons
                lessons:
                  - {scenario: paused-holder}
                  - {scenario: no-such-lesson}
                """);

        Cli.Result r = run("validate", workshop.toString());

        assertThat(r.exit()).isEqualTo(ExitCodes.BAD_INPUT);
        assertThat(r.err()).contains("workshop.yaml:4:").contains("lessons[1].scenario").contains("no-such-lesson")
                .doesNotContain("Exception");
    }

    @Test
    void validateWithRunChecksThatTheScenarioReachesItsStory(Database db, @TempDir Path dir) throws Exception {
        Path file = dir.resolve("short.yaml");
        Files.writeString(file, """
                title: Too short
                summary: The story waits for a time the run never reaches.
                story:
                  - text: A acquires the lease.
                    on: {type: LeaseAcquired, holder: A}
                  - text: A minute later, nothing.
                    at: 60s
                duration: 10s
                lease: {ttl: 5s}
                workers:
                  - {name: A, scope: s, jobs: 1, writes: [{target: ROW, key: k}]}
                expect: {verdict: SAFE}
                """);

        assertThat(run("validate", file.toString()).exit()).as("without --run only the format is checked")
                .isEqualTo(ExitCodes.OK);
        Cli.Result r = run("validate", file.toString(), "--run", "--jdbc-url", db.jdbcUrl());

        assertThat(r.exit()).as(r.out() + r.err()).isEqualTo(ExitCodes.BAD_INPUT);
        assertThat(r.err()).contains("short.yaml:6:1: story[1]: step 2 is never reached: the run ends at 10s, "
                + "before 60s");
    }

    @Test
    void aWorkshopFileWithAnUnknownLessonIsBadInputNamedWhereItIsWrittenBeforeAnyWindowOpens(@TempDir Path dir)
            throws Exception {
        Path bad = dir.resolve("workshop.yaml");
        Files.writeString(bad, """
                title: T
                summary: S
                lessons:
                  - scenario: paused-holder
                    minutes: 5
                  - scenario: no-such-lesson
                    minutes: 5
                """);

        Cli.Result r = run("--workshop", bad.toString());

        assertThat(r.exit()).isEqualTo(ExitCodes.BAD_INPUT);
        assertThat(r.err()).contains("workshop.yaml:6").contains("no-such-lesson").doesNotContain("Exception");
    }

    @Test
    void anUnknownScenarioIsBadInputThatListsTheCatalog() {
        Cli.Result r = run("run", "no-such-scenario");

        assertThat(r.exit()).isEqualTo(ExitCodes.BAD_INPUT);
        assertThat(r.err()).contains("no-such-scenario").contains("paused-holder");
    }

    @Test
    void anUnknownExecutorNamesTheThreeThereAre() {
        Cli.Result r = run("run", "paused-holder", "--executor", "warp");

        assertThat(r.exit()).as(r.out() + r.err()).isEqualTo(ExitCodes.BAD_INPUT);
        assertThat(r.err()).contains("--executor must be simulated, live or process, was 'warp'")
                .doesNotContain("Exception");
    }

    @Test
    void hostsInAFileThatIsNotAProcessRunAreOneLocatedLine(@TempDir Path dir) throws Exception {
        String yaml = io.fencelab.scenarios.Catalog.shipped().source("paused-holder").text() + "hosts: {a: 1}\n";
        Path file = Files.writeString(dir.resolve("hosts.yaml"), yaml);

        Cli.Result r = run("run", file.toString());

        assertThat(r.exit()).as(r.out() + r.err()).isEqualTo(ExitCodes.BAD_INPUT);
        assertThat(r.err().strip().lines()).hasSize(1).first().asString().startsWith(file + ":")
                .contains("hosts: only a process run places workers on hosts; add executor: process");
        assertThat(r.err()).doesNotContain("Exception");
    }

    private static Cli.Result run(String... args) {
        return Cli.run(args);
    }
}
