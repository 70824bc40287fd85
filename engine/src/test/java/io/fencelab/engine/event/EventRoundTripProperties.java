package io.fencelab.engine.event;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.lang.reflect.ParameterizedType;
import java.lang.reflect.RecordComponent;
import java.lang.reflect.Type;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;

/**
 * Any events of any type, with any values (the extremes of long, nulls where a field may be absent,
 * any UTF-16 text including lone surrogates), read back equal, and write to the same bytes twice. Events are generated from
 * the record components, so a new event type is covered without a change here.
 */
class EventRoundTripProperties {

    @Property(tries = 300)
    void anyEventsReadBackEqual(@ForAll("events") List<Event> events) throws IOException {
        Path file = Files.createTempFile("events", ".jsonl");
        try {
            try (EventLog log = EventLog.create(file)) {
                log.append(events);
            }
            assertThat(EventLogReader.read(file)).isEqualTo(events);
        } finally {
            Files.delete(file);
        }
    }

    @Property(tries = 100)
    void theSameEventsAlwaysGiveTheSameText(@ForAll("events") List<Event> events) throws IOException {
        StringBuilder first = new StringBuilder();
        StringBuilder second = new StringBuilder();
        for (Event e : events) {
            first.append(EventJson.writer().writeValueAsString(e)).append('\n');
        }
        for (Event e : events) {
            second.append(EventJson.writer().writeValueAsString(e)).append('\n');
        }
        assertThat(second.toString()).isEqualTo(first.toString());
    }

    @Provide
    Arbitrary<List<Event>> events() {
        List<Arbitrary<Event>> perType = Arrays.stream(Event.class.getPermittedSubclasses())
                .map(EventRoundTripProperties::eventsOf)
                .toList();
        return Arbitraries.oneOf(perType).list().ofMaxSize(12);
    }

    private static Arbitrary<Event> eventsOf(Class<?> type) {
        RecordComponent[] components = type.getRecordComponents();
        List<Arbitrary<Object>> values = Arrays.stream(components)
                .map(c -> valuesOf(c.getGenericType(), type.getSimpleName() + "." + c.getName(),
                        c.isAnnotationPresent(MayBeAbsent.class) ? 0.2 : 0))
                .toList();
        Class<?>[] parameterTypes = Arrays.stream(components).map(RecordComponent::getType).toArray(Class<?>[]::new);
        return Combinators.combine(values).as(args -> {
            try {
                return (Event) type.getDeclaredConstructor(parameterTypes).newInstance(args.toArray());
            } catch (java.lang.reflect.InvocationTargetException e) {
                if (e.getCause() instanceof IllegalArgumentException) {
                    return null; // values the record refuses (a cause on a run that did not fail) make no event
                }
                throw new AssertionError(e);
            } catch (ReflectiveOperationException e) {
                throw new AssertionError(e);
            }
        }).filter(java.util.Objects::nonNull);
    }

    @SuppressWarnings({"unchecked", "rawtypes"})
    private static Arbitrary<Object> valuesOf(Type type, String where, double nulls) {
        Arbitrary<?> values;
        if (type == long.class) {
            values = Arbitraries.longs();
        } else if (type == Long.class) {
            values = Arbitraries.longs().injectNull(nulls);
        } else if (type == String.class) {
            values = Arbitraries.strings().withCharRange('\u0000', '\uffff').ofMaxLength(12).injectNull(nulls);
        } else if (type instanceof Class<?> c && c.isEnum()) {
            values = Arbitraries.of((Class<Enum>) c).injectNull(nulls);
        } else if (type instanceof ParameterizedType p && p.getRawType() == List.class
                && p.getActualTypeArguments()[0] == Long.class) {
            // No event has a list today; a new one must take neither a null list nor null seqs.
            values = Arbitraries.longs().list().ofMaxSize(5);
        } else {
            throw new AssertionError(where + " has type " + type.getTypeName()
                    + ": teach EventRoundTripProperties.valuesOf to generate it");
        }
        return (Arbitrary<Object>) values;
    }
}
