package io.fencelab.engine.tune;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * One setting of a sweep: a value for every varied parameter, in the plan's axis order.
 *
 * @param index the point's place in the plan (the first axis varies slowest)
 */
public record Point(int index, List<AxisValue> values) {

    public Point {
        values = List.copyOf(values);
    }

    /** The point's short name, used for its directory: {@code p007}. */
    public String id() {
        return String.format(Locale.ROOT, "p%03d", index);
    }

    /** The values by path, as written into the scenario. */
    public Map<String, String> assignments(List<Axis> axes) {
        Map<String, String> out = new LinkedHashMap<>();
        for (int i = 0; i < axes.size(); i++) {
            out.put(axes.get(i).path(), values.get(i).text());
        }
        return out;
    }

    /** {@code lease.ttl=15s lease.renewEvery=5s}: how messages and the report name the setting. */
    public String label(List<Axis> axes) {
        List<String> parts = new ArrayList<>();
        assignments(axes).forEach((path, text) -> parts.add(path + "=" + text));
        return String.join(" ", parts);
    }
}
