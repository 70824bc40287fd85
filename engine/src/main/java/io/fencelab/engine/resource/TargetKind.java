package io.fencelab.engine.resource;

/**
 * The three destinations of the protected boundary. Each is a table keyed by (run, scope, key)
 * that stores the greatest accepted token beside the value it protects.
 */
public enum TargetKind {
    /** A record, like the design note's {@code report_state}: a text body. */
    ROW("fenced_row", "body", "text"),
    /** A blob in an object store: bytes. */
    OBJECT("fenced_object", "content", "bytea"),
    /** A named pointer publishing which object version is current: an object key. */
    POINTER("fenced_pointer", "target_key", "text");

    private final String table;
    private final String valueColumn;
    private final String valueType;

    TargetKind(String table, String valueColumn, String valueType) {
        this.table = table;
        this.valueColumn = valueColumn;
        this.valueType = valueType;
    }

    /** Table name: a constant, never user input, so it is safe to place in SQL text. */
    public String table() {
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
