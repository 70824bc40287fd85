package io.fencelab.engine.metrics;

import java.util.Arrays;

/** Counts and unavailable microseconds per second of run time, indexed by second. */
final class TuningSeconds {
private static final long MICROS_PER_SECOND = 1_000_000L;
    static final int TRANSITIONS = 0;
    static final int LOSSES = 1;
    static final int REQUESTS = 2;
    static final int UNAVAILABLE = 3;
    private long[][] series = new long[4][64];

    void add(int which, long t, long n) {
        int i = index(t);
        grow(i);
        series[which][i] += n;
    }

    long get(int which, int second) {
        long[] a = series[which];
        return second < a.length ? a[second] : 0;
    }

    /** Adds the microseconds of [start, end) to the unavailable time of the seconds they fall in. */
    void unavailable(long start, long end) {
        grow(index(end - 1));
        spread(series[UNAVAILABLE], start, end);
    }

    /** A copy of the unavailable series, at least {@code length} long. */
    long[] unavailableCopy(int length) {
        return Arrays.copyOf(series[UNAVAILABLE], Math.max(length, series[UNAVAILABLE].length));
    }

    private void grow(int i) {
        if (i < series[0].length) {
            return;
        }
        int n = Math.max(i + 1, series[0].length * 2);
        for (int k = 0; k < series.length; k++) {
            series[k] = Arrays.copyOf(series[k], n);
        }
    }

    private static int index(long t) {
        return (int) Math.min(Integer.MAX_VALUE - 8, Math.max(0, t) / MICROS_PER_SECOND);
    }

    /** Adds the microseconds of [start, end) to the seconds of {@code bySecond} they fall in. */
    static void spread(long[] bySecond, long start, long end) {
        long from = Math.max(0, start);
        while (from < end) {
            int i = index(from);
            long to = Math.min(end, (i + 1) * MICROS_PER_SECOND);
            if (i < bySecond.length) {
                bySecond[i] += to - from;
            }
            from = to;
        }
    }
}
