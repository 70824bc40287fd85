package io.fencelab.engine.event;

import java.nio.file.Path;

/**
 * A line of an event log that is not a valid event. The message names the file, the line and the
 * problem, in words meant for the person who has to fix it. (An {@link IllegalArgumentException},
 * so the command line reports it as bad input.)
 */
public final class EventLogFormatException extends IllegalArgumentException {

    private final transient Path file;
    private final long line;
    private final String problem;

    public EventLogFormatException(Path file, long line, String problem) {
        super(file + ", line " + line + ": " + problem);
        this.file = file;
        this.line = line;
        this.problem = problem;
    }

    public Path file() {
        return file;
    }

    /** 1-based line number. */
    public long line() {
        return line;
    }

    /** What is wrong with the line, without the file and line number. */
    public String problem() {
        return problem;
    }
}
