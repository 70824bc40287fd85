package io.fencelab.app.console.ui;

import io.fencelab.engine.event.EventLogFormatException;
import io.fencelab.engine.files.FileProblem;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.AccessDeniedException;
import java.nio.file.FileSystemException;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;

/** Turns exceptions into one line for people: what failed and why, never a stack trace. */
public final class Problems {

    private Problems() {
    }

    public static String describe(String what, Throwable e) {
        return what + ": " + reason(e);
    }

    /**
     * Why {@code file} could not be read, for people: the file's name, its folder, and what was
     * wrong (no such file, not allowed, which line is not an event), without the exception's type.
     */
    public static String unreadable(String what, Path file, Throwable e) {
        Path dir = file.toAbsolutePath().getParent();
        return what + " " + file.getFileName() + (dir == null ? "" : " (in " + dir + ")") + " could not be opened: "
                + fileReason(e) + ".";
    }

    private static String fileReason(Throwable e) {
        Throwable cause = e instanceof UncheckedIOException u && u.getCause() != null ? u.getCause() : e;
        return switch (cause) {
            case NoSuchFileException x -> "there is no such file";
            case AccessDeniedException x -> "reading it is not allowed";
            case FileSystemException x when x.getReason() != null -> x.getReason();
            case EventLogFormatException x -> "line " + x.line() + " is not a Fencelab event: "
                    + x.problem().lines().findFirst().orElse("").strip();
            default -> reason(cause);
        };
    }

    /** The first message in the exception's chain, first line only (the engine's messages never hold passwords). */
    public static String reason(Throwable e) {
        for (Throwable t = e; t != null; t = t.getCause()) {
            if (t instanceof IOException io) {
                return FileProblem.of(io); // the JDK's own message is often the bare path
            }
            String m = t.getMessage();
            if (m != null && !m.isBlank()) {
                return m.lines().findFirst().orElse(m).strip();
            }
        }
        return e.getClass().getSimpleName();
    }
}
