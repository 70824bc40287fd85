package io.fencelab.app.console.timeline;

import java.util.List;
import java.util.function.ToLongFunction;

/** Run time to canvas x: {@code span} micros from {@code start} across a plot {@code width} wide, right of the gutter. */
final class TimelineScale {
    final double start;
    final double span;
    final double width;

    TimelineScale(double start, double span, double width) {
        this.start = start;
        this.span = Math.max(1, span);
        this.width = width;
    }

    double at(double micros) {
        return TimelineRenderer.GUTTER + (micros - start) / span * width;
    }

    double micros(double px) {
        return start + (px - TimelineRenderer.GUTTER) / width * span;
    }

    double end() {
        return start + span;
    }

    /** The index of the first of {@code items} (in time order) at or after {@code micros}; their size if none. */
    static <T> int firstAtOrAfter(List<T> items, ToLongFunction<T> timeOf, double micros) {
        int lo = 0;
        int hi = items.size();
        while (lo < hi) {
            int mid = (lo + hi) >>> 1;
            if (timeOf.applyAsLong(items.get(mid)) < micros) {
                lo = mid + 1;
            } else {
                hi = mid;
            }
        }
        return lo;
    }
}
