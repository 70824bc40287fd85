package io.fencelab.app;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.fencelab.app.cli.ExitCodes;
import io.fencelab.engine.db.Database;
import io.fencelab.testing.EmbeddedDatabase;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/** {@code fencelab check} on logs a crash leaves behind: cut short, torn at the end, empty; from a real run's log. */
@ExtendWith(EmbeddedDatabase.class)
class CheckCutLogsTest {

    /** The lines of a real paused-holder run's events.jsonl, each without its '\n'. */
    private static List<String> lines;

    @TempDir
    Path dir;

    @BeforeAll
    static void recordARun(Database db, @TempDir Path run) throws IOException {
        Cli.Result r = Cli.run("run", "paused-holder", "--jdbc-url", db.jdbcUrl(), "--report", run.toString());
        assertThat(r.exit()).as(r.out() + r.err()).isEqualTo(ExitCodes.OK);
        lines = Files.readAllLines(run.resolve("events.jsonl"));
        assertThat(lines.getLast()).as("a whole run's log ends with RunEnded").contains("\"type\":\"RunEnded\"");
    }

    @Test
    void aLogCutShortWithoutRunEndedIsIncompleteWithItsOwnExitCode() throws IOException {
        Path cut = write("cut.jsonl", String.join("\n", lines.subList(0, 5)) + "\n");
        Path judgement = dir.resolve("judgement.json");

        Cli.Result r = Cli.run("check", cut.toString(), "--judgement", judgement.toString());

        assertThat(r.exit()).as("a cut log is not called SAFE with exit 0: " + r.out() + r.err())
                .isEqualTo(ExitCodes.LOG_INCOMPLETE);
        assertThat(r.out()).contains("5 events, verdict SAFE (incomplete: ends at seq 5, ")
                .contains("s, without RunEnded)");
        JsonNode json = new ObjectMapper().readTree(judgement.toFile());
        assertThat(json.path("complete").asBoolean(true)).as("judgement.json says so too").isFalse();
        assertThat(json.path("incomplete").path("lastSeq").asLong()).isEqualTo(5);
        assertThat(json.path("incomplete").path("summary").asText()).startsWith("ends at seq 5, ");
    }

    @Test
    void aTornLastLineIsDroppedWithAOneLineWarningAndTheRestJudged() throws IOException {
        String whole = String.join("\n", lines.subList(0, lines.size() - 1)) + "\n";
        String last = lines.getLast();
        Path torn = write("torn.jsonl", whole + last.substring(0, last.length() / 2));

        Cli.Result r = Cli.run("check", torn.toString());

        assertThat(r.err().strip()).as("one warning line naming the line dropped")
                .startsWith("fencelab: warning: " + torn + ", line " + lines.size()
                        + ": dropped: the last line was cut off mid-write (not valid JSON")
                .endsWith("; judged up to line " + (lines.size() - 1))
                .doesNotContain("\n", "Exception");
        assertThat(r.out()).contains((lines.size() - 1) + " events, verdict SAFE (incomplete: ends at seq "
                + (lines.size() - 1));
        assertThat(r.exit()).as("the torn line was RunEnded, so the rest is incomplete")
                .isEqualTo(ExitCodes.LOG_INCOMPLETE);
    }

    @Test
    void aWholeLogWhoseLastLineLacksOnlyItsNewlineIsCompleteAndSafe() throws IOException {
        Path log = write("no-newline.jsonl", String.join("\n", lines));

        Cli.Result r = Cli.run("check", log.toString());

        assertThat(r.exit()).as(r.out() + r.err()).isEqualTo(ExitCodes.OK);
        assertThat(r.err()).isEmpty();
        assertThat(r.out()).contains("verdict SAFE").doesNotContain("incomplete");
    }

    @Test
    void aBadLineBeforeTheEndIsStillAnErrorNamingFileAndLine() throws IOException {
        String broken = lines.get(2).substring(0, 20);
        Path log = write("bad.jsonl", String.join("\n", lines.subList(0, 2)) + "\n" + broken + "\n"
                + String.join("\n", lines.subList(3, lines.size())) + "\n");

        Cli.Result r = Cli.run("check", log.toString());

        assertThat(r.exit()).isEqualTo(ExitCodes.BAD_INPUT);
        assertThat(r.err()).startsWith("fencelab: " + log + ", line 3: not valid JSON").doesNotContain("Exception");
    }

    @Test
    void anEmptyFileIsBadInputInOneLine() throws IOException {
        Path empty = write("empty.jsonl", "");

        Cli.Result r = Cli.run("check", empty.toString());

        assertThat(r.exit()).isEqualTo(ExitCodes.BAD_INPUT);
        assertThat(r.err().strip()).isEqualTo("fencelab: " + empty + ": no events to judge (the file is empty); "
                + "an event log holds one event per line, beginning with RunStarted");
    }

    private Path write(String name, String text) throws IOException {
        Path file = dir.resolve(name);
        Files.writeString(file, text, StandardCharsets.UTF_8);
        return file;
    }
}
