package io.fencelab.engine.event;

import com.fasterxml.jackson.core.JacksonException;
import com.fasterxml.jackson.databind.JsonMappingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.exc.MismatchedInputException;
import com.fasterxml.jackson.databind.exc.ValueInstantiationException;
import com.fasterxml.jackson.databind.node.JsonNodeType;
import java.lang.reflect.ParameterizedType;
import java.lang.reflect.RecordComponent;
import java.lang.reflect.Type;
import java.util.Arrays;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;

/**
 * Turns one line of an event log into an {@link Event}, or says in plain words what is wrong with
 * it. Stricter than Jackson alone: a missing field is an error rather than a silent 0 or null
 * (unless its component is {@link MayBeAbsent}), a number is not accepted where text belongs, and
 * an unknown field is named together with the allowed ones.
 */
final class EventLineDecoder {

    /** Event records by their {@code "type"} name, in declaration order. */
    private static final Map<String, Class<?>> TYPES = Arrays.stream(Event.class.getPermittedSubclasses())
            .collect(Collectors.toMap(Class::getSimpleName, c -> c, (a, b) -> a, LinkedHashMap::new));
    private static final String ALLOWED_TYPES = String.join(", ", TYPES.keySet());

    /**
     * Logs written before the judgement was kept apart from the history carry the checker's
     * conclusions as lines of this type. They are not events of the run: they are read past, and the
     * log is judged again instead.
     */
    static final String LEGACY_CONCLUSION = "Violation";

    private EventLineDecoder() {
    }

    /** What is wrong with a line; carries no stack trace, since the line, not the code, is at fault. */
    static final class BadLine extends Exception {
        BadLine(String problem) {
            super(problem, null, false, false);
        }
    }

    /** The event on {@code line}, or null for a {@link #LEGACY_CONCLUSION} line, which holds none. */
    static Event decode(String line) throws BadLine {
        if (line.isBlank()) {
            throw new BadLine("empty line; every line must hold one event");
        }
        JsonNode node;
        try {
            node = EventJson.mapper().readTree(line);
        } catch (MismatchedInputException e) {
            // The only mismatch a tree can have: a second value after the first.
            throw new BadLine("not valid JSON: more than one value on the line; each line holds one event");
        } catch (JacksonException e) {
            throw new BadLine("not valid JSON: " + e.getOriginalMessage().replace('\n', ' '));
        }
        if (!node.isObject()) {
            throw new BadLine("expected a JSON object {…}, found " + describe(node));
        }
        JsonNode typeNode = node.get("type");
        if (typeNode == null) {
            throw new BadLine("no \"type\" field; allowed types: " + ALLOWED_TYPES);
        }
        if (!typeNode.isTextual()) {
            throw new BadLine("\"type\" must be a string, found " + describe(typeNode) + "; allowed types: "
                    + ALLOWED_TYPES);
        }
        Class<?> type = TYPES.get(typeNode.textValue());
        if (type == null && LEGACY_CONCLUSION.equals(typeNode.textValue())) {
            return null;
        }
        if (type == null) {
            throw new BadLine("unknown type \"" + typeNode.textValue() + "\"; allowed types: " + ALLOWED_TYPES);
        }
        checkFields(node, type);
        try {
            return EventJson.reader().treeToValue(node, Event.class);
        } catch (ValueInstantiationException e) {
            // The record refused the values (a FAILED end without its cause): its own words, not Jackson's.
            Throwable refusal = e.getCause() != null ? e.getCause() : e;
            throw new BadLine(type.getSimpleName() + ": " + refusal.getMessage());
        } catch (JacksonException e) {
            // Not expected after checkFields; still a clear line rather than a stack trace.
            String where = e instanceof JsonMappingException m && !m.getPath().isEmpty()
                    ? "field \"" + m.getPath().getFirst().getFieldName() + "\": " : "";
            throw new BadLine(type.getSimpleName() + ": " + where + e.getOriginalMessage());
        } catch (IllegalArgumentException e) {
            throw new BadLine(type.getSimpleName() + ": " + e.getMessage());
        }
    }

