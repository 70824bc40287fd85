package io.fencelab.engine.tune;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * One run's results: its point and seed, every figure under its column name (the tuning metrics,
 * then the bound measures; NaN where a figure does not exist), the checker's verdict, and every
 * bound the run went past with what took it there ({@link Bounds#check}; empty when none).
 */
public record ResultRow(int point, long seed, Map<String, Double> values, String verdict,
                        List<Bounds.PastBound> pastBounds) {

    public ResultRow {
        Objects.requireNonNull(verdict, "verdict");
        values = Collections.unmodifiableMap(new LinkedHashMap<>(values));
        pastBounds = List.copyOf(pastBounds);
    }

    /** A run that kept within every bound. */
    public ResultRow(int point, long seed, Map<String, Double> values, String verdict) {
        this(point, seed, values, verdict, List.of());
    }

    public double value(String column) {
        Double v = values.get(column);
        if (v == null) {
            throw new IllegalArgumentException("no figure called " + column + " (figures: " + values.keySet() + ")");
        }
        return v;
    }

    /** Whether the run went past a bound for a reason the bound models: a bug, and its figures are not to be trusted. */
    public boolean pastBoundUnexplained() {
        return pastBounds.stream().anyMatch(Bounds.PastBound::modelled);
    }

    public boolean violated() {
        return "VIOLATED".equals(verdict);
    }
}
