package io.fencelab.scenarios;

import java.time.Duration;
import java.util.List;

/**
 * One mapping of a scenario file with its path ({@code workers[0]}), read key by key. Absent optional
 * keys give their defaults; an absent required key is reported at the mapping; a wrong value is
 * reported and read as null.
 */
final class Fields {
    private final ValueReader reader;
    private final YamlNode.Mapping mapping;
    private final String path;

    Fields(ValueReader reader, YamlNode.Mapping mapping, String path) {
        this.reader = reader;
        this.mapping = mapping;
        this.path = path;
    }

    /** {@code workers[0]} + {@code onStale} = {@code workers[0].onStale}; the top level has an empty path. */
    static String child(String parent, String key) {
        return parent.isEmpty() ? key : parent + "." + key;
    }

    String path() {
        return path;
    }

    String path(String key) {
        return child(path, key);
    }

    YamlNode.Mapping mapping() {
        return mapping;
    }

    boolean has(String key) {
        return mapping.fields().containsKey(key);
    }

    /** The value under {@code key}, or null. */
    YamlNode node(String key) {
        YamlNode.Field f = mapping.fields().get(key);
        return f == null ? null : f.value();
    }

    /** The value under {@code key}; if absent, reports it missing and returns null. */
    YamlNode required(String key, String example) {
        YamlNode n = node(key);
        if (n == null) {
            reader.problems().add(mapping.mark(), path(key), "missing required key (for example " + example + ")");
        }
        return n;
    }

    String text(String key, String fallback) {
        YamlNode n = node(key);
        return n == null ? fallback : reader.text(n, path(key));
    }

    String requiredText(String key, String example) {
        YamlNode n = required(key, example);
        return n == null ? null : reader.text(n, path(key));
    }

    /** A name ({@link ValueReader#name}): a worker, scope, key, target, profile or file. */
    String name(String key, String fallback) {
        YamlNode n = node(key);
        return n == null ? fallback : reader.name(n, path(key));
    }

    String requiredName(String key, String example) {
        YamlNode n = required(key, example);
        return n == null ? null : reader.name(n, path(key));
    }

    Duration duration(String key, Duration fallback, ValueReader.DurationRule rule) {
        YamlNode n = node(key);
        return n == null ? fallback : reader.duration(n, path(key), rule);
    }

    Duration requiredDuration(String key, String example, ValueReader.DurationRule rule) {
        YamlNode n = required(key, example);
        return n == null ? null : reader.duration(n, path(key), rule);
    }

    Long integer(String key, long fallback, long min, long max, boolean textAllowed) {
        YamlNode n = node(key);
        return n == null ? Long.valueOf(fallback) : reader.integer(n, path(key), min, max, textAllowed);
    }

    Double number(String key, double fallback) {
        YamlNode n = node(key);
        return n == null ? Double.valueOf(fallback) : reader.number(n, path(key));
    }

    Boolean bool(String key, boolean fallback) {
        YamlNode n = node(key);
        return n == null ? Boolean.valueOf(fallback) : reader.bool(n, path(key));
    }

    <E extends Enum<E>> E choice(String key, Class<E> type, E fallback) {
        YamlNode n = node(key);
        return n == null ? fallback : reader.choice(n, path(key), type, false);
    }

    List<YamlNode> list(String key, String ofWhat) {
        YamlNode n = node(key);
        return n == null ? List.of() : reader.list(n, path(key), ofWhat);
    }
}
