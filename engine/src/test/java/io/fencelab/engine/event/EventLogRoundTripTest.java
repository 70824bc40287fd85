package io.fencelab.engine.event;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.annotation.JsonFormat;
import com.fasterxml.jackson.databind.JsonNode;
import io.fencelab.engine.event.Event.LeaseAcquired;
import io.fencelab.engine.event.Event.LeaseBusy;
import io.fencelab.engine.event.Event.RunStarted;
import io.fencelab.engine.event.Event.WriteRejectedStale;
import io.fencelab.engine.resource.TargetKind;
import java.io.IOException;
import java.lang.reflect.RecordComponent;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;
import org.junit.jupiter.api.io.TempDir;

class EventLogRoundTripTest {

    @TempDir
    Path dir;

    private static final Map<Class<?>, Event> SAMPLES = EventSamples.oneOfEach();

    @Test
    void everyEventTypeHasASample() {
        assertThat(SAMPLES.keySet())
                .as("EventSamples.oneOfEach() must hold one event of every permitted Event type")
                .containsExactlyInAnyOrder(Event.class.getPermittedSubclasses());
    }

    @TestFactory
    Stream<DynamicTest> everyEventTypeSurvivesTheRoundTrip() {
        return Arrays.stream(Event.class.getPermittedSubclasses()).map(type -> DynamicTest.dynamicTest(
                type.getSimpleName(), () -> {
                    Event sample = SAMPLES.get(type);
                    assertThat(sample).as("a sample of %s in EventSamples", type.getSimpleName()).isNotNull();
                    Path file = write("one.jsonl", List.of(sample));
                    assertThat(EventLogReader.read(file)).containsExactly(sample);
                }));
    }

    @Test
    void aWholeStoryReadsBackEqual() throws IOException {
        List<Event> story = EventSamples.story();
        assertThat(EventLogReader.read(write("story.jsonl", story))).isEqualTo(story);
    }

    @Test
    void typeIsTheSimpleRecordNameAndFieldsFollowTheRecordComponents() throws IOException {
        for (Event sample : SAMPLES.values()) {
            JsonNode node = EventJson.mapper().readTree(EventJson.writer().writeValueAsString(sample));
            List<String> fields = new ArrayList<>();
            node.fieldNames().forEachRemaining(fields::add);
            List<String> expected = new ArrayList<>(List.of("type"));
            for (RecordComponent c : sample.getClass().getRecordComponents()) {
                if (c.getName().equals("type")) {
                    throw new AssertionError(sample.getClass().getSimpleName() + " has a component named \"type\", "
                            + "which clashes with the type discriminator");
                }
                try {
                    if (c.getAccessor().invoke(sample) != null) {
                        expected.add(c.getName());
                    }
                } catch (ReflectiveOperationException e) {
                    throw new AssertionError(e);
                }
            }
            assertThat(node.get("type").textValue()).isEqualTo(sample.getClass().getSimpleName());
            assertThat(fields).as("fields of %s, in order", sample.getClass().getSimpleName())
                    .containsExactlyElementsOf(expected);
        }
    }

    @Test
    void tokensAtTheTopOfTheRangeSurviveExactlyAsQuotedStrings() throws IOException {
        long max = Long.MAX_VALUE;
        long maxMinus1 = Long.MAX_VALUE - 1;
        List<Event> events = List.of(
                new RunStarted(1, 0, "s", "simulated", "FENCED", "MONOTONIC", max, "embedded"),
                new LeaseAcquired(2, 1, "A", "report", maxMinus1, max, 3),
                new LeaseBusy(3, 2, "B", "report", "A", maxMinus1),
                new WriteRejectedStale(4, 3, "A", "report", maxMinus1, TargetKind.ROW, "k", max));
        Path file = write("max.jsonl", events);
        String text = Files.readString(file, StandardCharsets.UTF_8);

        assertThat(text).as("seed as a quoted decimal string").contains("\"seed\":\"9223372036854775807\"");
        assertThat(text).contains("\"token\":\"9223372036854775806\"", "\"fencingToken\":\"9223372036854775807\"",
                "\"currentToken\":\"9223372036854775806\"", "\"highest\":\"9223372036854775807\"");
        assertThat(EventLogReader.read(file)).isEqualTo(events);
    }

