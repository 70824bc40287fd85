package io.fencelab.engine.files;

import com.fasterxml.jackson.core.JsonLocation;
import com.fasterxml.jackson.core.JsonProcessingException;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.AccessDeniedException;
import java.nio.file.DirectoryNotEmptyException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.FileSystemException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.NotDirectoryException;
import java.nio.file.Path;
import java.util.Optional;

/**
 * The one wording of a file error for a user: what was wrong with which path, in one line
 * ({@code "out/report.html: permission denied"}, {@code "no space left on /mnt/lab (0 bytes free)"},
 * {@code "runs/summary.json: not valid JSON: line 1, column 2: …"}). The JDK's own messages are often
 * the bare path ({@link NoSuchFileException}, {@link AccessDeniedException},
 * {@link FileAlreadyExistsException}), which says nothing about what went wrong.
 *
 * <p>Never quotes a file's contents beyond a short printable prefix of a parser's message.
 */
public final class FileProblem {

    /** The most of a parser's own message kept: it may quote the offending text. */
    private static final int PARSER_MESSAGE_LIMIT = 100;

    private FileProblem() {
    }

    /** {@code e} in one line, naming the path it carries. */
    public static String of(IOException e) {
        return of(null, e);
    }

    /** {@code e}'s cause in one line (an {@link UncheckedIOException}'s message is often just the cause's). */
    public static String of(UncheckedIOException e) {
        return of(null, e.getCause());
    }

    /**
     * {@code e} in one line; {@code file} is the path the caller was reading or writing, named when
     * the exception does not carry one (a disk-full write, a parser's error).
     */
    public static String of(Path file, IOException e) {
        if (saysNoSpace(e)) {
            return noSpace(file != null ? file : pathOf(e).orElse(null));
        }
        if (e instanceof JsonProcessingException json) {
            return (file == null ? "" : file + ": ") + "not valid JSON: " + located(json);
        }
        if (e instanceof FileSystemException fs && fs.getFile() != null) {
            String where = fs.getOtherFile() == null ? fs.getFile() : fs.getFile() + " -> " + fs.getOtherFile();
            return where + ": " + what(fs);
        }
        String message = e.getMessage() == null ? e.getClass().getSimpleName() : firstLine(e.getMessage());
        return file == null ? message : file + ": " + sentenceAfterPath(message);
    }

    /** Whether {@code e} says the file system is full (or the user's quota is). */
    public static boolean isNoSpace(Throwable e) {
        for (Throwable t = e; t != null; t = t.getCause()) {
            if (saysNoSpace(t)) {
                return true;
            }
        }
        return false;
    }

    /** Whether {@code t} itself is the kernel's ENOSPC or EDQUOT (a wrapper that worded it already is not). */
    private static boolean saysNoSpace(Throwable t) {
        String m = t instanceof FileSystemException fs ? fs.getReason() : t.getMessage();
        return m != null && (m.contains("No space left on device") || m.contains("Disk quota exceeded"));
    }

    /**
     * {@code "no space left on DIR (N bytes free)"}, DIR being the directory {@code file} is in
     * (or {@code file} itself when it is one).
     */
    public static String noSpace(Path file) {
        if (file == null) {
            return "no space left on the device";
        }
        Path dir = Files.isDirectory(file) || file.getParent() == null ? file : file.getParent();
        String free;
        try {
            free = Files.getFileStore(dir).getUsableSpace() + " bytes free";
        } catch (IOException | RuntimeException unknown) {
            free = "free space unknown";
        }
        return "no space left on " + dir + " (" + free + ")";
    }

    /**
     * Refuses {@code dir} as a directory to write into when it exists as something else: one line
     * naming {@code option} (an option such as {@code --report}) and the path.
     *
     * @throws IllegalArgumentException if {@code dir} exists and is not a directory
     */
    public static void requireDirectoryOrAbsent(String option, Path dir) {
        if (Files.exists(dir) && !Files.isDirectory(dir)) {
            throw new IllegalArgumentException(option + " " + dir + ": is a file, not a directory; give a directory "
                    + "(created if it does not exist)");
        }
    }

    private static String what(FileSystemException e) {
        Path file = Path.of(e.getFile());
        if (e instanceof NoSuchFileException) {
            return "no such file or directory";
        }
        if (e instanceof AccessDeniedException) {
            return "permission denied";
        }
        if (e instanceof NotDirectoryException) {
            return "is a file, not a directory";
        }
        if (e instanceof DirectoryNotEmptyException) {
            return "is a directory that is not empty";
        }
        if (e instanceof FileAlreadyExistsException) {
            return Files.isDirectory(file) ? "already exists (a directory)"
                    : Files.exists(file) ? "already exists as a file, not a directory" : "already exists";
        }
        String reason = e.getReason();
        if (reason == null) {
            return e.getClass().getSimpleName();
        }
        if (reason.equalsIgnoreCase("not a directory")) {
            return "a part of this path is a file, not a directory";
        }
        return sentenceAfterPath(reason);
    }

    /** The JDK's reasons are sentences ("Is a directory"): lower-cased to follow a path. */
    private static String sentenceAfterPath(String reason) {
        return reason.isEmpty() ? reason : Character.toLowerCase(reason.charAt(0)) + reason.substring(1);
    }

    private static String located(JsonProcessingException e) {
        JsonLocation at = e.getLocation();
        String where = at == null || at.getLineNr() < 1 ? "" : "line " + at.getLineNr() + ", column " + at.getColumnNr() + ": ";
        return where + printable(firstLine(e.getOriginalMessage()));
    }

    /** The path an exception names, if it names one. */
    private static Optional<Path> pathOf(IOException e) {
        return e instanceof FileSystemException fs && fs.getFile() != null ? Optional.of(Path.of(fs.getFile()))
                : Optional.empty();
    }

    private static String firstLine(String s) {
        if (s == null) {
            return "";
        }
        int nl = s.indexOf('\n');
        return (nl < 0 ? s : s.substring(0, nl)).strip();
    }

    /** At most {@link #PARSER_MESSAGE_LIMIT} characters, control characters as '?'. */
    private static String printable(String s) {
        StringBuilder b = new StringBuilder();
        s.codePoints().limit(PARSER_MESSAGE_LIMIT).forEach(c -> b.appendCodePoint(Character.isISOControl(c) ? '?' : c));
        return s.codePointCount(0, s.length()) > PARSER_MESSAGE_LIMIT ? b + "…" : b.toString();
    }
}
