package io.fencelab.engine.tune;

import java.util.List;
import java.util.Objects;

/**
 * A scenario parameter a sweep varies, by its path in the scenario file ({@code lease.ttl},
 * {@code faults[0].duration}), with the values it takes, in order.
 */
public record Axis(String path, AxisKind kind, List<AxisValue> values) {

    public Axis {
        Objects.requireNonNull(path, "path");
        Objects.requireNonNull(kind, "kind");
        values = List.copyOf(values);
        if (values.isEmpty()) {
            throw new IllegalArgumentException(path + ": an axis needs at least one value");
        }
    }

    /** The values as written: {@code 10s, 20s, 30s}. */
    public String describe() {
        return path + "=" + String.join(",", values.stream().map(AxisValue::text).toList());
    }
}
