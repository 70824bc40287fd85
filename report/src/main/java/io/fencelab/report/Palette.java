package io.fencelab.report;

import io.fencelab.engine.check.WriteClass;
import io.fencelab.engine.resource.ResourceId;
import io.fencelab.engine.resource.SqlKey;

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
     * A user's own SQL fence: the band beside its lane and its kind word. A dark brown, apart from the
     * write colours and the holders' blues, and readable as text on the lanes' near-white.
     */
    public static final String SQL_FENCE = "#8C510A";

    /**
     * How a resource's lane is named wherever it is drawn: its kind word ({@code ROW}, {@code SQL}),
     * its name ({@code report-1}; a SQL fence's {@code report 17}: the fence, then the user's key), a
     * sentence for a tooltip, and the colour of the band beside its name (null: none, the built-in
     * targets).
     */
    public record ResourceLook(String kind, String name, String sentence, String band) {
    }

    /** The one naming of a resource's lane: the report's timeline and the console's both read it. */
    public static ResourceLook look(ResourceId id) {
        return switch (id.target()) {
            case ROW, OBJECT, POINTER -> new ResourceLook(id.target().name(), id.key(), id.toString(), null);
            case SQL -> {
                // A key without a fence name cannot come from a scenario; it is shown as it is rather than refused.
                boolean named = id.key().indexOf(':') > 0;
                String fence = named ? SqlKey.fence(id.key()) : id.key();
                String key = named ? SqlKey.key(id.key()) : "";
                yield new ResourceLook("SQL", (fence + " " + key).strip(),
                        "your SQL fence " + fence + (named ? ", key " + key : "") + ", scope " + id.scope(), SQL_FENCE);
            }
        };
    }

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
