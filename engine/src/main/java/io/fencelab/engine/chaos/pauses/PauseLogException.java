package io.fencelab.engine.chaos.pauses;

/**
 * A file {@link PauseLog} cannot read as pauses, located in the file: {@code gc.log:12: message}, or
 * {@code gc.log: message} when the problem is the file as a whole ({@link #line()} 0).
 */
public final class PauseLogException extends RuntimeException {

    private final String file;
    private final int line;
    private final String problem;

    public PauseLogException(String file, int line, String problem) {
        super(file + (line > 0 ? ":" + line : "") + ": " + problem, null, false, false);
        this.file = file;
        this.line = line;
        this.problem = problem;
    }

    /** The most of a line of a data file a message quotes: enough to recognise it, too little to copy it. */
    public static final int QUOTED = 32;

    /**
     * A line (or cell) of a data file as a message may show it: quoted, its first {@value #QUOTED}
     * characters at most, control and invisible characters escaped ({@code \u0000}), so that a file
     * that is not a pause file (a password file, a process's environment) is not printed.
     */
    static String quote(String text) {
        StringBuilder s = new StringBuilder("'");
        text.codePoints().limit(QUOTED).forEach(c -> {
            int type = Character.getType(c);
            if (Character.isISOControl(c) || type == Character.FORMAT || type == Character.LINE_SEPARATOR
                    || type == Character.PARAGRAPH_SEPARATOR || type == Character.SURROGATE
                    || type == Character.UNASSIGNED || type == Character.PRIVATE_USE) {
                s.append(String.format(java.util.Locale.ROOT, "\\u%04X", c));
            } else {
                s.appendCodePoint(c);
            }
        });
        return s.append(text.codePointCount(0, text.length()) > QUOTED ? "…'" : "'").toString();
    }

    /** The file as the caller named it. */
    public String file() {
        return file;
    }

    /** 1-based; 0 for the file as a whole. */
    public int line() {
        return line;
    }

    /** What is wrong, without the location. */
    public String problem() {
        return problem;
    }
}
