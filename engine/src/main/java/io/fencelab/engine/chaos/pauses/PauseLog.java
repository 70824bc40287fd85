package io.fencelab.engine.chaos.pauses;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.nio.file.AccessDeniedException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;

/**
 * Reads the pauses a real process had, from the file it logged them in, whatever its format: a JDK
 * unified GC or safepoint log, a JFR recording, or durations listed by hand or in a CSV file
 * ({@link PauseFormat#ACCEPTED}). The format is told from the content, not the file name. A file that
 * is none of these, or that mixes two sources of pauses, is refused with a {@link PauseLogException}
 * naming the line.
 */
public final class PauseLog {

    private PauseLog() {
    }

    /** Reads {@code file}; messages name it as given. */
    public static PauseSample read(Path file) {
        return read(file, file.toString());
    }

    /**
     * Reads {@code file}.
     *
     * @param label how messages and the sample name the file (a scenario names it as its author wrote it)
     */
    public static PauseSample read(Path file, String label) {
        byte[] bytes;
        try {
            bytes = Files.readAllBytes(file);
        } catch (NoSuchFileException e) {
            throw new PauseLogException(label, 0, "no such file");
        } catch (AccessDeniedException e) {
            throw new PauseLogException(label, 0, "permission denied");
        } catch (IOException e) {
            throw new PauseLogException(label, 0, Files.isDirectory(file) ? "is a directory, not a file"
                    : "cannot be read");
        }
        return isJfr(bytes) ? JfrRecording.read(label, file) : text(label, bytes);
    }

    /**
     * Reads a file's content held in memory (a resource on the class path). A JFR recording is read
     * through a temporary file, as the JDK's reader wants one.
     */
    public static PauseSample read(String label, byte[] content) {
        if (!isJfr(content)) {
            return text(label, content);
        }
        Path copy = null;
        try {
            copy = Files.createTempFile("fencelab-pauses-", ".jfr");
            Files.write(copy, content);
            return JfrRecording.read(label, copy);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot copy the recording " + label + " to a temporary file", e);
        } finally {
            if (copy != null) {
                try {
                    Files.deleteIfExists(copy);
                } catch (IOException e) {
                    copy.toFile().deleteOnExit();
                }
            }
        }
    }

    private static boolean isJfr(byte[] bytes) {
        return bytes.length >= JfrRecording.MAGIC.length
                && Arrays.equals(bytes, 0, JfrRecording.MAGIC.length, JfrRecording.MAGIC, 0, JfrRecording.MAGIC.length);
    }

    private static PauseSample text(String label, byte[] bytes) {
        String text;
        try {
            text = StandardCharsets.UTF_8.newDecoder().onMalformedInput(CodingErrorAction.REPORT)
                    .onUnmappableCharacter(CodingErrorAction.REPORT).decode(ByteBuffer.wrap(bytes)).toString();
        } catch (CharacterCodingException e) {
            throw new PauseLogException(label, 0, "is neither UTF-8 text nor a JFR recording; accepted: "
                    + PauseFormat.ACCEPTED);
        }
        List<String> lines = (text.startsWith("\uFEFF") ? text.substring(1) : text).lines().toList();
        int first = -1;
        for (int i = 0; i < lines.size() && first < 0; i++) {
            String l = lines.get(i).strip();
            first = l.isEmpty() || l.startsWith("#") ? -1 : i;
        }
        if (first < 0) {
            throw new PauseLogException(label, 0, "is empty; accepted: " + PauseFormat.ACCEPTED);
        }
        String line = lines.get(first);
        if (UnifiedLog.looksLike(line)) {
            return UnifiedLog.read(label, lines);
        }
        if (DurationList.looksLike(line)) {
            return DurationList.read(label, lines);
        }
        // A log captured from a process's standard output can start with other lines (VM warnings).
        if (lines.stream().anyMatch(UnifiedLog::looksLike)) {
            return UnifiedLog.read(label, lines);
        }
        throw new PauseLogException(label, first + 1, "'" + DurationText.abbreviate(line.strip())
                + "' is not a line of any accepted format; accepted: " + PauseFormat.ACCEPTED);
    }
}