    @Test
    void everyTokenFieldIsWrittenAsAString() throws Exception {
        // Any component that is (or is named like) a token must be annotated and come out quoted.
        for (Event sample : SAMPLES.values()) {
            JsonNode node = EventJson.mapper().readTree(EventJson.writer().writeValueAsString(sample));
            for (RecordComponent c : sample.getClass().getRecordComponents()) {
                JsonFormat format = sample.getClass().getDeclaredField(c.getName()).getAnnotation(JsonFormat.class);
                boolean annotated = format != null && format.shape() == JsonFormat.Shape.STRING;
                boolean tokenLike = c.getName().equals("token") || c.getName().endsWith("Token")
                        || c.getName().equals("highest") || c.getName().equals("seed");
                String where = sample.getClass().getSimpleName() + "." + c.getName();
                if (tokenLike) {
                    assertThat(annotated).as("%s holds a token: it needs @JsonFormat(shape = STRING)", where).isTrue();
                }
                if (annotated) {
                    assertThat(node.get(c.getName()).isTextual()).as("%s written as a string", where).isTrue();
                }
            }
        }
    }

    @Test
    void theSameEventsGiveTheSameBytes() throws IOException {
        List<Event> story = EventSamples.story();
        byte[] first = Files.readAllBytes(write("first.jsonl", story));
        byte[] second = Files.readAllBytes(write("second.jsonl", story));
        assertThat(second).as("bytes of the second write").isEqualTo(first);
        String text = new String(first, StandardCharsets.UTF_8);
        assertThat(text).doesNotContain("\r").endsWith("}\n");
        assertThat(text.lines()).hasSize(story.size());
    }

    @Test
    void nonAsciiTextIsUtf8AndOddTextSurvives() throws IOException {
        String odd = "Zoë \u4e2d \ud83d\ude00 lone \ud800 end \u0000 \"quoted\" \\ \n\t";
        List<Event> events = List.of(new Event.OperationFailed(1, 0, "Åsa", "renew", odd));
        Path file = write("odd.jsonl", events);
        String text = Files.readString(file, StandardCharsets.UTF_8);
        assertThat(text).contains("\"holder\":\"Åsa\"").contains("\u4e2d").contains("\\ud800");
        assertThat(text.lines()).hasSize(1);
        assertThat(EventLogReader.read(file)).isEqualTo(events);
    }

    @Test
    void streamingReadGivesTheSameEvents() throws IOException {
        List<Event> story = EventSamples.story();
        Path file = write("stream.jsonl", story);
        try (EventLogReader reader = EventLogReader.open(file); Stream<Event> events = reader.stream()) {
            Iterator<Event> it = events.iterator();
            assertThat(it.next()).isEqualTo(story.getFirst());
            assertThat(reader.lineNumber()).as("the stream reads lazily").isEqualTo(1);
            List<Event> rest = new ArrayList<>();
            it.forEachRemaining(rest::add);
            assertThat(rest).isEqualTo(story.subList(1, story.size()));
        }
    }

    @Test
    void appendAccumulatesBatchesAndFlushesEachOne() throws IOException {
        List<Event> story = EventSamples.story();
        Path file = dir.resolve("batches.jsonl");
        try (EventLog log = EventLog.create(file)) {
            log.append(story.subList(0, 3));
            // Flushed at the end of the batch: another reader sees it before close.
            assertThat(EventLogReader.read(file)).isEqualTo(story.subList(0, 3));
            log.accept(story.subList(3, story.size()));
            assertThat(log.written()).isEqualTo(story.size());
        }
        assertThat(EventLogReader.read(file)).isEqualTo(story);
    }

    private Path write(String name, List<Event> events) throws IOException {
        Path file = dir.resolve(name);
        try (EventLog log = EventLog.create(file)) {
            log.append(events);
        }
        return file;
    }
}
