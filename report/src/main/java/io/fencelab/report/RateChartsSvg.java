package io.fencelab.report;

import io.fencelab.engine.clock.RunTimes;
import io.fencelab.engine.metrics.EventCounts;
import io.fencelab.engine.metrics.SecondCounts;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.function.ToLongFunction;

/**
 * The per-second rates as one inline SVG of stacked small charts sharing the timeline's x axis: a
 * bar per second while each is a few pixels wide, beyond that a bar per bin of seconds showing the
 * bin's mean rate. Fault windows are shaded behind.
 */
final class RateChartsSvg {

    /** A stretch of run time to shade. */
    record Window(long startMicros, long endMicros) {}

    private record Series(String name, String colour, ToLongFunction<EventCounts> count) {}

    private static final List<Series> SERIES = List.of(
            new Series("Acquisitions", Palette.HELD, EventCounts::acquisitions),
            new Series("Renewals", Palette.BELIEVED, EventCounts::renewals),
            new Series("Renewal failures", Palette.RENEWAL_FAILURE, EventCounts::renewalFailures),
            new Series("Stale rejections", Palette.REJECTED, EventCounts::staleRejections),
            new Series("Accepted writes", Palette.ACCEPTED, EventCounts::acceptedWrites));

    private static final int ROW = 66;
    private static final int TOP = 8;
    private static final int AXIS = 26;
    /** More seconds than this and bars would be under ~3 px: bin them. */
    private static final int MAX_BARS = 340;

    private RateChartsSvg() {
    }

    static String render(List<SecondCounts> perSecond, EventCounts totals, TimeAxis axis, List<Window> database,
                         List<Window> holders) {
        int height = TOP + SERIES.size() * ROW + AXIS;
        StringBuilder out = new StringBuilder(8192);
        out.append("<svg class=\"rates\" width=\"").append(TimeAxis.WIDTH).append("\" height=\"").append(height)
                .append("\" viewBox=\"0 0 ").append(TimeAxis.WIDTH).append(' ').append(height)
                .append("\" role=\"img\" aria-label=\"Events per second: acquisitions, renewals, renewal failures, stale rejections, accepted writes\">");
        double bottom = TOP + SERIES.size() * ROW;
        shade(out, axis, holders, "shade-holder", "a holder paused or faulted", TOP, bottom);
        shade(out, axis, database, "shade-db", "database fault", TOP, bottom);
        axis.grid(out, TOP, bottom + 4, height - 8);
        for (int i = 0; i < SERIES.size(); i++) {
            chart(out, axis, perSecond, totals, SERIES.get(i), TOP + i * ROW);
        }
        out.append("</svg>");
        return out.toString();
    }

    private static void shade(StringBuilder out, TimeAxis axis, List<Window> windows, String cls, String what,
                              double top, double bottom) {
        for (Window w : windows) {
            double x0 = axis.x(w.startMicros());
            double width = Math.max(2, axis.x(w.endMicros()) - x0);
            out.append("<rect class=\"").append(cls).append("\" x=\"").append(Html.num(x0)).append("\" y=\"")
                    .append(Html.num(top)).append("\" width=\"").append(Html.num(width)).append("\" height=\"")
                    .append(Html.num(bottom - top)).append("\"><title>")
                    .append(Html.esc(what + ": " + RunTimes.range(w.startMicros(), w.endMicros()))).append("</title></rect>");
        }
    }

    private static void chart(StringBuilder out, TimeAxis axis, List<SecondCounts> perSecond, EventCounts totals,
                              Series series, int y) {
        long peak = 0;
        for (SecondCounts s : perSecond) {
            peak = Math.max(peak, series.count().applyAsLong(s.counts()));
        }
        double plotTop = y + 8;
        double base = y + ROW - 8;
        double scale = peak == 0 ? 0 : (base - plotTop) / peak;  // pixels per event per second
        out.append("<line class=\"base\" x1=\"").append(TimeAxis.LEFT).append("\" x2=\"").append(TimeAxis.LEFT + TimeAxis.PLOT)
                .append("\" y1=\"").append(Html.num(base)).append("\" y2=\"").append(Html.num(base)).append("\"/>");
        out.append("<text class=\"lane\" x=\"8\" y=\"").append(y + 22).append("\">").append(Html.esc(series.name())).append("</text>");
        out.append("<text class=\"row-left\" x=\"8\" y=\"").append(y + 38).append("\">")
                .append(Html.esc("total " + series.count().applyAsLong(totals))).append("</text>");
        out.append("<text class=\"row-left\" x=\"8\" y=\"").append(y + 53).append("\">")
                .append(Html.esc("peak " + peak + "/s")).append("</text>");
        if (peak == 0) {
            return;
        }
        int bin = binSeconds(perSecond.size());
        if (bin > 1) {
            // Means over bins, rescaled: a line of a thousand one-pixel spikes reads as a solid band.
            double maxMean = 0;
            for (int i = 0; i < perSecond.size(); i += bin) {
                maxMean = Math.max(maxMean, mean(perSecond, i, bin, series));
            }
            scale = (base - plotTop) / maxMean;
        }
        for (int i = 0; i < perSecond.size(); i += bin) {
            int n = Math.min(bin, perSecond.size() - i);
            double value = bin == 1 ? series.count().applyAsLong(perSecond.get(i).counts()) : mean(perSecond, i, bin, series);
            if (value == 0) {
                continue;
            }
            long first = perSecond.get(i).second();
            double x0 = axis.x(first * 1_000_000L);
            double x1 = axis.x((first + n) * 1_000_000L);
            double w = Math.max(1.5, x1 - x0 > 4 ? x1 - x0 - 1 : x1 - x0);
            double h = Math.max(1, value * scale);
            String tip = bin == 1 ? "%s in second %d: %d".formatted(series.name(), first, (long) value)
                    : "%s, seconds %d–%d: %s per second on average".formatted(series.name(), first, first + n - 1,
                            Html.num(value));
            out.append("<rect x=\"").append(Html.num(x0)).append("\" y=\"").append(Html.num(base - h))
                    .append("\" width=\"").append(Html.num(w)).append("\" height=\"").append(Html.num(h))
                    .append("\" fill=\"").append(series.colour()).append("\"><title>").append(Html.esc(tip))
                    .append("</title></rect>");
        }
    }

    /**
     * Seconds per bar: 1 while a run has at most {@value #MAX_BARS} seconds, else enough that the
     * bars stay a few pixels wide.
     */
    static int binSeconds(int seconds) {
        return Math.max(1, Math.ceilDiv(seconds, MAX_BARS));
    }

    private static double mean(List<SecondCounts> perSecond, int from, int bin, Series series) {
        int to = Math.min(perSecond.size(), from + bin);
        long sum = 0;
        for (int i = from; i < to; i++) {
            sum += series.count().applyAsLong(perSecond.get(i).counts());
        }
        return (double) sum / (to - from);
    }

    /** Overlapping or touching windows merged, in time order. */
    static List<Window> merge(List<Window> windows) {
        List<Window> sorted = new ArrayList<>(windows);
        sorted.sort(Comparator.comparingLong(Window::startMicros).thenComparingLong(Window::endMicros));
        List<Window> merged = new ArrayList<>();
        for (Window w : sorted) {
            if (!merged.isEmpty() && w.startMicros() <= merged.getLast().endMicros()) {
                Window last = merged.removeLast();
                merged.add(new Window(last.startMicros(), Math.max(last.endMicros(), w.endMicros())));
            } else {
                merged.add(w);
            }
        }
        return merged;
    }
}
