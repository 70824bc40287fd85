package io.fencelab.scenarios;

import io.fencelab.engine.event.Event;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.RecordComponent;
import java.time.Duration;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * The moment of a run a story step narrates: a run time ({@code at: 31s}), an event
 * ({@code on: {type: LeaseAcquired, holder: B}}), or nothing (the step goes with the one before).
 */
public sealed interface Cue {

    /** A step without a cue of its own. */
    Cue WITH_PREVIOUS = new WithPrevious();

    record WithPrevious() implements Cue {}

    /** The step is reached when the run's time passes {@code at}: every event at or before it is shown. */
    record At(Duration at) implements Cue {
        public At {
            Objects.requireNonNull(at, "at");
        }

        public long micros() {
            return at.toNanos() / 1_000;
        }
    }

    /**
     * The step is reached at the first event (after the previous step) of type {@code type} whose
     * named fields read as given: {@code holder: B}, {@code token: 42}, {@code key: report-1}.
     */
    record On(String type, Map<String, String> fields) implements Cue {
        public On {
            Objects.requireNonNull(type, "type");
            fields = java.util.Collections.unmodifiableMap(new LinkedHashMap<>(fields));
        }

        public boolean matches(Event event) {
            if (!event.getClass().getSimpleName().equals(type)) {
                return false;
            }
            for (Map.Entry<String, String> f : fields.entrySet()) {
                if (!f.getValue().equals(read(event, f.getKey()))) {
                    return false;
                }
            }
            return true;
        }

        /** As the format writes it: {@code LeaseAcquired holder=B}. */
        public String describe() {
            StringBuilder s = new StringBuilder(type);
            fields.forEach((k, v) -> s.append(' ').append(k).append('=').append(v));
            return s.toString();
        }

        private static String read(Event event, String field) {
            for (RecordComponent c : event.getClass().getRecordComponents()) {
                if (c.getName().equals(field)) {
                    try {
                        Object value = c.getAccessor().invoke(event);
                        return value == null ? null : value.toString();
                    } catch (IllegalAccessException | InvocationTargetException e) {
                        throw new IllegalStateException("cannot read " + field + " of " + event, e);
                    }
                }
            }
            return null;
        }
    }

    /** The event type named {@code name} (its simple name, as in the log's {@code "type"}). */
    static Optional<Class<?>> eventType(String name) {
        return Arrays.stream(Event.class.getPermittedSubclasses()).filter(c -> c.getSimpleName().equals(name))
                .findFirst().map(c -> (Class<?>) c);
    }

    /** Every event type's name, in the order the format lists them. */
    static List<String> eventTypes() {
        return Arrays.stream(Event.class.getPermittedSubclasses()).map(Class::getSimpleName).toList();
    }

    /** The fields an {@code on:} cue may name for {@code type}. */
    static List<String> fieldsOf(Class<?> type) {
        return Arrays.stream(type.getRecordComponents()).map(RecordComponent::getName)
                .filter(n -> !n.equals("seq")).toList();
    }
}
