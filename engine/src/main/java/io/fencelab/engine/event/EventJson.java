package io.fencelab.engine.event;

import com.fasterxml.jackson.core.JsonFactoryBuilder;
import com.fasterxml.jackson.core.SerializableString;
import com.fasterxml.jackson.core.StreamReadFeature;
import com.fasterxml.jackson.core.io.CharacterEscapes;
import com.fasterxml.jackson.core.io.SerializedString;
import com.fasterxml.jackson.core.util.DefaultIndenter;
import com.fasterxml.jackson.core.util.DefaultPrettyPrinter;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.MapperFeature;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.ObjectReader;
import com.fasterxml.jackson.databind.ObjectWriter;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.json.JsonMapper;
import com.fasterxml.jackson.databind.jsontype.NamedType;
import java.util.Arrays;

/**
 * The one Jackson configuration for events, shared by the event log writer and reader (and by the
 * report and command line). Output is compact, in record component order after {@code "type"}, and
 * depends on nothing but the events, so the same events always give the same bytes.
 */
public final class EventJson {

    private static final ObjectMapper MAPPER = JsonMapper.builder(new JsonFactoryBuilder()
                    .characterEscapes(new SurrogateEscapes())
                    // A repeated field is an error, not "the last one wins".
                    .enable(StreamReadFeature.STRICT_DUPLICATE_DETECTION)
                    .build())
            // Fixed order: "type", then the record's components as declared.
            .disable(MapperFeature.SORT_PROPERTIES_ALPHABETICALLY)
            .enable(SerializationFeature.FAIL_ON_EMPTY_BEANS)
            .disable(SerializationFeature.INDENT_OUTPUT)
            // Reading must be exact: no silent 0 for null, no truncated 1.5, no unknown fields.
            .enable(DeserializationFeature.FAIL_ON_NULL_FOR_PRIMITIVES)
            .disable(DeserializationFeature.ACCEPT_FLOAT_AS_INT)
            .enable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES)
            .enable(DeserializationFeature.FAIL_ON_TRAILING_TOKENS)
            // Jackson 2 would name a nested record "Event$LeaseAcquired"; the format uses the simple
            // name. Taken from the sealed interface, so a new event type is named without extra work.
            .registerSubtypes(Arrays.stream(Event.class.getPermittedSubclasses())
                    .map(type -> new NamedType(type, type.getSimpleName()))
                    .toArray(NamedType[]::new))
            .build();

    private static final ObjectWriter WRITER = MAPPER.writerFor(Event.class);
    private static final ObjectReader READER = MAPPER.readerFor(Event.class);

    private EventJson() {
    }

    /**
     * The shared mapper. Do not reconfigure it (that would change every log); use {@link #writer()}
     * or {@link #reader()}, which are immutable, or {@code mapper().copy()} for a variant.
     */
    public static ObjectMapper mapper() {
        return MAPPER;
    }

    /** Writes one event as one JSON object with its {@code "type"}. */
    public static ObjectWriter writer() {
        return WRITER;
    }

    /**
     * Writes a document beside the log (summary.json, judgement.json) indented by two spaces with
     * {@code \n} line ends on every platform, so the same content gives the same bytes.
     */
    public static ObjectWriter documentWriter() {
        return DOCUMENT_WRITER;
    }

    private static final ObjectWriter DOCUMENT_WRITER = MAPPER.writer(new DefaultPrettyPrinter()
            .withObjectIndenter(new DefaultIndenter("  ", "\n"))
            .withArrayIndenter(new DefaultIndenter("  ", "\n")));

    /** Reads one JSON object into the event its {@code "type"} names. */
    public static ObjectReader reader() {
        return READER;
    }

    /**
     * Escapes UTF-16 surrogates as {@code \\uXXXX}, leaving other non-ASCII text readable as UTF-8.
     * A lone surrogate (possible in an exception message) cannot be encoded as UTF-8; escaped, it
     * survives the round trip exactly instead of failing the write or turning into '?'.
     */
    private static final class SurrogateEscapes extends CharacterEscapes {
        private static final int[] ASCII = standardAsciiEscapesForJSON();

        @Override
        public int[] getEscapeCodesForAscii() {
            return ASCII;
        }

        @Override
        public SerializableString getEscapeSequence(int ch) {
            if (Character.isSurrogate((char) ch)) {
                return new SerializedString(String.format("\\u%04x", ch));
            }
            return null;
        }
    }
}
