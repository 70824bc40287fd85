package io.fencelab.engine.tune;

import java.util.Objects;

/**
 * One value of a varied parameter.
 *
 * @param value the number (seconds for a duration), what results files and plots use
 * @param text  the value in the scenario file's syntax ({@code 15s}, {@code 3}), what is written into
 *              the scenario and shown to people
 */
public record AxisValue(double value, String text) {

    public AxisValue {
        Objects.requireNonNull(text, "text");
        if (!Double.isFinite(value)) {
            throw new IllegalArgumentException("an axis value must be finite, was " + value);
        }
    }

    @Override
    public String toString() {
        return text;
    }
}