    private static void checkFields(JsonNode node, Class<?> type) throws BadLine {
        RecordComponent[] components = type.getRecordComponents();
        String typeName = type.getSimpleName();
        for (Iterator<String> names = node.fieldNames(); names.hasNext(); ) {
            String name = names.next();
            if (!name.equals("type") && Arrays.stream(components).noneMatch(c -> c.getName().equals(name))) {
                throw new BadLine("unknown field \"" + name + "\" for " + typeName + "; its fields are "
                        + Arrays.stream(components).map(RecordComponent::getName).collect(Collectors.joining(", ")));
            }
        }
        for (RecordComponent c : components) {
            JsonNode value = node.get(c.getName());
            boolean absent = value == null || value.isNull();
            if (absent) {
                if (c.isAnnotationPresent(MayBeAbsent.class)) {
                    continue; // left out of the line when null
                }
                throw new BadLine(typeName + " needs field \"" + c.getName() + "\" (" + expected(c.getGenericType())
                        + ")" + (value == null ? "" : ", found null"));
            }
            if (!fits(value, c.getGenericType())) {
                throw new BadLine(typeName + " field \"" + c.getName() + "\" must be " + expected(c.getGenericType())
                        + ", found " + describe(value));
            }
        }
    }

    /** Whether {@code value} (not null) is acceptable for a component of {@code type}. */
    private static boolean fits(JsonNode value, Type type) {
        if (type == long.class || type == Long.class) {
            // Tokens are written as decimal strings; a plain JSON integer is accepted too.
            if (value.isIntegralNumber()) {
                return value.canConvertToLong();
            }
            if (value.isTextual()) {
                try {
                    Long.parseLong(value.textValue());
                    return true;
                } catch (NumberFormatException e) {
                    return false;
                }
            }
            return false;
        }
        if (type == String.class) {
            return value.isTextual();
        }
        if (type instanceof Class<?> c && c.isEnum()) {
            return value.isTextual() && Arrays.stream(c.getEnumConstants())
                    .anyMatch(k -> ((Enum<?>) k).name().equals(value.textValue()));
        }
        if (type instanceof ParameterizedType p && p.getRawType() == List.class) {
            if (!value.isArray()) {
                return false;
            }
            Type element = p.getActualTypeArguments()[0];
            for (JsonNode e : value) {
                if (!e.isNull() && !fits(e, element)) {
                    return false;
                }
            }
            return true;
        }
        return true; // a kind this check does not know: Jackson decides
    }

    private static String expected(Type type) {
        if (type == long.class || type == Long.class) {
            return "a whole number from " + Long.MIN_VALUE + " to " + Long.MAX_VALUE + ", as a decimal string or number";
        }
        if (type == String.class) {
            return "a string";
        }
        if (type instanceof Class<?> c && c.isEnum()) {
            return "one of " + Arrays.stream(c.getEnumConstants()).map(k -> "\"" + ((Enum<?>) k).name() + "\"")
                    .collect(Collectors.joining(", "));
        }
        if (type instanceof ParameterizedType p && p.getRawType() == List.class) {
            return "an array, each element " + expected(p.getActualTypeArguments()[0]);
        }
        return "a " + type.getTypeName();
    }

    private static String describe(JsonNode node) {
        String text = node.toString();
        if (text.length() > 40) {
            text = text.substring(0, 37) + "...";
        }
        JsonNodeType kind = node.getNodeType();
        return switch (kind) {
            case NULL -> "null";
            case ARRAY -> "an array " + text;
            case OBJECT -> "an object " + text;
            case STRING -> "the string " + text;
            case NUMBER -> "the number " + text;
            case BOOLEAN -> text;
            default -> text;
        };
    }
}
