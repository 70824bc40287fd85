package io.fencelab.app;

import static org.assertj.core.api.Assertions.assertThat;

import io.fencelab.app.cli.ExitCodes;
import io.fencelab.engine.db.Database;
import io.fencelab.testing.EmbeddedDatabase;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.function.UnaryOperator;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code fencelab check} judges what is in front of it: a real unfenced paused-holder run's log, with
 * the edits an adversarial pass made (a field taken out, a token or a replaced token changed, a
 * second RunStarted), and a judgement file that is the log itself.
 */
@ExtendWith(EmbeddedDatabase.class)
class CheckEditedLogsTest {

    /** The lines of the run's events.jsonl, each without its '\n'. */
    private static List<String> lines;

    @TempDir
    Path dir;

    @BeforeAll
    static void recordARun(Database db, @TempDir Path run) throws IOException {
        Cli.Result r = Cli.run("run", "paused-holder-unfenced", "--jdbc-url", db.jdbcUrl(), "--report", run.toString());
        assertThat(r.exit()).as(r.out() + r.err()).isEqualTo(ExitCodes.OK);
        lines = Files.readAllLines(run.resolve("events.jsonl"));
    }

    @Test
    void aWriteAcceptedWithoutItsKeyIsBadInputInOneLineNotACrash() throws IOException {
        int line = lineOf("\"type\":\"WriteAccepted\"", "\"holder\":\"B\"");
        Path log = edited("no-key.jsonl", line, l -> l.replace(",\"key\":\"report-1\"", ""));

        Cli.Result r = Cli.run("check", log.toString());

        assertThat(r.exit()).as("bad input, not the VIOLATED code: " + r.out() + r.err()).isEqualTo(ExitCodes.BAD_INPUT);
        assertThat(r.err().strip()).as("one line naming file, line, type and field")
                .startsWith("fencelab: " + log + ", line " + line + ": WriteAccepted needs field \"key\" (a string)")
                .doesNotContain("\n", "Exception");
    }

    @Test
    void aStaleWriteEditedToClaimItReplacedAnOlderTokenIsNotSafe() throws IOException {
        int line = lineOf("\"type\":\"WriteAccepted\"", "\"holder\":\"A\"");
        assertThat(lines.get(line - 1)).as("the database's word: A's 41 replaced B's 42").contains("\"replacedToken\":\"42\"");
        Path log = edited("replaced-40.jsonl", line, l -> l.replace("\"replacedToken\":\"42\"", "\"replacedToken\":\"40\""));

        Cli.Result r = Cli.run("check", log.toString());

        assertThat(r.exit()).as(r.out() + r.err()).isEqualTo(ExitCodes.UNEXPECTED_VERDICT);
        assertThat(r.out()).contains("verdict VIOLATED").contains("CONTRADICTORY_REPLACED_TOKEN: A's write with token 41");
    }

    @Test
    void aWritePresentingATokenNoGrantIssuedIsNotSafe() throws IOException {
        UnaryOperator<String> to43 = l -> l.replace("\"token\":\"41\"", "\"token\":\"43\"");
        Path log = edited("token-43.jsonl", lineOf("\"type\":\"WriteAttempted\"", "\"holder\":\"A\""), to43);
        List<String> twice = new ArrayList<>(Files.readAllLines(log));
        int accepted = lineOf("\"type\":\"WriteAccepted\"", "\"holder\":\"A\"");
        twice.set(accepted - 1, to43.apply(twice.get(accepted - 1)));
        Files.write(log, twice, StandardCharsets.UTF_8);

        Cli.Result r = Cli.run("check", log.toString());

        assertThat(r.exit()).as(r.out() + r.err()).isEqualTo(ExitCodes.UNEXPECTED_VERDICT);
        assertThat(r.out()).contains("verdict VIOLATED").contains("UNISSUED_TOKEN: A presented token 43");
    }

    @Test
    void aDoubledRunStartedIsBadInput() throws IOException {
        List<String> doubled = new ArrayList<>(lines);
        doubled.add(1, lines.getFirst().replace("\"seq\":1,", "\"seq\":2,"));
        Path log = write("doubled.jsonl", doubled);

        Cli.Result r = Cli.run("check", log.toString());

        assertThat(r.exit()).as(r.out() + r.err()).isEqualTo(ExitCodes.BAD_INPUT);
        assertThat(r.err().strip()).isEqualTo("fencelab: " + log + ", line 2: a second RunStarted (the first is on "
                + "line 1); a log holds one run");
    }

    @Test
    void theJudgementIsNeverWrittenOverTheLogItJudges() throws IOException {
        Path log = write("events.jsonl", lines);
        byte[] before = Files.readAllBytes(log);
        Path link = Files.createSymbolicLink(dir.resolve("link.jsonl"), log);
        Path relative = Path.of("").toAbsolutePath().relativize(log);

        for (String same : List.of(log.toString(), link.toString(), relative.toString(),
                dir.resolve(".").resolve("events.jsonl").toString())) {
            Cli.Result r = Cli.run("check", log.toString(), "--judgement", same);

            assertThat(r.exit()).as("--judgement %s: %s%s", same, r.out(), r.err()).isEqualTo(ExitCodes.BAD_INPUT);
            assertThat(r.err().strip()).as("one line saying why").startsWith("fencelab: --judgement " + same
                    + ": is the event log being checked").doesNotContain("\n");
            assertThat(Files.readAllBytes(log)).as("the log is untouched after --judgement %s", same).isEqualTo(before);
        }
    }

    @Test
    void aJudgementFileBesideTheLogIsStillWritten() throws IOException {
        Path log = write("events.jsonl", lines);
        Path judgement = dir.resolve("judgement.json");

        Cli.Result r = Cli.run("check", log.toString(), "--judgement", judgement.toString());

        assertThat(r.exit()).as(r.out() + r.err()).isEqualTo(ExitCodes.UNEXPECTED_VERDICT);
        assertThat(judgement).content().contains("\"verdict\" : \"VIOLATED\"");
    }

    /** The 1-based number of the first line holding every one of {@code parts}. */
    private static int lineOf(String... parts) {
        for (int i = 0; i < lines.size(); i++) {
            String line = lines.get(i);
            if (List.of(parts).stream().allMatch(line::contains)) {
                return i + 1;
            }
        }
        throw new AssertionError("no line with " + List.of(parts));
    }

    private Path edited(String name, int line, UnaryOperator<String> edit) throws IOException {
        List<String> copy = new ArrayList<>(lines);
        String before = copy.get(line - 1);
        copy.set(line - 1, edit.apply(before));
        assertThat(copy.get(line - 1)).as("the edit changed line %d", line).isNotEqualTo(before);
        return write(name, copy);
    }

    private Path write(String name, List<String> content) throws IOException {
        Path file = dir.resolve(name);
        Files.write(file, content, StandardCharsets.UTF_8);
        return file;
    }
}
