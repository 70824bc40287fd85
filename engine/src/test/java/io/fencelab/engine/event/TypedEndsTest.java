package io.fencelab.engine.event;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.fencelab.engine.event.Event.BeliefEnded;
import io.fencelab.engine.event.Event.BeliefEnded.Cause;
import io.fencelab.engine.event.Event.RunEnded;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * How a run and a belief end are typed facts on the events ({@code RunEnded.end} and {@code cause},
 * {@code BeliefEnded.cause}), written by name, and logs written before them are still read.
 */
class TypedEndsTest {

    private static final String START = "{\"type\":\"RunStarted\",\"seq\":1,\"atMicros\":0,\"scenario\":\"s\","
            + "\"executor\":\"simulated\",\"fencing\":\"FENCED\",\"tokenScheme\":\"MONOTONIC\",\"seed\":\"7\","
            + "\"database\":\"embedded\"}";

    @TempDir
    Path dir;

    @Test
    void aFailedRunEndIsWrittenWithItsEndItsCauseAndItsWords() throws IOException {
        Path file = dir.resolve("events.jsonl");
        try (EventLog log = EventLog.create(file)) {
            log.append(List.of(new RunEnded(1, 5, RunEnded.Reason.failed("permission denied for table lease"))));
        }

        assertThat(Files.readString(file, StandardCharsets.UTF_8)).as("typed fields by name, the words for people")
                .isEqualTo("{\"type\":\"RunEnded\",\"seq\":1,\"atMicros\":5,\"end\":\"FAILED\","
                        + "\"cause\":\"permission denied for table lease\","
                        + "\"reason\":\"failed: permission denied for table lease\"}\n");
    }

    @Test
    void aCompletedRunEndHasNoCauseInItsLine() throws IOException {
        Path file = dir.resolve("events.jsonl");
        try (EventLog log = EventLog.create(file)) {
            log.append(List.of(new RunEnded(1, 5, RunEnded.Reason.COMPLETED)));
        }

        assertThat(Files.readString(file, StandardCharsets.UTF_8)).as("no cause, not even null")
                .isEqualTo("{\"type\":\"RunEnded\",\"seq\":1,\"atMicros\":5,\"end\":\"COMPLETED\",\"reason\":\"completed\"}\n");
    }

