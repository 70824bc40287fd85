package io.fencelab.report;

import io.fencelab.engine.clock.RunTimes;

/**
 * What a process run adds to a holder's lane in the report's timeline ({@link TimelineSvg}): the host
 * and pid under the holder's name, and, from the time its host stopped answering, a dark band marked
 * "host lost" over the rest of the lane. The lane's earlier spans and marks stay as they were. Lanes
 * of runs whose holders are threads get nothing from here.
 */
final class AgentSvg {

    private AgentSvg() {
    }

    /** The host and pid lines in the left column, below the name (and its witness tag, at {@code y + 16}). */
    static void labels(StringBuilder out, HolderLane lane, double nameY) {
        HolderLane.Agent a = lane.agent();
        if (a == null) {
            return;
        }
        String host = "host " + a.host() + (a.lost() ? " lost" : "");
        out.append("<text class=\"").append(a.lost() ? "tag" : "row-left").append("\" x=\"8\" y=\"")
                .append(Html.num(nameY + 30)).append("\"><title>").append(Html.esc(tip(lane))).append("</title>")
                .append(Html.esc(Html.clip(host, 18))).append("</text>");
        if (a.pid() != null) {
            out.append("<text class=\"row-left\" x=\"8\" y=\"").append(Html.num(nameY + 44)).append("\">")
                    .append(Html.esc("pid " + a.pid() + (a.exitedAtMicros() == null ? "" : " (gone)"))).append("</text>");
        }
    }

    /** Inside the lane's plot group: the lost host's band from the LOST time to the end of the run. */
    static void lostBand(StringBuilder out, TimeAxis axis, HolderLane lane, long runMicros, double top, double h) {
        HolderLane.Agent a = lane.agent();
        if (a == null || !a.lost()) {
            return;
        }
        long end = Math.max(runMicros, a.lostAtMicros());
        double x0 = axis.x(a.lostAtMicros());
        double w = Math.max(1.5, axis.x(end) - x0);
        out.append("<g class=\"host-lost\"><title>").append(Html.esc(tip(lane))).append("</title><rect x=\"")
                .append(Html.fine(x0)).append("\" y=\"").append(Html.num(top)).append("\" width=\"").append(Html.fine(w))
                .append('"').append(TimelineSvg.times(a.lostAtMicros(), end)).append(" height=\"").append(Html.num(h))
                .append("\" fill=\"#1a1a1a\" fill-opacity=\"0.14\" stroke=\"#b00020\" stroke-width=\"1\" "
                        + "stroke-dasharray=\"4 3\"/>")
                .append("<text class=\"tag\" x=\"").append(Html.fine(x0)).append("\" dx=\"4\"")
                .append(TimelineSvg.times(a.lostAtMicros(), end)).append(" y=\"").append(Html.num(top + h - 5))
                .append("\">host lost</text></g>");
    }

    /** The tooltip: where the holder ran and what became of it. */
    static String tip(HolderLane lane) {
        HolderLane.Agent a = lane.agent();
        StringBuilder s = new StringBuilder(lane.holder()).append(" ran on host ").append(a.host());
        if (a.pid() != null) {
            s.append(" as process ").append(a.pid());
        }
        if (a.exitedAtMicros() != null) {
            s.append("; the process was gone at ").append(RunTimes.seconds(a.exitedAtMicros()));
        }
        if (a.lost()) {
            s.append("; host ").append(a.host()).append(" stopped answering at ")
                    .append(RunTimes.seconds(a.lostAtMicros())).append(": nothing ").append(lane.holder())
                    .append(" did after that reached the log, and its events up to then are kept");
        }
        return s.toString();
    }
}
