package io.fencelab.engine.event;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.stream.LongStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** docs/EVENTS.md stays true: it describes every event type, and its example is a valid log. */
class EventsDocTest {

    private static final Path DOC = Path.of("..", "docs", "EVENTS.md");

    @Test
    void everyEventTypeHasASection() throws IOException {
        String doc = Files.readString(DOC, StandardCharsets.UTF_8);
        for (Class<?> type : Event.class.getPermittedSubclasses()) {
            assertThat(doc).as("docs/EVENTS.md describes %s", type.getSimpleName())
                    .contains("\n#### " + type.getSimpleName() + "\n");
        }
    }

    @Test
    void theExampleIsAValidLogInSeqOrder(@TempDir Path dir) throws IOException {
        String doc = Files.readString(DOC, StandardCharsets.UTF_8);
        int start = doc.indexOf("```jsonl\n") + "```jsonl\n".length();
        String example = doc.substring(start, doc.indexOf("```", start));
        Path file = dir.resolve("example.jsonl");
        Files.writeString(file, example, StandardCharsets.UTF_8);

        List<Event> events = EventLogReader.read(file);
        assertThat(events).extracting(Event::seq)
                .containsExactlyElementsOf(LongStream.rangeClosed(1, events.size()).boxed().toList());
        // Written back, the example is byte for byte what the recorder produces.
        Path rewritten = dir.resolve("rewritten.jsonl");
        try (EventLog log = EventLog.create(rewritten)) {
            log.append(events);
        }
        assertThat(Files.readString(rewritten, StandardCharsets.UTF_8)).isEqualTo(example);
        assertThat(Arrays.asList(events.getFirst(), events.getLast()))
                .extracting(e -> e.getClass().getSimpleName()).containsExactly("RunStarted", "RunEnded");
    }
}
