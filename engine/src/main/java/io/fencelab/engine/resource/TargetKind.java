package io.fencelab.engine.resource;

/**
 * The destinations of the protected boundary. The three built in ({@link #BUILT_IN}) are each a table
 * keyed by (run, scope, key) that stores the greatest accepted token beside the value it protects;
 * {@link #SQL} is a fence the user defines in SQL, whose resources' keys name the fence
 * ({@link SqlKey}).
 */
public enum TargetKind {
    /** A record, like the design note's {@code report_state}: a text body. */
    ROW("fenced_row", "body", "text"),
    /** A blob in an object store: bytes. */
    OBJECT("fenced_object", "content", "bytea"),
    /** A named pointer publishing which object version is current: an object key. */
    POINTER("fenced_pointer", "target_key", "text"),
    /** The user's own table and statement, in the run's scratch schema: a text body. */
    SQL(null, "body", "text");

    /** The targets Fencelab's own tables and functions implement. */
    public static final java.util.List<TargetKind> BUILT_IN = java.util.List.of(ROW, OBJECT, POINTER);

    private final String table;
    private final String valueColumn;
    private final String valueType;

    TargetKind(String table, String valueColumn, String valueType) {
        this.table = table;
        this.valueColumn = valueColumn;
        this.valueType = valueType;
    }

    /** Table name: a constant, never user input, so it is safe to place in SQL text. Built-in targets only. */
    public String table() {
        if (table == null) {
            throw new IllegalStateException(this + " has no table of Fencelab's own");
        }
        return table;
    }

    public String valueColumn() {
        return valueColumn;
    }

    public String valueType() {
        return valueType;
    }

    /** The database function that fences a write to this target in one round trip. */
    public String writeFunction() {
        return "fenced_write_" + name().toLowerCase(java.util.Locale.ROOT);
    }

    /** The database function the broken modes write with: no comparison, but the same report. */
    public String blindWriteFunction() {
        return "blind_write_" + name().toLowerCase(java.util.Locale.ROOT);
    }
}
