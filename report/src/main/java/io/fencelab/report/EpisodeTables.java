package io.fencelab.report;

import io.fencelab.engine.clock.RunTimes;
import io.fencelab.engine.metrics.Failover;
import io.fencelab.engine.metrics.LeaseLoss;
import io.fencelab.engine.metrics.TuningEpisodes;
import java.util.ArrayList;
import java.util.List;
import java.util.function.BiConsumer;
import java.util.function.Function;

/**
 * Why a run's tuning figures are what they are: every failover and every lease loss they count, one
 * row each, in time order, each linking to the timeline zoomed to it ({@link TimelineZoom}). The
 * report (and so each sweep point's report) shows them under its Tuning table.
 */
final class EpisodeTables {

    /** Rows shown per table; the rest are counted in one line under it. */
    static final int MAX_ROWS = 100;

    private EpisodeTables() {
    }

    /** The section, appended to {@code out}, for a run of {@code runMicros}. */
    static void appendTo(StringBuilder out, TuningEpisodes episodes, long runMicros) {
        out.append("<section id=\"episodes\" aria-label=\"Failovers and lease losses\">\n<h2>Failovers and lease losses</h2>\n")
                .append("<p class=\"note\">Every failover and every lease loss the figures above count, in time order. ")
                .append("The last column shows the timeline zoomed to each (it goes to the whole timeline when scripts are off).</p>\n");
        table(out, "Failovers", "failovers", "No failover in this run.", episodes.failovers(), leftOut(episodes, true),
                "failover", "failovers",
                "<th class=\"num\">began</th><th>scope</th><th>lost by</th><th>cause</th><th class=\"num\">next holder after</th>"
                        + "<th>next holder</th><th>behind it</th>",
                (row, f) -> row.append("<td class=\"num\">").append(Html.esc(RunTimes.brief(f.fromMicros()))).append("</td><td>")
                        .append(Html.esc(f.scope())).append("</td><td>").append(Html.esc(f.lostBy())).append("</td><td>")
                        .append(Html.esc(cause(f.cause()))).append("</td><td class=\"num\">").append(Html.esc(after(f.micros())))
                        .append("</td><td>").append(Html.esc(f.nextHolder() == null ? "none" : f.nextHolder())).append("</td><td>")
                        .append(Html.esc(f.behind() == null ? "none known" : f.behind())).append("</td>"),
                f -> stretch(f, runMicros), runMicros);
        table(out, "Lease losses", "lease-losses", "No lease lost in this run.", episodes.leaseLosses(), leftOut(episodes, false),
                "lease loss", "lease losses",
                "<th class=\"num\">at</th><th>scope</th><th>holder</th><th class=\"num\">token</th><th>lost to</th><th>how</th>"
                        + "<th class=\"num\">pause behind it</th><th class=\"num\">next holder after</th>",
                (row, l) -> row.append("<td class=\"num\">").append(Html.esc(RunTimes.brief(l.atMicros()))).append("</td><td>")
                        .append(Html.esc(l.scope())).append("</td><td>").append(Html.esc(l.holder())).append("</td><td class=\"num\">")
                        .append(l.token()).append("</td><td>").append(l.kind() == LeaseLoss.Kind.PAUSE ? "a pause" : "renewals")
                        .append("</td><td>").append(Html.esc(reason(l.reason()))).append("</td><td class=\"num\">")
                        .append(Html.esc(l.pauseMicros() == null ? "none" : RunTimes.brief(l.pauseMicros())))
                        .append("</td><td class=\"num\">").append(Html.esc(after(l.nextHolderAfterMicros()))).append("</td>"),
                l -> stretch(l, runMicros), runMicros);
        out.append("</section>\n");
    }

