package io.fencelab.report;

import io.fencelab.engine.check.WriteClass;

/**
 * The report's colours: the Okabe–Ito palette, distinguishable with the common colour-vision
 * deficiencies, and every meaning also carried by shape, pattern or text. The console draws with
 * the same colours, so a report and the window read alike.
 */
public final class Palette {

    private Palette() {
    }

    public static final String HELD = "#0072B2";
    public static final String BELIEVED = "#56B4E9";
    public static final String GAP = "#E69F00";
    public static final String GAP_DARK = "#9A6700";
    public static final String FAULT = "#CC79A7";
    public static final String ACCEPTED = "#009E73";
    public static final String REJECTED = "#222222";
    public static final String OVERWROTE = "#D7191C";
    public static final String MISSING = "#777777";
    public static final String OUT_OF_ORDER = "#CC79A7";
    public static final String RENEWAL_FAILURE = "#E69F00";
    /** A setting changed during a live run. */
    public static final String CHANGE = "#3B4CC0";

    /**
     * How one kind of write outcome looks and reads wherever it is drawn: its colour, the words a
     * legend or tooltip names it by, and the id of its marker symbol in the report's timeline.
     */
    public record WriteLook(String colour, String words, String symbol) {
    }

    /** The one table of write outcomes: the report, its legend and the console's {@code Ink} all read it. */
    public static WriteLook look(WriteClass kind) {
        return switch (kind) {
            case ACCEPTED -> new WriteLook(ACCEPTED, "accepted", "m-acc");
            case REJECTED_STALE -> new WriteLook(REJECTED, "rejected as stale", "m-rej");
            case MISSING -> new WriteLook(MISSING, "missing resource", "m-mis");
            case OUT_OF_ORDER -> new WriteLook(OUT_OF_ORDER, "out of order", "m-ooo");
            case STALE_OVERWRITE -> new WriteLook(OVERWROTE, "accepted over a newer token", "m-ovr");
        };
    }

    /** The colour of each kind of write outcome. */
    public static String of(WriteClass kind) {
        return look(kind).colour();
    }

    /** How a legend and a tooltip name each kind of write outcome, in the report and the console. */
    public static String describe(WriteClass kind) {
        return look(kind).words();
    }

    /** A legend's line for a kind of write outcome ({@code write rejected as stale}), in the report and the console. */
    public static String legend(WriteClass kind) {
        return "write " + describe(kind);
    }

    /** The id of the marker symbol drawn for each kind (defined in the timeline's {@code <defs>}). */
    static String symbol(WriteClass kind) {
        return look(kind).symbol();
    }
}