    @Test
    void aBeliefEndIsWrittenWithItsCauseByName() throws IOException {
        Path file = dir.resolve("events.jsonl");
        try (EventLog log = EventLog.create(file)) {
            log.append(List.of(new BeliefEnded(1, 5, "A", "s", 41, Cause.RENEW_DEADLINE,
                    "renew deadline: no renewal succeeded for 10s")));
        }

        assertThat(Files.readString(file, StandardCharsets.UTF_8)).as("the cause by its enum name, before the words")
                .contains(",\"token\":\"41\",\"cause\":\"RENEW_DEADLINE\",\"reason\":\"renew deadline: ");
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
            "completed                                 | COMPLETED |",
            "stopped                                   | STOPPED   |",
            "failed: permission denied for table lease | FAILED    | permission denied for table lease",
            "database unreachable                      | FAILED    | database unreachable",
    })
    void aRunEndWrittenBeforeTheTypedEndIsReadFromItsWords(String words, RunEnded.End end, String cause)
            throws IOException {
        Path file = log(START, "{\"type\":\"RunEnded\",\"seq\":2,\"atMicros\":5,\"reason\":\"" + words + "\"}");

        RunEnded read = (RunEnded) EventLogReader.readLog(file).events().getLast();

        assertThat(read.ending()).as("the end an old log's words \"%s\" give", words)
                .isEqualTo(new RunEnded.Reason(end, cause));
        assertThat(read.reason()).as("the words themselves are kept").isEqualTo(words);
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
            "crashed                                                  | CRASHED",
            "released                                                 | RELEASED",
            "release refused: the lease was no longer held            | RELEASE_REFUSED",
            "release failed                                           | RELEASE_FAILED",
            "renewal failed                                           | RENEWAL_REFUSED",
            "renew deadline: no renewal succeeded for 10s             | RENEW_DEADLINE",
            "stale: token 41 is older than 42                         | STALE_ANSWER",
            "stale: token 41 is older than 42 (after 3 blind retries) | STALE_ANSWER",
            "its own clock says the lease expired                     | OWN_CLOCK",
    })
    void aBeliefEndWrittenBeforeTheCauseIsReadFromTheWorkersWords(String words, Cause cause) throws IOException {
        Path file = log(START, "{\"type\":\"BeliefEnded\",\"seq\":2,\"atMicros\":5,\"holder\":\"A\",\"scope\":\"s\","
                + "\"token\":\"41\",\"reason\":\"" + words + "\"}");

        BeliefEnded read = (BeliefEnded) EventLogReader.readLog(file).events().getLast();

        assertThat(read.cause()).as("the cause an old log's words \"%s\" give", words).isEqualTo(cause);
    }

    @Test
    void anOldBeliefEndWithWordsNoFencelabWroteHasNoCause() throws IOException {
        Path file = log(START, "{\"type\":\"BeliefEnded\",\"seq\":2,\"atMicros\":5,\"holder\":\"A\",\"scope\":\"s\","
                + "\"token\":\"41\",\"reason\":\"the operator said so\"}");

        BeliefEnded read = (BeliefEnded) EventLogReader.readLog(file).events().getLast();

        assertThat(read.cause()).as("unknown, rather than guessed").isNull();
    }

    @Test
    void theCauseOnTheLineWinsOverTheWords() throws IOException {
        Path file = log(START, "{\"type\":\"BeliefEnded\",\"seq\":2,\"atMicros\":5,\"holder\":\"A\",\"scope\":\"s\","
                + "\"token\":\"41\",\"cause\":\"RELEASED\",\"reason\":\"stale: in words only\"}");

        BeliefEnded read = (BeliefEnded) EventLogReader.readLog(file).events().getLast();

        assertThat(read.cause()).as("the words are for people; the typed field is the fact").isEqualTo(Cause.RELEASED);
    }

    @Test
    void aFailedEndWithoutItsCauseIsALocatedError() throws IOException {
        Path file = log(START, "{\"type\":\"RunEnded\",\"seq\":2,\"atMicros\":5,\"end\":\"FAILED\",\"reason\":\"failed\"}");

        assertThatThrownBy(() -> EventLogReader.readLog(file)).as("a failure must say why")
                .isInstanceOf(EventLogFormatException.class)
                .hasMessage(file + ", line 2: RunEnded: a FAILED end needs a \"cause\"");
    }

    @Test
    void aCauseOnARunThatDidNotFailIsALocatedError() throws IOException {
        Path file = log(START, "{\"type\":\"RunEnded\",\"seq\":2,\"atMicros\":5,\"end\":\"COMPLETED\",\"cause\":\"x\","
                + "\"reason\":\"completed\"}");

        assertThatThrownBy(() -> EventLogReader.readLog(file)).as("only a failure has a cause")
                .isInstanceOf(EventLogFormatException.class)
                .hasMessage(file + ", line 2: RunEnded: only a FAILED end has a \"cause\", not COMPLETED");
    }

    @Test
    void anUnknownEndNamesTheAllowedOnes() throws IOException {
        Path file = log(START, "{\"type\":\"RunEnded\",\"seq\":2,\"atMicros\":5,\"end\":\"crashed\",\"reason\":\"x\"}");

        assertThatThrownBy(() -> EventLogReader.readLog(file)).as("ends are a closed set")
                .isInstanceOf(EventLogFormatException.class)
                .hasMessageContaining("line 2: RunEnded field \"end\" must be one of \"COMPLETED\", \"STOPPED\", \"FAILED\"");
    }

    @Test
    void theOneWordingOfEachEnd() {
        assertThat(List.of(RunEnded.Reason.COMPLETED.words(), RunEnded.Reason.STOPPED.words(),
                RunEnded.Reason.failed("database unreachable").words())).as("what logs, reports and the CLI print")
                .containsExactly("completed", "stopped", "failed: database unreachable");
    }

    private Path log(String... lines) throws IOException {
        Path file = dir.resolve("old.jsonl");
        Files.writeString(file, String.join("\n", lines) + "\n", StandardCharsets.UTF_8);
        return file;
    }
}
