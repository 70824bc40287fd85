package io.fencelab.engine.fence;

import java.util.Objects;

/**
 * A piece of the user's SQL and where it stands in its file, so that an error PostgreSQL reports at a
 * character position can be told as the file's line and column. {@code line} and {@code column} (both
 * from 1) are those of the first character of {@code sql}; later lines of a YAML block scalar start at
 * the same column, which is what {@link #locate} assumes.
 */
public record SqlText(String sql, String file, int line, int column) {

    public SqlText {
        Objects.requireNonNull(sql, "sql");
        Objects.requireNonNull(file, "file");
    }

    /** SQL written in code rather than read from a file (tests, the built-in gallery's own checks). */
    public static SqlText of(String sql) {
        return new SqlText(sql, "(inline)", 1, 1);
    }

    /** {@code file:line:column} of the character at {@code offset} (from 0) in {@link #sql}. */
    public String locate(int offset) {
        int at = Math.max(0, Math.min(offset, sql.length()));
        int lineNo = line;
        int lineStart = 0;
        for (int i = 0; i < at; i++) {
            if (sql.charAt(i) == '\n') {
                lineNo++;
                lineStart = i + 1;
            }
        }
        int col = (lineNo == line ? column : column) + (at - lineStart);
        return file + ":" + lineNo + ":" + col;
    }

    /** {@code file:line} of the statement's start. */
    public String where() {
        return file + ":" + line;
    }
}
