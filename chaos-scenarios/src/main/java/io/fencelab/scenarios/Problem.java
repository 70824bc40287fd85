package io.fencelab.scenarios;

import java.util.Comparator;

/**
 * One thing wrong with a scenario file, located so an editor can jump to it.
 *
 * @param file    the file as the user named it (or a resource's file name)
 * @param line    1-based; 0 when the problem concerns the file as a whole (it cannot be read)
 * @param column  1-based; 0 with line 0
 * @param path    the field concerned ({@code workers[0].onStale}), {@code YAML syntax}, or null
 * @param message what is wrong and, where it helps, what is allowed
 */
public record Problem(String file, int line, int column, String path, String message) {

    /** Reading order: by position in the file. */
    static final Comparator<Problem> BY_POSITION = Comparator.comparingInt(Problem::line)
            .thenComparingInt(Problem::column);

    /** A problem with the file itself (missing, unreadable), which has no position. */
    static Problem ofFile(String file, String message) {
        return new Problem(file, 0, 0, null, message);
    }

    /** {@code file:line:column: path: message}, the form compilers use, so editors and terminals link it. */
    @Override
    public String toString() {
        StringBuilder s = new StringBuilder(file);
        if (line > 0) {
            s.append(':').append(line).append(':').append(column);
        }
        s.append(": ");
        if (path != null) {
            s.append(path).append(": ");
        }
        return s.append(message).toString();
    }
}
