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
