package io.fencelab.engine.tune;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;

/**
 * One run's results: its point and seed, every figure under its column name (the tuning metrics,
 * then the bound measures; NaN where a figure does not exist), and the checker's verdict.
 */
public record ResultRow(int point, long seed, Map<String, Double> values, String verdict) {

    public ResultRow {
        Objects.requireNonNull(verdict, "verdict");
        values = Collections.unmodifiableMap(new LinkedHashMap<>(values));
    }

    public double value(String column) {
        Double v = values.get(column);
        if (v == null) {
            throw new IllegalArgumentException("no figure called " + column + " (figures: " + values.keySet() + ")");
        }
        return v;
    }

    public boolean violated() {
        return "VIOLATED".equals(verdict);
    }
}