    /**
     * One table: its heading, then the line saying it is empty, or a row per episode (its {@code cells},
     * then the zoom link to its {@code stretch}) up to {@link #MAX_ROWS} and the count of the rest.
     */
    private static <T> void table(StringBuilder out, String heading, String id, String empty, List<T> episodes, long leftOut,
                                  String one, String many, String header, BiConsumer<StringBuilder, T> cells,
                                  Function<T, long[]> stretch, long runMicros) {
        out.append("<h3>").append(heading).append("</h3>\n");
        if (episodes.isEmpty() && leftOut == 0) {
            out.append("<p>").append(empty).append("</p>\n");
            return;
        }
        out.append("<table class=\"episodes\" id=\"").append(id).append("\"><thead><tr>").append(header)
                .append("<th>on the timeline</th></tr></thead><tbody>");
        for (T episode : shown(episodes)) {
            out.append("<tr>");
            cells.accept(out, episode);
            long[] window = stretch.apply(episode);
            out.append("<td>");
            TimelineZoom.link(out, window[0], window[1], runMicros);
            out.append("</td></tr>");
        }
        out.append("</tbody></table>\n");
        more(out, episodes.size(), leftOut, one, many);
    }

    /** The windows the rows shown link to, in which the timeline is drawn one mark at a time. */
    static List<TimelineZoom.Window> windows(TuningEpisodes episodes, long runMicros) {
        List<TimelineZoom.Window> windows = new ArrayList<>();
        for (Failover f : shown(episodes.failovers())) {
            long[] stretch = stretch(f, runMicros);
            windows.add(TimelineZoom.around(stretch[0], stretch[1], runMicros));
        }
        for (LeaseLoss l : shown(episodes.leaseLosses())) {
            long[] stretch = stretch(l, runMicros);
            windows.add(TimelineZoom.around(stretch[0], stretch[1], runMicros));
        }
        return windows;
    }

    private static <T> List<T> shown(List<T> rows) {
        return rows.subList(0, Math.min(rows.size(), MAX_ROWS));
    }

    /** A failover's stretch: from its start to the next holder's grant, or to the run's end. */
    private static long[] stretch(Failover f, long runMicros) {
        return new long[] {f.fromMicros(), f.toMicros() == null ? runMicros : f.toMicros()};
    }

    /**
     * A lease loss's stretch: from the earliest the pause behind it can have begun to the next holder's
     * grant or the latest the pause can have ended, whichever is later.
     */
    private static long[] stretch(LeaseLoss l, long runMicros) {
        long pause = l.pauseMicros() == null ? 0 : l.pauseMicros();
        long next = l.nextHolderAfterMicros() == null ? runMicros - l.atMicros() : l.nextHolderAfterMicros();
        return new long[] {l.atMicros() - pause, l.atMicros() + Math.max(next, pause)};
    }

    /** "and N more …" under a table cut at {@link #MAX_ROWS}: none left out without saying so. */
    private static void more(StringBuilder out, int listed, long leftOut, String one, String many) {
        long more = Math.max(0, listed - MAX_ROWS) + leftOut;
        if (more > 0) {
            out.append("<p class=\"note\">… and ").append(more).append(' ').append(more == 1 ? one : many)
                    .append(" more, counted in the figures above but not listed here (events.jsonl has every event).</p>\n");
        }
    }

    /** How many of a run's failovers (or lease losses) the collector counted but did not list, over its cap. */
    static long leftOut(TuningEpisodes episodes, boolean failovers) {
        return failovers ? episodes.failoversLeftOut() : episodes.leaseLossesLeftOut();
    }

    static String cause(Failover.Cause cause) {
        return switch (cause) {
            case CRASH -> "crashed";
            case STEP_DOWN -> "stepped down, its lease still valid";
            case LEASE_LOST -> "its lease expired while it believed it held it";
        };
    }

    static String reason(LeaseLoss.Reason reason) {
        return switch (reason) {
            case EXPIRED -> "expired while it believed it held it";
            case RENEWAL_REFUSED -> "renewal refused";
            case RENEW_DEADLINE -> "stepped down at its renew deadline, its lease still valid";
        };
    }

    private static String after(Long micros) {
        return micros == null ? "not before the run ended" : RunTimes.brief(micros);
    }
}
