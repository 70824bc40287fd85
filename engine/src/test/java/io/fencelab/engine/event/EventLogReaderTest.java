package io.fencelab.engine.event;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class EventLogReaderTest {

    private static final String GOOD_1 = "{\"type\":\"RunStarted\",\"seq\":1,\"atMicros\":0,\"scenario\":\"s\","
            + "\"executor\":\"simulated\",\"fencing\":\"FENCED\",\"tokenScheme\":\"MONOTONIC\",\"seed\":\"7\","
            + "\"database\":\"embedded\"}";
    private static final String GOOD_2 = "{\"type\":\"BeliefStarted\",\"seq\":2,\"atMicros\":5,\"holder\":\"A\","
            + "\"scope\":\"report\",\"token\":\"41\"}";

    @TempDir
    Path dir;

    @Test
    void malformedLineIsReportedWithFileAndLineNumber() throws IOException {
        Path file = log(GOOD_1, GOOD_2, "{\"type\":\"RunEnded\",\"seq\":3,");

        assertThatThrownBy(() -> EventLogReader.read(file))
                .isInstanceOf(EventLogFormatException.class)
                .hasMessageStartingWith(file + ", line 3: not valid JSON: ")
                .satisfies(e -> {
                    EventLogFormatException f = (EventLogFormatException) e;
                    assertThat(f.file()).isEqualTo(file);
                    assertThat(f.line()).isEqualTo(3);
                    assertThat(f.getMessage()).as("no Jackson internals in the message")
                            .doesNotContain("\n", "com.fasterxml", "io.fencelab", "Source:");
                });
    }

    @Test
    void anOlderLogWithTheCheckersViolationLinesStillLoadsWithoutThem() throws IOException {
        Path file = log(GOOD_1, io.fencelab.testing.LogBuilder.legacyViolationLine(2, 0.5, "STALE_OVERWRITE", List.of(1L)),
                GOOD_2.replace("\"seq\":2", "\"seq\":3"));

        assertThat(EventLogReader.read(file)).as("the conclusion is read past; the events stay")
                .extracting(Event::seq).containsExactly(1L, 3L);
    }

    @Test
    void unknownTypeNamesTheAllowedTypes() throws IOException {
        Path file = log(GOOD_1, "{\"type\":\"LeaseStolen\",\"seq\":2,\"atMicros\":5}");

        assertThatThrownBy(() -> EventLogReader.read(file))
                .isInstanceOf(EventLogFormatException.class)
                .hasMessageContaining("line 2: unknown type \"LeaseStolen\"; allowed types: RunStarted, RunEnded, "
                        + "LeaseAcquired")
                .hasMessageContaining("OperationFailed");
    }

    @Test
    void missingTypeNamesTheAllowedTypes() throws IOException {
        Path file = log("{\"seq\":1,\"atMicros\":0}");
        assertThatThrownBy(() -> EventLogReader.read(file))
                .hasMessageContaining("line 1: no \"type\" field; allowed types: RunStarted");
    }

    @Test
    void missingNumberIsAnErrorNotAZero() throws IOException {
        Path file = log(GOOD_1, "{\"type\":\"BeliefStarted\",\"seq\":2,\"atMicros\":5,\"holder\":\"A\",\"scope\":\"r\"}");
        assertThatThrownBy(() -> EventLogReader.read(file))
                .hasMessageContaining("line 2: BeliefStarted needs field \"token\" (a whole number from");
    }

    @Test
    void tokenThatIsNotAWholeNumberIsNamed() throws IOException {
        Path file = log(GOOD_2.replace("\"41\"", "\"4.1e1\""));
        assertThatThrownBy(() -> EventLogReader.read(file))
                .hasMessageContaining("line 1: BeliefStarted field \"token\" must be a whole number from "
                        + "-9223372036854775808 to 9223372036854775807, as a decimal string or number, "
                        + "found the string \"4.1e1\"");
    }

    @Test
    void tokenBeyondTheLongRangeIsRejected() throws IOException {
        Path file = log(GOOD_2.replace("\"41\"", "9223372036854775808"));
        assertThatThrownBy(() -> EventLogReader.read(file))
                .hasMessageContaining("field \"token\" must be a whole number")
                .hasMessageContaining("found the number 9223372036854775808");
    }

    @Test
    void tokenWrittenAsAPlainNumberIsAccepted() throws IOException {
        Path file = log(GOOD_2.replace("\"41\"", "41"));
        assertThat(EventLogReader.read(file)).containsExactly(new Event.BeliefStarted(2, 5, "A", "report", 41));
    }

    @Test
    void unknownFieldIsNamedWithTheAllowedOnes() throws IOException {
        Path file = log(GOOD_2.replace("\"token\"", "\"tokn\""));
        assertThatThrownBy(() -> EventLogReader.read(file))
                .hasMessageContaining("line 1: unknown field \"tokn\" for BeliefStarted; its fields are seq, atMicros, "
                        + "holder, scope, token");
    }

    @Test
    void wrongEnumValueListsTheChoices() throws IOException {
        Path file = log("{\"type\":\"WriteMissing\",\"seq\":1,\"atMicros\":0,\"holder\":\"A\",\"scope\":\"r\","
                + "\"token\":\"1\",\"target\":\"TABLE\",\"key\":\"k\"}");
        assertThatThrownBy(() -> EventLogReader.read(file))
                .hasMessageContaining("WriteMissing field \"target\" must be one of \"ROW\", \"OBJECT\", "
                        + "\"POINTER\", \"SQL\", found the string \"TABLE\"");
    }

    @Test
    void textWhereTextBelongsOnly() throws IOException {
        Path file = log(GOOD_2.replace("\"A\"", "5"));
        assertThatThrownBy(() -> EventLogReader.read(file))
                .hasMessageContaining("BeliefStarted field \"holder\" must be a string, found the number 5");
    }

    @Test
    void repeatedFieldIsAnError() throws IOException {
        Path file = log(GOOD_2.replace("\"seq\":2,", "\"seq\":2,\"seq\":3,"));
        assertThatThrownBy(() -> EventLogReader.read(file))
                .hasMessageContaining("line 1: not valid JSON: Duplicate field 'seq'");
    }

    @Test
    void emptyLineAndNonObjectAreErrors() throws IOException {
        assertThatThrownBy(() -> EventLogReader.read(log(GOOD_1, "", GOOD_2)))
                .hasMessageContaining("line 2: empty line");
        assertThatThrownBy(() -> EventLogReader.read(log("[1,2]")))
                .hasMessageContaining("line 1: expected a JSON object {…}, found an array [1,2]");
        assertThatThrownBy(() -> EventLogReader.read(log(GOOD_1 + " {}")))
                .hasMessageContaining("line 1: not valid JSON: more than one value on the line");
    }

    @Test
    void invalidUtf8IsReportedOnItsOwnLine() throws IOException {
        Path file = dir.resolve("bad-utf8.jsonl");
        byte[] good = (GOOD_1 + "\n" + GOOD_2 + "\n").getBytes(StandardCharsets.UTF_8);
        byte[] bad = "{\"type\":\"RunEnded\",\"seq\":3,\"atMicros\":9,\"reason\":\"x\u00ff\"}\n"
                .getBytes(StandardCharsets.ISO_8859_1);
        byte[] all = new byte[good.length + bad.length];
        System.arraycopy(good, 0, all, 0, good.length);
        System.arraycopy(bad, 0, all, good.length, bad.length);
        Files.write(file, all);

        assertThatThrownBy(() -> EventLogReader.read(file)).hasMessage(file + ", line 3: not valid UTF-8 text");
    }

    @Test
    void crlfLineEndsAndAMissingFinalNewlineAreRead() throws IOException {
        Path file = dir.resolve("crlf.jsonl");
        Files.writeString(file, GOOD_1 + "\r\n" + GOOD_2, StandardCharsets.UTF_8);
        assertThat(EventLogReader.read(file)).hasSize(2);
    }

    @Test
    void aLastLineCutOffMidWriteIsDroppedAndNamed() throws IOException {
        Path file = dir.resolve("torn.jsonl");
        Files.writeString(file, GOOD_1 + "\n" + GOOD_2.substring(0, 30), StandardCharsets.UTF_8);

        EventLogReader.Contents read = EventLogReader.readLog(file);

        assertThat(read.events()).as("judged up to the last whole line").extracting(Event::seq).containsExactly(1L);
        assertThat(read.tornTail()).as("the dropped line is named").hasValueSatisfying(torn -> {
            assertThat(torn.line()).isEqualTo(2);
            assertThat(torn.warning()).startsWith(file + ", line 2: dropped: the last line was cut off mid-write (not valid JSON")
                    .endsWith("; judged up to line 1").doesNotContain("\n");
        });
    }

    @Test
    void aLastLineCutInsideAMultiByteCharacterIsATornTailToo() throws IOException {
        Path file = dir.resolve("torn-utf8.jsonl");
        byte[] good = (GOOD_1 + "\n").getBytes(StandardCharsets.UTF_8);
        byte[] cut = "{\"type\":\"RunEnded\",\"reason\":\"\u00e9".getBytes(StandardCharsets.UTF_8);
        byte[] all = new byte[good.length + cut.length - 1]; // the second byte of 'é' never reached the disk
        System.arraycopy(good, 0, all, 0, good.length);
        System.arraycopy(cut, 0, all, good.length, cut.length - 1);
        Files.write(file, all);

        assertThat(EventLogReader.readLog(file).tornTail()).hasValueSatisfying(torn ->
                assertThat(torn.problem()).isEqualTo("not valid UTF-8 text"));
    }

    @Test
    void aBadLastLineThatEndsWithItsNewlineIsStillAnError() throws IOException {
        Path file = log(GOOD_1, GOOD_2.substring(0, 30));

        assertThatThrownBy(() -> EventLogReader.readLog(file)).isInstanceOf(EventLogFormatException.class)
                .hasMessageContaining("line 2: not valid JSON");
    }

    @Test
    void aBadLineBeforeTheLastIsAnErrorEvenWhenTheLogEndsTorn() throws IOException {
        Path file = dir.resolve("bad-middle.jsonl");
        Files.writeString(file, GOOD_1 + "\nnonsense\n" + GOOD_2.substring(0, 30), StandardCharsets.UTF_8);

        assertThatThrownBy(() -> EventLogReader.readLog(file)).isInstanceOf(EventLogFormatException.class)
                .hasMessageStartingWith(file + ", line 2: not valid JSON");
    }

    @Test
    void aWholeLastLineWithoutItsNewlineIsKeptWithNoWarning() throws IOException {
        Path file = dir.resolve("no-final-newline.jsonl");
        Files.writeString(file, GOOD_1 + "\n" + GOOD_2, StandardCharsets.UTF_8);

        EventLogReader.Contents read = EventLogReader.readLog(file);

        assertThat(read.events()).hasSize(2);
        assertThat(read.tornTail()).isEmpty();
    }

    @Test
    void streamStopsAtTheBadLineAfterGivingTheGoodOnes() throws IOException {
        Path file = log(GOOD_1, GOOD_2, "nonsense");
        try (EventLogReader reader = EventLogReader.open(file); Stream<Event> events = reader.stream()) {
            var it = events.iterator();
            assertThat(it.next().seq()).isEqualTo(1);
            assertThat(it.next().seq()).isEqualTo(2);
            assertThatThrownBy(it::hasNext).isInstanceOf(EventLogFormatException.class)
                    .hasMessageContaining("line 3: not valid JSON");
        }
    }

    @Test
    void longLinesAcrossTheReadBufferAreRead() throws IOException {
        String reason = "r".repeat(200_000);
        Event big = new Event.RunEnded(1, 0, Event.RunEnded.Reason.failed(reason));
        Path file = dir.resolve("big.jsonl");
        try (EventLog log = EventLog.create(file)) {
            log.append(List.of(big, big));
        }
        assertThat(EventLogReader.read(file)).containsExactly(big, big);
    }

    private static final String WRITE_ACCEPTED = "{\"type\":\"WriteAccepted\",\"seq\":2,\"atMicros\":5,"
            + "\"holder\":\"A\",\"scope\":\"report\",\"token\":\"41\",\"target\":\"ROW\",\"key\":\"report-1\","
            + "\"valueDigest\":\"sha256:5d41\"}";
    private static final String WRITE_REJECTED = "{\"type\":\"WriteRejectedStale\",\"seq\":2,\"atMicros\":5,"
            + "\"holder\":\"A\",\"scope\":\"report\",\"token\":\"41\",\"target\":\"ROW\",\"key\":\"report-1\","
            + "\"highest\":\"42\"}";
    private static final String RUN_ENDED = "{\"type\":\"RunEnded\",\"seq\":3,\"atMicros\":9,\"reason\":\"completed\"}";

    @ParameterizedTest
    @ValueSource(strings = {"key", "scope", "target"})
    void aWriteAcceptedWithoutAFieldItNeedsIsOneLocatedError(String field) throws IOException {
        Path file = log(GOOD_1, without(WRITE_ACCEPTED, field), RUN_ENDED);

        assertThatThrownBy(() -> EventLogReader.read(file))
                .as("a missing %s is bad input named by file and line, not a crash later in the checker", field)
                .isInstanceOf(EventLogFormatException.class)
                .hasMessageStartingWith(file + ", line 2: WriteAccepted needs field \"" + field + "\" (")
                .hasMessageNotContaining("\n");
    }

    @ParameterizedTest
    @ValueSource(strings = {"key", "scope", "target"})
    void aWriteRejectedStaleWithoutAFieldItNeedsIsRefusedToo(String field) throws IOException {
        Path file = log(GOOD_1, without(WRITE_REJECTED, field), RUN_ENDED);

        assertThatThrownBy(() -> EventLogReader.read(file))
                .as("a refused write without its %s no longer passes silently", field)
                .isInstanceOf(EventLogFormatException.class)
                .hasMessageStartingWith(file + ", line 2: WriteRejectedStale needs field \"" + field + "\" (");
    }

    @Test
    void everyFieldOfEveryEventTypeIsRequiredUnlessMarkedAsMayBeAbsent() throws IOException {
        List<String> unnoticed = new java.util.ArrayList<>();
        for (Event sample : EventSamples.oneOfEach().values()) {
            for (var component : sample.getClass().getRecordComponents()) {
                if (component.isAnnotationPresent(MayBeAbsent.class)) {
                    continue;
                }
                String line = without(EventJson.writer().writeValueAsString(sample), component.getName());
                Path file = sample instanceof Event.RunStarted ? log(line)
                        : log(EventJson.writer().writeValueAsString(EventSamples.story().getFirst()), line);
                String expected = "line " + (sample instanceof Event.RunStarted ? 1 : 2) + ": "
                        + sample.getClass().getSimpleName() + " needs field \"" + component.getName() + "\"";
                try {
                    EventLogReader.read(file);
                    unnoticed.add(sample.getClass().getSimpleName() + "." + component.getName() + ": read without it");
                } catch (EventLogFormatException e) {
                    if (!e.getMessage().contains(expected)) {
                        unnoticed.add(sample.getClass().getSimpleName() + "." + component.getName() + ": " + e.getMessage());
                    }
                }
            }
        }
        assertThat(unnoticed).as("every required field, missing, is named as missing on its line").isEmpty();
    }

    @Test
    void aFieldMarkedAsMayBeAbsentCanBeLeftOut() throws IOException {
        Path file = log(GOOD_1, WRITE_ACCEPTED, RUN_ENDED);

        assertThat(EventLogReader.read(file)).as("replacedToken is absent from logs written before it existed")
                .element(1).isEqualTo(new Event.WriteAccepted(2, 5, "A", "report", 41,
                        io.fencelab.engine.resource.TargetKind.ROW, "report-1", "sha256:5d41"));
    }

    @Test
    void aSecondRunStartedIsMalformed() throws IOException {
        Path file = log(GOOD_1, GOOD_2, GOOD_1.replace("\"seq\":1", "\"seq\":3"));

        assertThatThrownBy(() -> EventLogReader.readLog(file)).as("one log holds one run")
                .isInstanceOf(EventLogFormatException.class)
                .hasMessage(file + ", line 3: a second RunStarted (the first is on line 1); a log holds one run");
    }

    @Test
    void anEventBeforeRunStartedIsMalformed() throws IOException {
        Path file = log(GOOD_2, GOOD_1.replace("\"seq\":1", "\"seq\":3"));

        assertThatThrownBy(() -> EventLogReader.readLog(file))
                .isInstanceOf(EventLogFormatException.class)
                .hasMessage(file + ", line 1: BeliefStarted before RunStarted; a log begins with RunStarted");
    }

    @Test
    void anEventAfterRunEndedIsMalformed() throws IOException {
        Path file = log(GOOD_1, RUN_ENDED.replace("\"seq\":3", "\"seq\":2"), GOOD_2.replace("\"seq\":2", "\"seq\":3"));

        assertThatThrownBy(() -> EventLogReader.readLog(file))
                .isInstanceOf(EventLogFormatException.class)
                .hasMessage(file + ", line 3: BeliefStarted after RunEnded (line 2); RunEnded is the last event of a log");
    }

    @Test
    void eventsOutOfSeqOrderAreMalformed() throws IOException {
        Path file = log(GOOD_1, GOOD_2.replace("\"seq\":2", "\"seq\":3"), GOOD_2);

        assertThatThrownBy(() -> EventLogReader.readLog(file)).as("two lines swapped")
                .isInstanceOf(EventLogFormatException.class)
                .hasMessage(file + ", line 3: seq 2 is not after the previous event's seq 3; events are logged in "
                        + "seq order");
    }

    @Test
    void aLastLineOutOfPlaceIsAnErrorNotATornTail() throws IOException {
        Path file = dir.resolve("doubled-start.jsonl");
        Files.writeString(file, GOOD_1 + "\n" + GOOD_1.replace("\"seq\":1", "\"seq\":2"), StandardCharsets.UTF_8);

        assertThatThrownBy(() -> EventLogReader.readLog(file)).as("a whole event cannot have been cut off mid-write")
                .isInstanceOf(EventLogFormatException.class)
                .hasMessageContaining("line 2: a second RunStarted");
    }

    /** {@code line} without its field {@code name}. */
    private static String without(String line, String name) throws IOException {
        var node = (com.fasterxml.jackson.databind.node.ObjectNode) EventJson.mapper().readTree(line);
        node.remove(name);
        return EventJson.mapper().writeValueAsString(node);
    }

    private Path log(String... lines) throws IOException {
        Path file = Files.createTempFile(dir, "events", ".jsonl");
        Files.writeString(file, String.join("\n", lines) + "\n", StandardCharsets.UTF_8);
        return file;
    }
}
