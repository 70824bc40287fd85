package io.fencelab.app;

import static org.assertj.core.api.Assertions.assertThat;

import io.fencelab.app.cli.ExitCodes;
import io.fencelab.engine.db.Database;
import io.fencelab.testing.EmbeddedDatabase;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.junit.jupiter.api.io.TempDir;

/** Every error about a path says what was wrong with it, in one line, and exit code 2. */
@ExtendWith(EmbeddedDatabase.class)
class PathErrorWordingTest {

    @Test
    void aReportDirectoryThatIsAFileIsSaidToBeAFile(Database db, @TempDir Path dir) throws Exception {
        Path file = Files.createFile(dir.resolve("afile"));

        Cli.Result r = Cli.run("run", "paused-holder", "--jdbc-url", db.jdbcUrl(), "--report", file.toString());

        assertThat(r.exit()).isEqualTo(ExitCodes.BAD_INPUT);
        assertThat(r.err().lines()).singleElement().asString()
                .isEqualTo("fencelab: --report " + file + ": is a file, not a directory; give a directory "
                        + "(created if it does not exist)");
    }

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"tune paused-holder --vary lease.ttl=10s..20s:2", "handout paused-holder",
        "soak --schedules 1"})
    void anOutputDirectoryThatIsAFileIsSaidToBeAFile(String command, @TempDir Path dir) throws Exception {
        Path file = Files.createFile(dir.resolve("afile"));
        List<String> args = new ArrayList<>(List.of(command.split(" ")));
        args.addAll(List.of("--out", file.toString()));

        Cli.Result r = Cli.run(args.toArray(String[]::new));

        assertThat(r.exit()).isEqualTo(ExitCodes.BAD_INPUT);
        assertThat(r.err().lines()).singleElement().asString()
                .startsWith("fencelab: --out " + file + ": is a file, not a directory");
    }

    @Test
    void aSweepPlanThatCannotBeReadIsNamedWithWhatIsWrong(@TempDir Path dir) throws Exception {
        Path out = dir.resolve("sweep");
        Files.createDirectories(out.resolve("plan.json"));

        Cli.Result r = Cli.run("tune", "paused-holder", "--vary", "lease.ttl=10s..20s:2", "--out", out.toString());

        assertThat(r.exit()).isEqualTo(ExitCodes.BAD_INPUT);
        assertThat(r.err().lines()).as("not the bare path").singleElement().asString()
                .isEqualTo("fencelab: " + out.resolve("plan.json") + ": is a directory");
    }

    @Test
    void checkOnADirectorySaysItIsADirectoryAndWhichFileItExpected(@TempDir Path dir) {
        Cli.Result r = Cli.run("check", dir.toString());

        assertThat(r.exit()).isEqualTo(ExitCodes.BAD_INPUT);
        assertThat(r.err().lines()).singleElement().asString()
                .isEqualTo("fencelab: " + dir + ": is a directory; give the event log file, such as "
                        + dir.resolve("events.jsonl"));
    }

    @Test
    void checkOnAMissingFileSaysThereIsNoSuchFile(@TempDir Path dir) {
        Path missing = dir.resolve("events.jsonl");

        Cli.Result r = Cli.run("check", missing.toString());

        assertThat(r.exit()).isEqualTo(ExitCodes.BAD_INPUT);
        assertThat(r.err().lines()).singleElement().asString().isEqualTo("fencelab: " + missing + ": no such file");
    }

    @Test
    void aCorruptSummaryBesideTheLogIsNamedWithItsLine(Database db, @TempDir Path dir) throws Exception {
        Cli.run("run", "paused-holder", "--jdbc-url", db.jdbcUrl(), "--report", dir.toString());
        Files.writeString(dir.resolve("summary.json"), "{\n  \"verdict\": SAFE\n}\n");

        Cli.Result r = Cli.run("check", dir.resolve("events.jsonl").toString());

        assertThat(r.exit()).isEqualTo(ExitCodes.BAD_INPUT);
        assertThat(r.err().lines()).as("the file and the line, not a raw Jackson error").singleElement().asString()
                .startsWith("fencelab: " + dir.resolve("summary.json") + ": not valid JSON: line 2, column ")
                .doesNotContain("com.fasterxml", "Exception");
    }

    @Test
    void aMissingWorkshopFileIsSaidToBeMissingNotNamedTwice(@TempDir Path dir) {
        Path missing = dir.resolve("workshop.yaml");

        Cli.Result r = Cli.run("--workshop", missing.toString());

        assertThat(r.exit()).isEqualTo(ExitCodes.BAD_INPUT);
        assertThat(r.err().lines()).singleElement().asString().isEqualTo(missing + ": no such file");
    }

    @Test
    void aWorkshopThatIsADirectoryIsSaidToBeOne(@TempDir Path dir) {
        Cli.Result r = Cli.run("--workshop", dir.toString());

        assertThat(r.exit()).isEqualTo(ExitCodes.BAD_INPUT);
        assertThat(r.err().lines()).singleElement().asString().isEqualTo(dir + ": is a directory, not a file");
    }

    @Test
    void enumOptionsAcceptAnyCaseAsScenarioFilesDo(Database db) {
        Cli.Result r = Cli.run("run", "paused-holder", "--fencing", "unfenced", "--token-scheme", "monotonic",
                "--jdbc-url", db.jdbcUrl());

        assertThat(r.exit()).as(r.out() + r.err()).isEqualTo(ExitCodes.UNEXPECTED_VERDICT);
        assertThat(r.out()).contains("fencing UNFENCED").contains("verdict: VIOLATED");
    }
}
