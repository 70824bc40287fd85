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

    static String of(WriteClass kind) {
        return switch (kind) {
            case ACCEPTED -> ACCEPTED;
            case REJECTED_STALE -> REJECTED;
            case MISSING -> MISSING;
            case OUT_OF_ORDER -> OUT_OF_ORDER;
            case STALE_OVERWRITE -> OVERWROTE;
        };
    }

    /** How a legend and a tooltip name each kind of write outcome, in the report and the console. */
    public static String describe(WriteClass kind) {
        return switch (kind) {
            case ACCEPTED -> "accepted";
            case REJECTED_STALE -> "rejected as stale";
            case MISSING -> "missing resource";
            case OUT_OF_ORDER -> "out of order";
            case STALE_OVERWRITE -> "accepted over a newer token";
        };
    }

    /** The id of the marker symbol drawn for each kind (defined in the timeline's {@code <defs>}). */
    static String symbol(WriteClass kind) {
        return switch (kind) {
            case ACCEPTED -> "m-acc";
            case REJECTED_STALE -> "m-rej";
            case MISSING -> "m-mis";
            case OUT_OF_ORDER -> "m-ooo";
            case STALE_OVERWRITE -> "m-ovr";
        };
    }
}
