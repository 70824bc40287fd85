package io.fencelab.engine.metrics;

import java.util.Arrays;

/**
 * Stores every value so percentiles are exact. A snapshot sorts only the values added since the
 * previous one and merges them in, so a chart asking many times a second does not re-sort the run.
 */
final class ExactDistribution {

    private long[] values = new long[64];
    private int size;
    private int sortedPrefix;

    void add(long value) {
        if (size == values.length) {
            values = Arrays.copyOf(values, size * 2);
        }
        values[size++] = value;
    }

    DurationSummary summary() {
        if (size == 0) {
            return DurationSummary.EMPTY;
        }
        sortNewValues();
        return new DurationSummary(size, nearestRank(50), nearestRank(99), values[size - 1]);
    }

    private long nearestRank(int percent) {
        long rank = (percent * (long) size + 99) / 100;   // ceil(p/100 · n), at least 1
        return values[(int) rank - 1];
    }

    private void sortNewValues() {
        if (sortedPrefix == size) {
            return;
        }
        long[] tail = Arrays.copyOfRange(values, sortedPrefix, size);
        Arrays.sort(tail);
        // Merge from the back so the sorted prefix can stay in place.
        int i = sortedPrefix - 1;
        int j = tail.length - 1;
        int k = size - 1;
        while (j >= 0) {
            values[k--] = i >= 0 && values[i] > tail[j] ? values[i--] : tail[j--];
        }
        sortedPrefix = size;
    }
}
